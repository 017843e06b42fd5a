import type { IncomingMessage, ServerResponse } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { DataStore, Server as TusServer, Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { ApiError, BlobUnavailableError, blobsUnavailable, finishUpload, newBlobKey, type BlobStore, type MediaTools, type OpenUpload, type Service, type ServiceResponse } from '@reelbase/core';
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
 * The refusal of a PATCH whose bytes go past the upload's declared size: the Error representation
 * (not @tus/server's plain-text 413), and the upload kept so the client may send the right bytes
 * again, or replace the file with a new version. `end` is where the PATCH said it would end
 * (Content-Length); a chunked one says nothing, and is stopped once its bytes cross the size.
 */
function pastDeclaredSize(open: OpenUpload, end: number | null): ApiError {
  const limit = open.size === null ? `the largest file accepted, ${open.maxBytes} bytes` : `the upload's declared size of ${open.size} bytes`;
  const what = end === null ? `This PATCH's bytes went past ${limit}; those that fit were kept.` : `This PATCH would end at byte ${end}, past ${limit}; nothing was written.`;
  return new ApiError(
    413,
    2204,
    'The file is larger than the size declared for this upload.',
    `${what} Send the file's remaining bytes (HEAD gives the offset), or start again with POST /videos/${open.videoId}/versions and the file's real size.`,
  );
}

/** The refusal of a PATCH that says (Content-Length) it would end past the declared size, answered before any byte is read. */
function announcedPastSize(req: IncomingMessage, open: OpenUpload): ApiError | null {
  const offset = Number(req.headers['upload-offset']);
  const length = Number(req.headers['content-length']);
  if (open.size === null || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset + length <= open.size) return null;
  return pastDeclaredSize(open, offset + length);
}

/** What one tus request carries through @tus/server: its upload, and the answer that replaces @tus/server's error text. */
interface TusRequest {
  open?: OpenUpload;
  answer?: ServiceResponse;
}

/**
 * @tus/server answering reelbase's refusals with the Error representation, as every other upload
 * answer is: its error hook can change only a status and a plain-text body, so the hook leaves the
 * whole answer in the request's state and `write` (where @tus/server makes every error response) sends it.
 */
class TusServerWithErrors extends TusServer {
  constructor(
    options: ConstructorParameters<typeof TusServer>[0],
    private readonly request: AsyncLocalStorage<TusRequest>,
  ) {
    super(options);
  }

  override write(...[context, headers, status, body]: Parameters<TusServer['write']>): ReturnType<TusServer['write']> {
    const answer = this.request.getStore()?.answer;
    if (!answer) return super.write(context, headers, status, body);
    for (const [k, v] of Object.entries(answer.headers)) headers.set(k, v);
    return super.write(context, headers, answer.status, JSON.stringify(answer.body));
  }
}

/** A @tus/server error that reelbase answers itself, as an ApiError; null for the rest (its own protocol answers). */
function refusalOf(e: unknown, open: OpenUpload | undefined): ApiError | null {
  if (e instanceof ApiError) return e;
  if (e instanceof BlobUnavailableError) return blobsUnavailable();
  // Thrown by @tus/server as plain objects (ERR_SIZE_EXCEEDED) or a MaxFileExceededError: a chunked PATCH past the size.
  if (open && (e as { status_code?: unknown } | null)?.status_code === 413) return pastDeclaredSize(open, null);
  return null;
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
  const request = new AsyncLocalStorage<TusRequest>();
  const build = () => {
    const bytes = isMultipartStore(blobs) ? multipartBytes(service, blobs) : fileBytes(blobs, tusDir);
    const tus = new TusServerWithErrors(
      {
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
            throw (e instanceof ApiError ? e : await endedLink(service, upload.id)) ?? e;
          } finally {
            await bytes.discard(upload.id);
          }
          return {};
        },
        async onResponseError(_req, e) {
          const state = request.getStore();
          const refusal = refusalOf(e, state?.open);
          if (!refusal || !state) return undefined;
          state.answer = service.errorResponse(refusal);
          state.answer.headers.Connection = 'close';
          return { status_code: refusal.status, body: '' };
        },
      },
      request,
    );
    return { bytes, tus };
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { bytes, tus } = make();
    const id = linkId(req, tusPath);
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') return tus.handle(req, res);
    const open = await openLink(service, id, 'tus');
    if (open instanceof ApiError) {
      // An expired or finished link leaves no partial file behind.
      await bytes.discard(id);
      return refuse(service, write, req, res, open, { 'Tus-Resumable': '1.0.0' });
    }
    const refusal = method === 'PATCH' ? announcedPastSize(req, open) : null;
    if (refusal) return refuse(service, write, req, res, refusal, { 'Tus-Resumable': '1.0.0', Connection: 'close' });
    await bytes.open(id, open.size);
    await request.run({ open }, () => tus.handle(req, res));
  };
}
