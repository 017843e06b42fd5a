import { randomBytes } from 'node:crypto';
import type { Service } from '../engine/service';
import type { VideoRecord, VideoVersionRecord } from '../records';
import { newBlobKey, openUpload, targetOf, type OpenUpload } from './uploads';
import { attachMultipart, enqueueLostAbort } from './abort-upload-job';
import { enqueueDelete } from '../jobs/delete-job';

/** One part of an object store's multipart upload, as the store acknowledged it. */
export interface MultipartPart {
  number: number;
  etag: string;
  size: number;
}

/**
 * A resumable upload assembled as an object store's multipart upload. It lives on the upload's
 * own record, so every server on the database knows the offset without asking the bucket (some
 * S3 servers cannot list an upload's parts), and completion sends the recorded part list.
 */
export interface MultipartState {
  /** The blob the completed upload becomes. */
  key: string;
  /** The store's multipart upload id, once the first part was sent. */
  uploadId: string | null;
  parts: MultipartPart[];
  /** The bytes after the last part (fewer than a part), kept as a blob of their own. */
  tail: { key: string; size: number } | null;
  /** Bytes received: the parts' and the tail's. */
  offset: number;
}

/** A blob key for the tail of upload `id`'s bytes: each write makes a new one, so a conflicting writer never overwrites it. */
export const tailKey = (state: MultipartState): string => `${state.key}-tail-${randomBytes(6).toString('hex')}`;

/** An upload link's multipart state (a fresh one before the first byte), after checking the link as `openUpload` does. */
export async function readMultipart(service: Service, id: string, approach: string): Promise<{ open: OpenUpload; state: MultipartState }> {
  const open = await openUpload(service, id, approach);
  const { upload } = await targetOf(service.store, id);
  return { open, state: upload.multipart ?? { key: newBlobKey(open.videoId), uploadId: null, parts: [], tail: null, offset: 0 } };
}

/**
 * Records `next` as the upload's state if it still stands at offset `from` (in one transaction
 * with the record): false when another request moved it meanwhile, whose state then stands. A
 * multipart upload recorded for the first time is named on the job that gives the upload up.
 */
export async function saveMultipart(service: Service, id: string, from: number, next: MultipartState): Promise<boolean> {
  return service.store.transaction(async (tx) => {
    const { video, version, upload } = await targetOf(tx, id);
    if ((upload.multipart?.offset ?? 0) !== from) return false;
    const saved = { ...upload, multipart: next };
    if (version) await tx.update<VideoVersionRecord>('video_versions', version.id, { upload: saved as VideoVersionRecord['upload'] });
    else await tx.update<VideoRecord>('videos', video.id, { upload: saved as VideoRecord['upload'] });
    if (next.uploadId && next.uploadId !== upload.multipart?.uploadId) {
      await attachMultipart(tx, { upload: id, key: next.key, uploadId: next.uploadId }, upload.expires, service.now());
    }
    return true;
  });
}

/**
 * What a request that lost to another (`saveMultipart` answered false) made and nobody records:
 * the multipart upload it started and the tail it wrote go by durable jobs, queued now.
 */
export async function discardLost(service: Service, id: string, mine: MultipartState, base: MultipartState): Promise<void> {
  const startedHere = mine.uploadId && mine.uploadId !== base.uploadId ? mine.uploadId : null;
  const tail = mine.tail && mine.tail.key !== base.tail?.key ? mine.tail.key : null;
  if (!startedHere && !tail) return;
  await service.store.transaction(async (tx) => {
    if (startedHere) await enqueueLostAbort(tx, { upload: id, key: mine.key, uploadId: startedHere }, service.now());
    if (tail) await enqueueDelete(tx, [tail], service.now());
  });
  service.jobs.notify();
}
