import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The player's scripts, served by this server (never a CDN) at the paths core's player page names
 * (`playerScripts` in core's player-page.ts): hls.js's build out of node_modules and our own
 * scripts, plain browser files in this package's `player/` folder (beside `src/` and `dist/`).
 * Each is read on its first request and kept in memory; answers carry a strong ETag and
 * Last-Modified, are cacheable for a day and revalidate with 304.
 */
interface Asset {
  body: Buffer;
  etag: string;
  lastModified: Date;
}

const sources: Record<string, () => { body: Buffer; modified: Date }> = {
  '/static/player/hls.min.js': () => {
    // Resolved from this module, in src/ as in the build in dist/: the workspace's node_modules.
    const file = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js');
    return { body: readFileSync(file), modified: statSync(file).mtime };
  },
  '/static/player/player.js': () => own('player.js'),
  '/static/player/protocol.js': () => own('protocol.js'),
  '/static/player/beacons.js': () => own('beacons.js'),
};

/** One of our scripts: `player/` is a sibling of this module's folder in src/ as in dist/. */
function own(name: string): { body: Buffer; modified: Date } {
  const file = fileURLToPath(new URL(`../player/${name}`, import.meta.url));
  return { body: readFileSync(file), modified: statSync(file).mtime };
}

const loaded = new Map<string, Asset>();

function asset(path: string): Asset {
  let found = loaded.get(path);
  if (!found) {
    const { body, modified } = sources[path]();
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    // HTTP dates have whole seconds; a finer time would never equal If-Modified-Since.
    found = { body, etag, lastModified: new Date(Math.floor(modified.getTime() / 1000) * 1000) };
    loaded.set(path, found);
  }
  return found;
}

/** Is this request (method and URL) one for a static asset? */
export function isStaticAsset(method: string, url: string): boolean {
  // Every request asks: most are answered by the first comparison.
  return url.startsWith('/static/player/') && (method === 'GET' || method === 'HEAD') && Object.hasOwn(sources, url.split('?')[0]);
}

/** Answers a request `isStaticAsset` accepted: 200 with the file, or 304 when the client's copy is current. */
export function sendStaticAsset(req: IncomingMessage, res: ServerResponse): void {
  const { body, etag, lastModified } = asset((req.url ?? '/').split('?')[0]);
  const headers: Record<string, string> = {
    ETag: etag,
    'Last-Modified': lastModified.toUTCString(),
    'Cache-Control': 'public, max-age=86400',
    'X-Content-Type-Options': 'nosniff',
  };
  if (notModified(req, etag, lastModified)) {
    res.writeHead(304, headers).end();
    return;
  }
  headers['Content-Type'] = 'text/javascript; charset=utf-8';
  headers['Content-Length'] = String(body.length);
  res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
}

/** RFC 9110 §13.1: If-None-Match (weak comparison) decides when present, else If-Modified-Since. */
function notModified(req: IncomingMessage, etag: string, lastModified: Date): boolean {
  const match = req.headers['if-none-match'];
  if (match !== undefined) return match.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && lastModified.getTime() <= since;
}
