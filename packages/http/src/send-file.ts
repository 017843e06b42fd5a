import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { BlobStore, FileReply, ServiceResponse } from '@reelbase/core';

/** How long a redirect's URL answers: enough to start playing, too short to pass around. */
const redirectSeconds = 300;

/** Playlists name their segments relative to themselves: they stay on the server, whose links are signed. */
const staysHere = (type: string) => type === 'application/vnd.apple.mpegurl';

export interface FileSending {
  blobs: BlobStore;
  /** Redirect to the store's presigned URL instead of streaming (when the store has them). */
  redirect: boolean;
  /** Answers 503 (the store is unavailable), with the given headers. */
  unavailable: (res: ServerResponse, extra: Record<string, string>) => void;
}

/** A strong validator of a blob: keys name one version of a file, written once and never changed. */
const etagOf = (file: FileReply) => `"${createHash('sha256').update(file.key).digest('base64url').slice(0, 22)}-${file.size.toString(36)}"`;

/**
 * Sends a blob core decided to send: a 302 to the store's short-lived URL in redirect mode, else
 * its bytes, honouring one `Range: bytes=` range (206, or 416 when unsatisfiable), `If-Range`,
 * and `If-None-Match` / `If-Modified-Since` (304). A store that cannot be read before the first
 * byte answers 503; one that fails later cuts the response short.
 */
export async function sendFile(req: IncomingMessage, res: ServerResponse, o: FileSending, answer: ServiceResponse, extra: Record<string, string>, head: boolean): Promise<void> {
  const file = answer.file!;
  const etag = answer.headers.ETag ?? etagOf(file);
  const headers: Record<string, string> = {
    ...extra,
    ETag: etag,
    ...(file.modified ? { 'Last-Modified': file.modified.toUTCString() } : {}),
    ...answer.headers,
    'Accept-Ranges': 'bytes',
    'Content-Type': file.type,
    ...(file.downloadName ? { 'Content-Disposition': `attachment; filename="${file.downloadName.replace(/"/g, '')}"` } : {}),
  };
  if (o.redirect && o.blobs.presign && !staysHere(file.type)) {
    let location: string;
    try {
      location = await o.blobs.presign(file.key, { seconds: redirectSeconds, type: file.type, downloadName: file.downloadName });
    } catch {
      return o.unavailable(res, extra);
    }
    // The answer is for this viewer and this while only: the URL expires.
    res.writeHead(302, { ...extra, Location: location, 'Cache-Control': 'private, no-store', 'Content-Length': '0' }).end();
    return;
  }
  if (notModified(req, etag, file.modified)) {
    const { 'Content-Type': _t, 'Content-Disposition': _d, 'Accept-Ranges': _a, ...kept } = headers;
    res.writeHead(304, kept).end();
    return;
  }
  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, file.size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${file.size}`, 'Content-Length': '0' }).end();
    return;
  }
  const status = range ? 206 : answer.status;
  const start = range?.start ?? 0;
  const end = range?.end ?? file.size - 1;
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${file.size}`;
  headers['Content-Length'] = String(Math.max(0, end - start + 1));
  if (head || file.size === 0) {
    res.writeHead(status, headers).end();
    return;
  }
  const stream = o.blobs.get(file.key, { start, end });
  res.on('close', () => stream.destroy());
  // The headers wait for the store's first answer: a store that is down gets a 503, not a cut 200.
  const failed = await firstBytes(stream);
  if (failed) {
    stream.destroy();
    return o.unavailable(res, extra);
  }
  res.writeHead(status, headers);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** Resolves once the stream has bytes (or ended), or with its error. */
function firstBytes(stream: Readable): Promise<Error | null> {
  return new Promise((resolve) => {
    const ok = () => {
      stream.off('error', bad);
      resolve(null);
    };
    const bad = (e: Error) => {
      stream.off('readable', ok);
      resolve(e);
    };
    stream.once('readable', ok);
    stream.once('error', bad);
  });
}

/** The request's validators still match the file (If-None-Match first, as RFC 9110 says). */
function notModified(req: IncomingMessage, etag: string, modified: Date | undefined): boolean {
  const inm = req.headers['if-none-match'];
  if (inm) return inm.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
  const ims = Date.parse(req.headers['if-modified-since'] ?? '');
  return modified !== undefined && Number.isFinite(ims) && Math.floor(modified.getTime() / 1000) <= Math.floor(ims / 1000);
}

/** One byte range of a `bytes=` Range header; null means "send it all" (absent, several ranges, or not bytes). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, a, b] = m;
  if (a === '' && b === '') return null;
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return null;
  }
  if (start >= size || !Number.isSafeInteger(start)) return 'unsatisfiable';
  return { start, end };
}

