import type { IncomingMessage } from 'node:http';

/** `*` allows any origin; a list allows exactly those; empty disables CORS headers. */
export type CorsOrigins = '*' | readonly string[];

const allowHeaders = 'Authorization, Content-Type, Accept, If-Modified-Since, Tus-Resumable, Upload-Length, Upload-Offset, Upload-Metadata';
const exposeHeaders = 'Location, Last-Modified, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Upload-Offset, Upload-Length, Tus-Resumable';

export function corsHeaders(req: IncomingMessage, origins: CorsOrigins): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin) return {};
  const allowed = origins === '*' || origins.includes(origin);
  if (!allowed) return {};
  return {
    'Access-Control-Allow-Origin': origins === '*' ? '*' : origin,
    'Access-Control-Expose-Headers': exposeHeaders,
    ...(origins === '*' ? {} : { Vary: 'Origin' }),
  };
}

export function preflightHeaders(req: IncomingMessage, origins: CorsOrigins): Record<string, string> {
  const base = corsHeaders(req, origins);
  if (!base['Access-Control-Allow-Origin']) return base;
  return {
    ...base,
    'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
    'Access-Control-Allow-Headers': allowHeaders,
    'Access-Control-Max-Age': '600',
  };
}
