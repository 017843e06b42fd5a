import type { BlobAccess } from '../blobs/blob-store';
import type { VideoRecord, VideoVersionRecord } from '../records';
import { isoTime } from '../representations/common';
import type { Store } from '../store/store';
import type { MultipartState } from '../uploads/multipart';
import { parseId, type Target } from '../uploads/uploads';
import type { JobRecord } from './job-records';
import { deleteNow, enqueueDelete } from './delete-job';
import { enqueue, markDone, release, stillHeld } from './queue';
import type { JobHandler } from './worker';

export const abortUploadKind = 'uploads.abort';

/** An object store's multipart upload of a tus link (`upload`, as in the link), under `key`. */
export type AbortPayload = { upload: string; key: string; uploadId: string };

/** How long after its link expired an upload is given up: a PATCH that began just before may still be completing. */
const marginMs = 3600 * 1000;
/** A link with no expiry is looked at again after this. */
const noExpiryMs = 24 * 3600 * 1000;

/**
 * Queues the abort of a multipart upload for when it can no longer complete (after its link
 * expired), in the caller's transaction: from its first part on, an upload that is never finished
 * is aborted, whichever server dies or client gives up. `due` earlier (now) for one known lost.
 */
export const enqueueAbort = (store: Store, p: AbortPayload, due: Date, now: Date): Promise<JobRecord> =>
  enqueue(store, { kind: abortUploadKind, subject: p.upload.split(/[.-]/)[0], payload: p, max_attempts: 30, run_after: isoTime(due) }, now);

/** When an upload whose link expires at `expires` is given up. */
export const abandonedAfter = (expires: string | null | undefined, now: Date): Date =>
  new Date((expires ? Date.parse(expires) : now.getTime() + noExpiryMs) + marginMs);

/** The record holding upload `id`'s state, read without checking its link; null when it is gone. */
async function holderOf(store: Store, id: string): Promise<Pick<Target, 'video' | 'version' | 'upload'> | null> {
  const parsed = parseId(id);
  const video = parsed && (await store.get<VideoRecord>('videos', parsed.videoId));
  if (!parsed || !video) return null;
  if (!parsed.versionId) return { video, version: null, upload: video.upload };
  const version = await store.get<VideoVersionRecord>('video_versions', parsed.versionId);
  return version && version.video_id === video.id ? { video, version, upload: version.upload } : null;
}

/**
 * Aborts a multipart upload that can no longer complete: its link expired, its video or version
 * was deleted, or another request's state replaced it. One still in use waits until it is given up;
 * one that completed into its record's file is left alone. The state of an expired upload goes
 * with the abort, and its tail blob by a removal job queued with that change.
 */
export function abortUploadHandler(d: { store: Store; blobs: BlobAccess; now: () => Date }): JobHandler {
  return {
    async run(job, { worker }) {
      const p = job.payload as AbortPayload;
      const now = d.now();
      const holder = await holderOf(d.store, p.upload);
      const state = holder?.upload.multipart as MultipartState | null | undefined;
      const recorded = holder?.upload.status === 'in_progress' && state?.uploadId === p.uploadId;
      if (recorded) {
        const due = abandonedAfter(holder!.upload.expires, now);
        if (due > now) return release(d.store, job, worker, now, due);
      }
      // Completed into the record's file (a version's file moves to the video once transcoded): nothing to abort.
      const completed = holder?.upload.status === 'complete' && [holder.version?.file?.key, holder.video.file?.key].includes(p.key);
      if (!completed) await d.blobs.abortMultipart?.(p.key, p.uploadId);
      const removal = await d.store.transaction(async (tx) => {
        if (!(await stillHeld(tx, job, worker))) return null;
        await markDone(tx, job, now);
        const current = recorded ? await holderOf(tx, p.upload) : null;
        const spent = current?.upload.multipart as MultipartState | null | undefined;
        if (!current || spent?.uploadId !== p.uploadId) return null;
        const upload = { ...current.upload, multipart: null };
        if (current.version) await tx.update<VideoVersionRecord>('video_versions', current.version.id, { upload: upload as VideoVersionRecord['upload'] });
        else await tx.update<VideoRecord>('videos', current.video.id, { upload: upload as VideoRecord['upload'] });
        return spent.tail ? enqueueDelete(tx, [spent.tail.key], now) : null;
      });
      if (removal) await deleteNow(d.store, d.blobs, removal, d.now);
    },
    // What is left is an unfinished upload the bucket's own lifecycle rules may expire.
    async failed() {},
  };
}
