import type { IncomingMessage, ServerResponse } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { DataStore, Server as TusServer, Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { ApiError, BlobUnavailableError, blobsUnavailable, finishUpload, newBlobKey, type BlobStore, type MediaTools, type OpenUpload, type Service } from '@reelbase/core';
import { isMultipartStore, MultipartTusStore, type MultipartBlobs } from '@reelbase/blobs-s3/tus';
import { removeTusFile, tusDirOf } from '@reelbase/blobs-fs';
import { linkId, openLink, refuse, type Write } from './upload-link';

export const tusPath = '/uploads/tus';

/** Where a tus upload's bytes gather until the last one arrives, and how they become a blob. */
interface TusBytes {
  datastore: DataStore;
  /** Makes the data store's upload for a valid link on its first request. */
  open(id: string, size: number | null): Promise<void>;
  /** The finished upload as a blob. */
  finish(id: string, videoId: string): Promise<{ key: string; size: number }>;
  /** Drops what gathered for a link that expired or finished. */
  discard(id: string): Promise<void>;
}

/** On a disk of this server (the filesystem store: one machine, or a shared directory). */
function fileBytes(blobs: BlobStore, dir: string): TusBytes {
  const datastore = new FileStore({ directory: dir });
  return {
    datastore,
    async open(id, size) {
      const exists = await datastore.getUpload(id).then(
        () => true,
        () => false,
      );
      if (!exists) await datastore.create(new Upload({ id, size: size ?? undefined, offset: 0, creation_date: new Date().toISOString() }));
    },
    async finish(id, videoId) {
      // Opened before the blob store reads it: a file removed meanwhile (its upload given up) is an
      // error here, not one a stream raises before anybody listens.
      const bytes = (await open(join(dir, id))).createReadStream();
      return blobs.put(newBlobKey(videoId), bytes).finally(() => bytes.destroy());
    },
    discard: (id) => removeTusFile(datastore, id),
  };
}

/** In the bucket, as a multipart upload recorded in the database: any server takes the next PATCH. */
function multipartBytes(service: Service, blobs: MultipartBlobs): TusBytes {
  const datastore = new MultipartTusStore(service, blobs);
  return { datastore, open: async () => undefined, finish: (id) => datastore.finish(id), discard: async () => undefined };
}

/**
 * The refusal (404/5011) of a link whose upload ended while its last bytes were on their way
 * (given up once expired, which removed its file); null while it is open or only expired.
 */
async function endedLink(service: Service, id: string): Promise<ApiError | null> {
  const link = await openLink(service, id, 'tus');
  return link instanceof ApiError && link.status === 404 ? link : null;
}

/**
 * The refusal of a PATCH whose bytes would end past the upload's declared size, answered before
 * any is read: the Error representation (not @tus/server's plain-text 413), and the upload as it
 * was, so the client may send the right bytes again, or replace the file with a new version.
 */
function pastDeclaredSize(req: IncomingMessage, open: OpenUpload): ApiError | null {
  const offset = Number(req.headers['upload-offset']);
  const length = Number(req.headers['content-length']);
  if (open.size === null || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset + length <= open.size) return null;
  return new ApiError(
    413,
    2204,
    'The file is larger than the size declared for this upload.',
    `This PATCH would end at byte ${offset + length}, past the upload's declared size of ${open.size} bytes; nothing was written. ` +
      `Send the file's remaining bytes (HEAD gives the offset), or start again with POST /videos/${open.videoId}/versions and the file's real size.`,
  );
}

/**
 * tus 1.0.0 upload links (`/uploads/tus/<id>`), served by @tus/server: over its file store in
 * `tusDir` for a filesystem blob store, over a multipart upload in the bucket for an S3 one. Core
 * decides whether a link is valid and what a finished file becomes; this only moves bytes.
 */
export function createTusHandler(service: Service, blobs: BlobStore, tusDir: string, media: MediaTools, write: Write) {
  // Made on first use: FileStore creates its directory, and most servers never see a tus request.
  let made: { bytes: TusBytes; tus: TusServer } | undefined;
  const make = () => (made ??= build());
  /** The response of the request in flight, for the one header @tus/server cannot add (Retry-After). */
  const current = new AsyncLocalStorage<ServerResponse>();
  const build = () => {
    const bytes = isMultipartStore(blobs) ? multipartBytes(service, blobs) : fileBytes(blobs, tusDir);
    const tus = new TusServer({
      path: tusPath,
      datastore: bytes.datastore,
      maxSize: () => service.config.uploadMaxBytes,
      // Links are made by POST /me/videos, never by tus creation requests.
      namingFunction: () => {
        throw { status_code: 403, body: 'Upload links are created with POST /me/videos.\n' };
      },
      async onUploadFinish(_req, upload) {
        const videoId = upload.id.split(/[.-]/)[0];
        let file: { key: string; size: number } | undefined;
        try {
          file = await bytes.finish(upload.id, videoId);
          await finishUpload(service, upload.id, file, { blobs, media });
        } catch (e) {
          if (file) await blobs.delete(file.key).catch(() => undefined);
          const refusal = e instanceof ApiError ? e : await endedLink(service, upload.id);
          if (!refusal) throw e;
          throw { status_code: refusal.status, body: `${refusal.developerMessage}\n` };
        } finally {
          await bytes.discard(upload.id);
        }
        return {};
      },
      async onResponseError(_req, e) {
        if (!(e instanceof BlobUnavailableError)) return undefined;
        const busy = blobsUnavailable();
        for (const [k, v] of Object.entries(busy.headers)) current.getStore()?.setHeader(k, v);
        return { status_code: busy.status, body: `${busy.developerMessage}\n` };
      },
    });
    return { bytes, tus };
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { bytes, tus } = make();
    const id = linkId(req, tusPath);
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'OPTIONS') {
      const open = await openLink(service, id, 'tus');
      if (open instanceof ApiError) {
        // An expired or finished link leaves no partial file behind.
        await bytes.discard(id);
        return refuse(service, write, req, res, open, { 'Tus-Resumable': '1.0.0' });
      }
      const refusal = method === 'PATCH' ? pastDeclaredSize(req, open) : null;
      if (refusal) return refuse(service, write, req, res, refusal, { 'Tus-Resumable': '1.0.0', Connection: 'close' });
      await bytes.open(id, open.size);
    }
    await current.run(res, () => tus.handle(req, res));
  };
}
