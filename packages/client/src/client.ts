import type { Operation, Service } from '@reelbase/core';
import { httpTransport } from './http-transport';
import { inProcessTransport } from './in-process-transport';
import { jsonBody, formBody, type Transport, type TransportRequest, type TransportResponse } from './transport';

/** How the client reaches the API: a running server, a service in this process, or any transport. */
export type ClientOptions = (
  | { baseUrl: string; service?: never; transport?: never }
  | { service: Service; baseUrl?: never; transport?: never }
  | { transport: Transport; baseUrl?: never; service?: never }
) & {
  /** Bearer token; none means anonymous. */
  token?: string;
  /** API version to ask for (`Accept: …;version=3.2`); default the latest. */
  apiVersion?: string;
  /**
   * The operation table `call` looks ids up in (@reelbase/core's `operations`); none by default,
   * so that the client needs nothing of core at run time. @reelbase/http's `createClient` gives core's.
   */
  operations?: readonly Operation<unknown>[];
};

/** Options of one request. */
export interface RequestOptions {
  query?: Record<string, unknown>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent urlencoded; nested objects go in dot notation (`privacy.view`). */
  form?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Operation parameters: path variables, and the rest as query (GET) or JSON body (other methods). */
export type CallParams = Record<string, unknown>;

/** Options of one `call`. */
export interface CallOptions extends Pick<RequestOptions, 'headers'> {
  /**
   * The JSON body as is, for operations whose body is not an object of parameters (PUT
   * /videos/{id}/tags takes a list); `params` then fill only the path and the query.
   */
  body?: unknown;
}

/** A call that names no operation of the table, or leaves out a path variable. */
export class ClientUsageError extends Error {
  override readonly name = 'ClientUsageError';
}

export interface Client {
  /** Where requests go, for messages. */
  readonly target: string;
  readonly transport: Transport;
  readonly operations: readonly Operation<unknown>[];
  /** Calls an operation of the table by id, e.g. `call('videos.update', { video_id: '7', name: 'Hi' })`. */
  call(operationId: string, params?: CallParams, options?: CallOptions): Promise<TransportResponse>;
  /** Any request by method and path (the path may carry a query string). */
  request(method: string, path: string, options?: RequestOptions): Promise<TransportResponse>;
  /** Releases the transport (closes the store of an in-process client). */
  close(): Promise<void>;
}

/**
 * The reelbase client: `createClient({ baseUrl, token })` over HTTP, `createClient({ service, token })`
 * in-process. Both answer `{ status, headers, body }` and never throw for an API error status.
 */
export function createClient(options: ClientOptions): Client {
  const transport = options.transport ?? (options.service ? inProcessTransport(options.service) : httpTransport(options.baseUrl!));
  const table = options.operations ?? [];
  const byId = new Map(table.map((op) => [op.id, op]));
  const baseHeaders: Record<string, string> = {};
  if (options.token) baseHeaders.authorization = `Bearer ${options.token}`;
  if (options.apiVersion) baseHeaders.accept = `application/vnd.reelbase.*+json;version=${options.apiVersion}`;

  const request: Client['request'] = (method, path, o = {}) => {
    const req: TransportRequest = { method: method.toUpperCase(), path, headers: { ...baseHeaders, ...o.headers } };
    if (o.query) req.query = flatten(o.query);
    if (o.json !== undefined) Object.assign(req, jsonBody(o.json));
    else if (o.form) Object.assign(req, formBody(flatten(o.form)));
    return transport.request(req);
  };

  return {
    target: transport.target,
    transport,
    operations: table,
    request,
    close: () => transport.close(),
    async call(operationId, params = {}, o = {}) {
      const op = byId.get(operationId);
      if (!op) throw new ClientUsageError(`unknown operation "${operationId}" (see GET / or \`reelbase operations\`)`);
      const { path, rest } = resolvePath(op, params);
      if (op.method === 'GET') return request(op.method, path, { query: rest, headers: o.headers });
      if (o.body !== undefined) return request(op.method, path, { query: rest, json: o.body, headers: o.headers });
      const { fields, ...body } = rest;
      return request(op.method, path, {
        query: fields === undefined ? undefined : { fields },
        json: Object.keys(body).length ? body : undefined,
        headers: o.headers,
      });
    },
  };
}

const variables = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** The path of `op` whose variables `params` fill, preferring the most specific; the rest of the params. */
export function resolvePath(op: Operation<unknown>, params: CallParams): { path: string; rest: CallParams } {
  const usable = op.paths.filter((p) => variables(p).every((v) => params[v] !== undefined && params[v] !== null && params[v] !== ''));
  if (!usable.length) {
    const needed = [...new Set(op.paths.map((p) => variables(p).join(', ')))].join(' or ');
    throw new ClientUsageError(`${op.id} needs ${needed} (${op.method} ${op.paths.join(' | ')})`);
  }
  const path = usable.reduce((best, p) => (variables(p).length > variables(best).length ? p : best));
  const rest = { ...params };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    delete rest[name];
    return encodeURIComponent(String(params[name]));
  });
  return { path: filled, rest };
}

/** `{ privacy: { view: 'x' }, tags: ['a', 'b'] }` → `privacy.view=x`, `tags=a,b` (SPEC.md request conventions 3 and 4). */
export function flatten(value: Record<string, unknown>, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const name = prefix ? `${prefix}.${key}` : key;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...flatten(v as Record<string, unknown>, name));
    else out.push([name, Array.isArray(v) ? v.join(',') : String(v)]);
  }
  return out;
}
