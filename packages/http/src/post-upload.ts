import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { ApiError, BlobUnavailableError, blobsUnavailable, finishUpload, newBlobKey, stagingKey, uploadFormPage, type BlobStore, type MediaTools, type Service } from '@reelbase/core';
import { linkId, openLink, refuse, type Write } from './upload-link';

export const postPath = '/uploads/post';

/**
 * The post approach: the upload's HTML form sends the file as multipart/form-data to
 * `/uploads/post/<id>`; the first file part streams into the blob store (within the size cap),
 * core finishes the upload, and the browser is redirected to upload.redirect_url when given.
 * A GET of the link shows the form as a page of its own.
 */
export function createPostHandler(service: Service, blobs: BlobStore, media: MediaTools, write: Write, origin: (req: IncomingMessage) => string) {
  const fail = (req: IncomingMessage, res: ServerResponse, e: ApiError) => refuse(service, write, req, res, e);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const id = linkId(req, postPath);
    const method = (req.method ?? '').toUpperCase();
    if (method !== 'GET' && method !== 'POST') return fail(req, res, new ApiError(405, 2204, 'This method is not allowed here.', 'Upload forms take GET and POST only.'));
    const open = await openLink(service, id, 'post');
    if (open instanceof ApiError) return fail(req, res, open);
    if (method === 'GET') {
      const page = uploadFormPage(open, `${origin(req)}${postPath}/${id}`);
      return write(res, { status: 200, headers: page.headers, html: page.html });
    }
    const key = newBlobKey(open.videoId);
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: open.maxBytes, fields: 20 } });
    } catch (e) {
      return fail(req, res, new ApiError(400, 2205, 'The request body could not be read.', `Expected multipart/form-data: ${(e as Error).message}`));
    }
    const stored = new Promise<{ key: string; size: number } | ApiError | null>((resolve) => {
      let got = false;
      parser.on('file', (_name, stream) => {
        if (got) return stream.resume();
        got = true;
        let tooLarge = false;
        stream.on('limit', () => {
          tooLarge = true;
        });
        // busboy truncates a file at the cap and drains the rest; a truncated file is refused whole.
        async function* whole(): AsyncIterable<Uint8Array> {
          for await (const chunk of stream as AsyncIterable<Uint8Array>) if (!tooLarge) yield chunk;
          if (tooLarge) throw new Error('too large');
        }
        blobs.put(key, whole()).then(
          (info) => resolve(info),
          (e: unknown) =>
            resolve(
              tooLarge
                ? new ApiError(413, 2204, 'The video is too large.', `Files are limited to ${open.maxBytes} bytes.`)
                : e instanceof BlobUnavailableError
                  ? blobsUnavailable()
                  : new ApiError(400, 2205, 'The upload could not be read.', 'The file part ended early.'),
            ),
        );
      });
      parser.on('close', () => {
        if (!got) resolve(null);
      });
      parser.on('error', () => resolve(new ApiError(400, 2205, 'The request body could not be read.', 'Malformed multipart body.')));
    });
    req.pipe(parser);
    const result = await stored;
    if (result === null) return fail(req, res, new ApiError(400, 2205, 'No file was sent.', 'Send the video as the file_data part of a multipart/form-data POST.'));
    if (result instanceof ApiError) {
      await blobs.delete(key).catch(() => undefined);
      return fail(req, res, result);
    }
    let status: string;
    try {
      const done = await finishUpload(service, id, result, { blobs, media });
      status = done.status;
    } catch (e) {
      await blobs.delete(key).catch(() => undefined);
      if (e instanceof ApiError) return fail(req, res, e);
      if (e instanceof BlobUnavailableError) return fail(req, res, blobsUnavailable());
      throw e;
    }
    if (open.redirectUrl) {
      const target = new URL(open.redirectUrl);
      target.searchParams.set('video_uri', `/videos/${open.videoId}`);
      res.writeHead(302, { Location: target.toString(), 'Content-Length': '0' }).end();
      return;
    }
    write(res, { status: 200, headers: { 'Content-Type': 'application/json' }, body: { uri: `/videos/${open.videoId}`, status } });
  };
}

export const streamPath = '/uploads/stream';

/**
 * The streaming approach's upload_link: a PUT of the raw bytes (within the size cap) into a staging
 * blob; DELETE /users/{user_id}/uploads/{upload} (core) then checks, probes and keeps it.
 */
export function createStreamHandler(service: Service, blobs: BlobStore, write: Write) {
  const fail = (req: IncomingMessage, res: ServerResponse, e: ApiError) => refuse(service, write, req, res, e);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const id = linkId(req, streamPath);
    if ((req.method ?? '').toUpperCase() !== 'PUT') return fail(req, res, new ApiError(405, 2204, 'This method is not allowed here.', 'Streaming upload links take PUT only.'));
    const open = await openLink(service, id, 'streaming');
    if (open instanceof ApiError) return fail(req, res, open);
    const cap = Math.min(open.maxBytes, open.size ?? Infinity);
    const tooLarge = () => new ApiError(413, 2204, 'The video is too large.', `This upload takes at most ${cap} bytes.`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) return fail(req, res, tooLarge());
    let over = false;
    async function* capped(): AsyncIterable<Uint8Array> {
      let seen = 0;
      for await (const chunk of req as AsyncIterable<Uint8Array>) {
        seen += chunk.length;
        if (seen > cap) {
          over = true;
          throw new Error('too large');
        }
        yield chunk;
      }
    }
    try {
      await blobs.put(stagingKey(id), capped());
    } catch (e) {
      return fail(req, res, over ? tooLarge() : e instanceof BlobUnavailableError ? blobsUnavailable() : new ApiError(400, 2205, 'The upload could not be read.', 'The request body ended early.'));
    }
    res.writeHead(200, { 'Content-Length': '0' }).end();
  };
}
