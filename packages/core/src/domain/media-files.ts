import { ApiError, codes, forbidden, invalidField, notFound, unauthorized } from '../engine/errors';
import type { Context, Reply } from '../engine/operation';
import { randomBytes } from 'node:crypto';
import type { BlobAccess } from '../blobs/blob-store';
import type { Store } from '../store/store';
import { isMediaInputError, type MediaTools } from '../media/media-tools';
import { headerOf } from '../engine/request';

/** Media links answer the same way whatever is wrong with them: no such object, version or signature. */
export const deadLink = (): ApiError => notFound('file');

/** The file name a download of `video` is saved under: its name made safe for a file name, then `suffix` (`-360p.mp4`). */
export const downloadName = (video: { id: string; name: string }, suffix: string): string =>
  `${video.name.replace(/[^\w .-]+/g, '_').trim() || `video-${video.id}`}${suffix}`;

/** The transport's blob store and media tools; an in-process caller has neither (images are served over HTTP). */
export function mediaAccess(ctx: Context<unknown>): { blobs: BlobAccess; media: MediaTools } {
  if (!ctx.blobs || !ctx.media) {
    throw new ApiError(503, 4005, 'Media files are not available here.', 'This transport serves no media files; use the HTTP server.');
  }
  return { blobs: ctx.blobs, media: ctx.media };
}

/** The body of a PUT to a media link, or 400 naming `file` when there is none. */
export function uploadedBytes(ctx: Context<unknown>, what: string): Uint8Array {
  const bytes = ctx.rawBody ?? new Uint8Array(0);
  if (bytes.length === 0) throw invalidField('file', `The request body is empty: send the ${what} as the body of the PUT.`);
  return bytes;
}

/** Runs a media tool on an upload: its input errors become 400s naming `file`. */
export async function readUpload<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (isMediaInputError(e)) throw invalidField('file', e.message);
    throw e;
  }
}

/** Cache validators of an immutable, versioned media file. */
export interface Validators {
  etag: string;
  lastModified: string;
}

/**
 * Headers of a media file: versioned links never change, so caches may keep them for a year;
 * the validators still answer conditional requests (304) for clients that revalidate.
 */
export function mediaHeaders(v: Validators, immutable = true): Record<string, string> {
  return {
    ETag: v.etag,
    'Last-Modified': new Date(v.lastModified).toUTCString(),
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
  };
}

/** 304 when the request's validators still match (If-None-Match first, as RFC 9110 says). */
export function notModified(ctx: Context<unknown>, v: Validators): Reply | null {
  const inm = headerOf(ctx.request.headers, 'if-none-match');
  const fresh = inm
    ? inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === v.etag || tag.trim() === '*')
    : (() => {
        const ims = Date.parse(headerOf(ctx.request.headers, 'if-modified-since') ?? '');
        return Number.isFinite(ims) && Math.floor(Date.parse(v.lastModified) / 1000) <= Math.floor(ims / 1000);
      })();
  return fresh ? { status: 304, headers: mediaHeaders(v) } : null;
}

/** Small media files (image sizes, captions) kept in memory: their keys name one version of them, never rewritten. */
const kept = new Map<string, Uint8Array>();
const keepUpTo = 256 * 1024;
let keptBytes = 0;
const keptMax = 64 * 1024 * 1024;

/**
 * A blob as an answer, or null when it is not there (yet). A small one is read once and then
 * answered from memory (an image size is asked for far more often than it changes: never); a
 * large one is streamed by the transport, with ranges.
 */
export async function blobReply(blobs: BlobAccess, key: string, type: string, v: Validators): Promise<Reply | null> {
  const known = kept.get(key);
  if (known) return { status: 200, headers: mediaHeaders(v), bytes: { data: known, type } };
  const info = await blobs.stat(key);
  if (!info) return null;
  if (info.size > keepUpTo) return { status: 200, headers: mediaHeaders(v), file: { key, size: info.size, type } };
  const data = await blobs.reader(key)(0, info.size);
  // A bounded memory: forgotten whole rather than tracked by use.
  if (keptBytes + data.length > keptMax) {
    kept.clear();
    keptBytes = 0;
  }
  kept.set(key, data);
  keptBytes += data.length;
  return { status: 200, headers: mediaHeaders(v), bytes: { data, type } };
}

/**
 * Who may PUT to a media link. With a bearer token: the object's owner, holding the upload scope.
 * Without one: whoever holds the link's upload capability (`?upload=`, signed over `subject`),
 * which only the owner was handed, only while the object has no file of its own — vimeo.php PUTs
 * images and captions with a bare curl handle, no Authorization.
 */
export function authorizeUpload(ctx: Context<unknown>, ownerId: string | null, subject: string, noPermission?: number): void {
  const user = ctx.principal.user;
  if (user) {
    if (!ctx.principal.scopes.has('upload')) throw forbidden('This operation needs the "upload" scope, which the access token lacks.');
    if (user.id !== ownerId) throw forbidden('Only the owner may upload this file.', noPermission);
    return;
  }
  const presented = ctx.request.query.upload;
  if (!presented || !ctx.links.verify(subject, presented)) {
    throw unauthorized(codes.invalidCredentials, 'Send the owner’s access token, or PUT to the link its owner was handed before the first upload.');
  }
}

/**
 * Keeps an upload's file and commits the change that points a record at it. The file is written
 * under a fresh key below `prefix` before any transaction opens (no write waits on the disk), and
 * removed again when the commit fails; the file it replaces (what `commit` answers) is discarded
 * once the commit succeeded.
 */
export async function commitUpload<W>(
  ctx: Context<unknown>,
  blobs: BlobAccess,
  prefix: string,
  write: (key: string) => Promise<W>,
  commit: (tx: Store, key: string, written: W) => Promise<{ key: string } | null | undefined>,
): Promise<Reply> {
  const key = `${prefix}/${randomBytes(8).toString('hex')}`;
  const written = await write(key);
  try {
    const replaced = await ctx.store.transaction((tx) => commit(tx, key, written));
    return { status: 200, discard: replaced ? [replaced.key] : [] };
  } catch (e) {
    await blobs.deleteTree(key);
    throw e;
  }
}
