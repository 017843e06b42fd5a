import type { BlobAccess } from '../blobs/blob-store';
import type { VideoRecord, VideoVersionRecord } from '../records';
import { isoTime } from '../support/time';
import type { Store } from '../store/store';
import { endUpload, parseId, type Target } from './uploads';
import { uploadId } from '../media/upload-links';
import { and, eq } from '../store/filters';
import type { JobRecord } from '../jobs/job-records';
import { deleteNow, enqueueDelete } from '../jobs/delete-job';
import { enqueue, markDone, release, stillHeld } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';

export const abortUploadKind = 'uploads.abort';

/**
 * An upload (`upload`, as in its link) to give up once its link expired unfinished, and what
 * gathered for it to remove then: with `key` and `uploadId`, an object store's multipart upload.
 */
export type AbortPayload = { upload: string; key?: string; uploadId?: string };

/** How long after its link expired an upload is given up: a PATCH that began just before may still be completing. */
const marginMs = 3600 * 1000;
/** A link with no expiry is looked at again after this. */
const noExpiryMs = 24 * 3600 * 1000;

/** What an upload left unfinished is recorded as. */
const expiredReason = 'The upload link expired before every byte arrived.';

const queueAbort = (store: Store, p: AbortPayload, due: Date, now: Date): Promise<JobRecord> =>
  enqueue(store, { kind: abortUploadKind, subject: p.upload.split(/[.-]/)[0], payload: p, max_attempts: 30, run_after: isoTime(due) }, now);

/**
 * Queues, in the transaction that creates upload `upload` with a link expiring at `expires`, the
 * job that gives it up if it is still unfinished once the link expired: whichever server dies or
 * client never returns, its space is let go of and what gathered for it removed.
 */
export const enqueueGiveUp = (store: Store, upload: string, expires: string, now: Date): Promise<JobRecord> =>
  queueAbort(store, { upload }, abandonedAfter(expires, now), now);

/**
 * Names a multipart upload recorded for `p.upload` for the first time on the job that gives the
 * upload up (in the caller's transaction): the job then aborts it, also when the video goes first
 * and the record with it. An upload from before these jobs gets one queued.
 */
export async function attachMultipart(store: Store, p: Required<AbortPayload>, expires: string | null | undefined, now: Date): Promise<void> {
  const { items } = await store.find<JobRecord>('jobs', { where: and(eq('subject', p.upload.split(/[.-]/)[0]), eq('kind', abortUploadKind), eq('state', 'queued')) });
  const job = items.find((j) => (j.payload as AbortPayload).upload === p.upload && !(j.payload as AbortPayload).uploadId);
  if (job) await store.update<JobRecord>('jobs', job.id, { payload: p });
  else await queueAbort(store, p, abandonedAfter(expires, now), now);
}

/** Queues the abort, due now, of a multipart upload a request started and lost to another's (never recorded). */
export const enqueueLostAbort = (store: Store, p: Required<AbortPayload>, now: Date): Promise<JobRecord> => queueAbort(store, p, now, now);

/** When an upload whose link expires at `expires` is given up. */
export const abandonedAfter = (expires: string | null | undefined, now: Date): Date =>
  new Date((expires ? Date.parse(expires) : now.getTime() + noExpiryMs) + marginMs);

/** The record holding upload `id`'s state, read without checking its link; null when it is gone. */
async function holderOf(store: Store, id: string): Promise<Target | null> {
  const parsed = parseId(id);
  const video = parsed && (await store.get<VideoRecord>('videos', parsed.videoId));
  if (!parsed || !video) return null;
  if (!parsed.versionId) return { video, version: null, upload: video.upload };
  const version = await store.get<VideoVersionRecord>('video_versions', parsed.versionId);
  return version && version.video_id === video.id ? { video, version, upload: version.upload } : null;
}

/** The upload of `holder`, if still in progress and past the time it is given up; null when it is not. */
const abandoned = (holder: Target | null, now: Date): Target | null =>
  holder?.upload.status === 'in_progress' && abandonedAfter(holder.upload.expires, now) <= now ? holder : null;

/**
 * Gives up, in the caller's transaction, the uploads of `video` (its own, its versions') that its
 * job would give up at `now`, for uploads from before these jobs (`reelbase users recount-quota`):
 * what gathered for them goes by a job queued due now. Answers whether it gave any up.
 */
export async function giveUpExpired(tx: Store, video: VideoRecord, now: Date): Promise<boolean> {
  const versions = video.versions_total === 0 ? [] : (await tx.find<VideoVersionRecord>('video_versions', { where: eq('video_id', video.id) })).items;
  const targets: Target[] = [{ video, version: null, upload: video.upload }, ...versions.map((version) => ({ video, version, upload: version.upload }))];
  let any = false;
  for (const target of targets) {
    const secret = target.upload.secret;
    if (!secret || !abandoned(target, now)) continue;
    const id = uploadId(video.id, secret, target.version?.id);
    const part = target.upload.multipart;
    const keys = await endUpload(tx, target, id, expiredReason, now);
    if (keys.length) await enqueueDelete(tx, keys, now);
    await queueAbort(tx, part?.uploadId ? { upload: id, key: part.key, uploadId: part.uploadId } : { upload: id }, now, now);
    any = true;
  }
  return any;
}

/**
 * Gives up an upload that can no longer complete (its link expired): one transaction that reads
 * it still in progress marks it failed and lets go of its space, so a completion that won the race
 * is left alone and no space is let go of twice. Then what gathered for it goes: the multipart
 * upload the payload names (also when its video or version was deleted first; one another
 * request's state replaced goes at once), and the bytes a transport kept outside the blob store
 * (`discardBytes`: a tus partial file). An upload still in use waits until it is given up.
 */
export function abortUploadHandler(d: { store: Store; blobs: BlobAccess; now: () => Date; discardBytes?: (upload: string) => Promise<void> }): JobHandler {
  return {
    async run(job, { worker }) {
      const p = job.payload as AbortPayload;
      const now = d.now();
      const holder = await holderOf(d.store, p.upload);
      const live = holder?.upload.status === 'in_progress';
      const lost = live && p.uploadId !== undefined && holder!.upload.multipart?.uploadId !== p.uploadId;
      // Not to be given up yet (links are not renewed, but a worker's clock may run behind the one that queued the job): due again then.
      if (live && !lost && !abandoned(holder, now)) return release(d.store, job, worker, now, abandonedAfter(holder!.upload.expires, now));
      // Given up first: the space goes back even while the bucket cannot be reached (the abort is then retried).
      const removal = live && !lost ? await d.store.transaction(async (tx) => {
        const current = (await stillHeld(tx, job, worker)) ? abandoned(await holderOf(tx, p.upload), now) : null;
        const keys = current ? await endUpload(tx, current, p.upload, expiredReason, now) : [];
        return keys.length ? enqueueDelete(tx, keys, now) : null;
      }) : null;
      if (removal) await deleteNow(d.store, d.blobs, removal, d.now);
      // Completed into the record's file (a version's file moves to the video once transcoded): nothing to abort.
      const completed = holder?.upload.status === 'complete' && [holder.version?.file?.key, holder.video.file?.key].includes(p.key);
      if (p.key && p.uploadId && !completed) await d.blobs.abortMultipart?.(p.key, p.uploadId);
      if (!lost) await d.discardBytes?.(p.upload);
      await d.store.transaction(async (tx) => (await stillHeld(tx, job, worker)) && markDone(tx, job, now));
    },
    // What is left is an unfinished upload the bucket's own lifecycle rules may expire.
    async failed() {},
  };
}
