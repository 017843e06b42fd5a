import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Service, type ServiceResponse } from '@reelbase/core';
import { corsHeaders, preflightHeaders, type CorsOrigins } from './cors';
import { BodyTooLargeError, readBody } from './read-body';

export interface ListenerOptions {
  /** Largest request body accepted; larger → 413. Default 1 MiB. */
  maxBodyBytes?: number;
  cors?: CorsOrigins;
  /** Take the origin for absolute links from X-Forwarded-Proto/Host (behind a reverse proxy). */
  trustProxy?: boolean;
}

/** A node:http request handler over `service.handle`: it only moves bytes, every decision is core's. */
export function createRequestListener(service: Service, options: ListenerOptions = {}) {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const cors = options.cors ?? '*';
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      res.writeHead(204, preflightHeaders(req, cors)).end();
      return;
    }
    let answer: ServiceResponse;
    try {
      const body = await readBody(req, limit);
      answer = await service.handle(undefined, {
        method: method === 'HEAD' ? 'GET' : method,
        url: req.url ?? '/',
        headers: req.headers,
        body: body.length ? body : undefined,
        baseUrl: origin(req, options.trustProxy ?? false),
      });
    } catch (e) {
      answer =
        e instanceof BodyTooLargeError
          ? service.errorResponse(new ApiError(413, 2205, 'The request body is too large.', `Request bodies are limited to ${e.limit} bytes.`))
          : service.errorResponse(new ApiError(400, 2205, 'The request body could not be read.', (e as Error).message));
      answer.headers.Connection = 'close';
    }
    write(res, answer, { ...corsHeaders(req, cors) }, method === 'HEAD');
  };
}

function write(res: ServerResponse, answer: ServiceResponse, extra: Record<string, string>, head: boolean): void {
  const headers: Record<string, string> = { ...extra, ...answer.headers };
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers).end();
    return;
  }
  const payload = Buffer.from(JSON.stringify(answer.body));
  headers['Content-Length'] = String(payload.length);
  res.writeHead(answer.status, headers).end(head ? undefined : payload);
}

function origin(req: IncomingMessage, trustProxy: boolean): string {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim();
  const proto = (trustProxy && first(req.headers['x-forwarded-proto'])) || ('encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http');
  const host = (trustProxy && first(req.headers['x-forwarded-host'])) || req.headers.host || `${req.socket.localAddress}:${req.socket.localPort}`;
  return `${proto}://${host}`;
}
