import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, blobsUnavailable, type BlobStore, type MediaTools, type Service, type ServiceResponse } from '@reelbase/core';
import { createMediaTools } from '@reelbase/media';
import { corsHeaders, preflightHeaders, type CorsOrigins } from './cors';
import { BodyTooLargeError, hasBody, readBody } from './read-body';
import { FsBlobStore, tusDirOf } from '@reelbase/blobs-fs';
import { createTusHandler, tusPath } from './tus';
import { sendFile } from './send-file';
import { runPull } from './pull';
import { createPostHandler, createStreamHandler, postPath, streamPath } from './post-upload';
import { UploadSlots, uploadsBusy } from './upload-slots';
import { jsonPayload } from './json-payload';
import { isStaticAsset, sendStaticAsset } from './static-assets';
import { hostAllowed } from './allowed-hosts';
import { noteServed } from './observe/trace';

export interface ListenerOptions {
  /** Largest request body accepted; larger → 413. Default 1 MiB. */
  maxBodyBytes?: number;
  cors?: CorsOrigins;
  /** Behind a reverse proxy: the origin for absolute links from X-Forwarded-Proto/Host, the client address (rate limits) from X-Forwarded-For. */
  trustProxy?: boolean;
  /** Directory of video files (when `blobs` is not given) and of uploads in progress. Default `./files`. */
  filesDir?: string;
  /** Where video files live; default the filesystem under `filesDir`. */
  blobs?: BlobStore;
  /** Answer media files with a redirect to the blob store's short-lived URL, where it has them (REELBASE_BLOBS_REDIRECT=1). */
  redirectFiles?: boolean;
  /** Image, frame and caption tools; default @reelbase/media's (sharp, ffmpeg). */
  media?: MediaTools;
  /** The origin (and path prefix) of every absolute link, e.g. `https://videos.example.com`; default each request's own (Host). */
  publicUrl?: string;
  /** Host header values answered (see hostAllowed); any other gets 400. Default: every one. */
  allowedHosts?: readonly string[];
  /** Told the size of each file a pull upload fetched (the upload-bytes metric). */
  pulledBytes?: (bytes: number) => void;
}

/** A node:http request handler over `service.handle`: it only moves bytes, every decision is core's. */
export function createRequestListener(service: Service, options: ListenerOptions = {}) {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const cors = options.cors ?? '*';
  const trustProxy = options.trustProxy ?? false;
  const blobs = options.blobs ?? new FsBlobStore(options.filesDir ?? 'files');
  const media: MediaTools = options.media ?? createMediaTools();
  const slots = new UploadSlots(service.config.maxConcurrentUploads);
  const send = (res: ServerResponse, answer: ServiceResponse) => write(res, answer, {}, false);
  const tus = createTusHandler(service, blobs, tusDirOf(options.filesDir), media, send);
  const linkOrigin = (req: IncomingMessage) => options.publicUrl ?? origin(req, trustProxy);
  const post = createPostHandler(service, blobs, media, send, linkOrigin);
  const stream = createStreamHandler(service, blobs, send);
  const files = {
    blobs,
    redirect: options.redirectFiles ?? false,
    unavailable: (res: ServerResponse, extra: Record<string, string>) => {
      const busy = service.errorResponse(blobsUnavailable());
      write(res, { ...busy, headers: { ...extra, ...busy.headers } }, {}, false);
    },
  };
  /** An upload link: the request moving bytes (`moves`) needs a free upload slot before it reads any. */
  const upload = async (req: IncomingMessage, res: ServerResponse, moves: boolean, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) => {
    for (const [k, v] of Object.entries(corsHeaders(req, cors))) res.setHeader(k, v);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (moves && !slots.tryTake(res)) {
      // Refused before a byte is read or a file made; the client retries after Retry-After.
      req.resume();
      const busy = service.errorResponse(uploadsBusy(service.config.maxConcurrentUploads));
      send(res, { ...busy, headers: { ...busy.headers, Connection: 'close' } });
      return;
    }
    await handle(req, res);
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    if (options.allowedHosts && !hostAllowed(req, options.allowedHosts)) {
      req.resume();
      const refused = service.errorResponse(new ApiError(400, 2204, 'This server does not answer for that name.', `The Host header "${req.headers.host ?? ''}" is not one this server was started to answer (--allowed-hosts).`));
      send(res, { ...refused, headers: { ...refused.headers, Connection: 'close' } });
      return;
    }
    if (url.startsWith(`${streamPath}/`) && method !== 'OPTIONS') return upload(req, res, method === 'PUT', stream);
    if (url.startsWith(`${postPath}/`) && method !== 'OPTIONS') return upload(req, res, method === 'POST', post);
    if (url === tusPath || url.startsWith(`${tusPath}/`)) return upload(req, res, method === 'PATCH', tus);
    if (method === 'OPTIONS') {
      res.writeHead(204, preflightHeaders(req, cors)).end();
      return;
    }
    // The player's scripts (hls.js and ours): files of this package, not the service's.
    if (isStaticAsset(method, url)) return sendStaticAsset(req, res);
    let answer: ServiceResponse;
    // A file sent to a media link may be larger than parameters are; core says how large, and what to answer beyond.
    const fileLimit = hasBody(req) ? service.bodyLimit(method, url) : undefined;
    try {
      const body = hasBody(req) ? await readBody(req, fileLimit?.bytes ?? limit) : undefined;
      answer = await service.handle(undefined, {
        method: method === 'HEAD' ? 'GET' : method,
        url: req.url ?? '/',
        headers: req.headers,
        body: body?.length ? body : undefined,
        baseUrl: linkOrigin(req),
        blobs,
        media,
        clientAddress: clientAddress(req, trustProxy),
      });
      noteServed(req, answer.served);
    } catch (e) {
      answer =
        e instanceof BodyTooLargeError && fileLimit
          ? service.errorResponse(fileLimit.tooLarge)
          : e instanceof BodyTooLargeError
          ? service.errorResponse(new ApiError(413, 2205, 'The request body is too large.', `Request bodies are limited to ${e.limit} bytes.`))
          : service.errorResponse(new ApiError(400, 2205, 'The request body could not be read.', (e as Error).message));
      answer.headers.Connection = 'close';
    }
    if (answer.file) {
      await sendFile(req, res, files, answer, corsHeaders(req, cors), method === 'HEAD');
      return;
    }
    write(res, answer, { ...corsHeaders(req, cors) }, method === 'HEAD');
    for (const task of answer.tasks ?? []) if (task.kind === 'pull') void runPull(service, blobs, media, task, slots, options.pulledBytes);
  };
}

function write(res: ServerResponse, answer: ServiceResponse, extra: Record<string, string>, head: boolean): void {
  const headers: Record<string, string> = { ...extra, ...answer.headers };
  if (answer.html !== undefined) {
    const page = Buffer.from(answer.html);
    headers['Content-Length'] = String(page.length);
    res.writeHead(answer.status, headers).end(head ? undefined : page);
    return;
  }
  if (answer.bytes) {
    headers['Content-Length'] = String(answer.bytes.data.length);
    res.writeHead(answer.status, headers).end(head ? undefined : answer.bytes.data);
    return;
  }
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers).end();
    return;
  }
  const { chunks, bytes } = jsonPayload(answer.body);
  headers['Content-Length'] = String(bytes);
  res.writeHead(answer.status, headers);
  if (head) return void res.end();
  // Corked (end uncorks), node:http sends the headers and every piece in one gathered write.
  res.cork();
  for (const chunk of chunks.slice(0, -1)) res.write(chunk);
  res.end(chunks.at(-1));
}

/** The peer's address; behind a trusted proxy, the last X-Forwarded-For entry (the one the proxy added, not the client's claim). */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').pop()?.trim();
  return last || req.socket.remoteAddress;
}

function origin(req: IncomingMessage, trustProxy: boolean): string {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim();
  const proto = (trustProxy && first(req.headers['x-forwarded-proto'])) || ('encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http');
  const host = (trustProxy && first(req.headers['x-forwarded-host'])) || req.headers.host || `${req.socket.localAddress}:${req.socket.localPort}`;
  return `${proto}://${host}`;
}
