import type { BlobAccess } from '../blobs/blob-store';
import { isMediaInputError, type MediaTools, type TranscodeResult, type VideoProbe } from '../media/media-tools';
import { framePrefix } from '../media/image-links';
import type { VideoRecord, VideoVersionRecord } from '../records';
import { isoTime } from '../support/time';
import type { Store } from '../store/store';
import type { JobRecord } from '../jobs/job-records';
import { enqueue, markDone, stillHeld } from '../jobs/queue';
import { PermanentJobError, type JobHandler } from '../jobs/worker';
import { emitVideoEvent } from '../domain/webhooks';
import { deleteNow, enqueueDelete } from '../jobs/delete-job';
import { countUploadBytes } from '../domain/upload-quota';
import { attemptScratch, dropEarlierAttempts } from '../jobs/attempt-scratch';

export const transcodeKind = 'transcode';

type TranscodePayload = { file: string; version: string | null };

/** Queues the transcode of `file` (the video's own upload, or a new version's) in the caller's transaction. */
export const enqueueTranscode = (store: Store, videoId: string, file: string, version: string | null, now: Date) =>
  enqueue(store, { kind: transcodeKind, subject: videoId, payload: { file, version } satisfies TranscodePayload, max_attempts: 3 }, now);

/** Where a job's finished ladder is kept (per job: a dead worker's attempt is replaced whole by the next). */
export const renditionsKey = (videoId: string, jobId: string): string => `videos/${videoId}/renditions/${jobId}`;

/** The file still waiting for this job: the video's own, or the latest version's. */
async function stillWanted(store: Store, video: VideoRecord, p: TranscodePayload): Promise<VideoVersionRecord | null | false> {
  if (!p.version) return video.file?.key === p.file && video.renditions?.source !== p.file ? null : false;
  const version = await store.get<VideoVersionRecord>('video_versions', p.version);
  return version?.file?.key === p.file ? version : false;
}

export interface TranscodeDeps {
  store: Store;
  blobs: BlobAccess;
  media: MediaTools;
  now: () => Date;
}

/**
 * Transcodes a video's file to its rendition ladder. The outputs are written to a local directory,
 * stored whole under a key of the job, and swapped in by one transaction that also completes the
 * job — only while this worker still holds it and the file is still the one wanted (a newer
 * version, or a deleted video, discards them). The replaced renditions and file go after.
 */
export function transcodeHandler(d: TranscodeDeps): JobHandler {
  return {
    async run(job, { worker, signal }) {
      const p = job.payload as TranscodePayload;
      const video = await d.store.get<VideoRecord>('videos', job.subject);
      if (!video || (await stillWanted(d.store, video, p)) === false) {
        await d.store.transaction(async (tx) => (await stillHeld(tx, job, worker)) && markDone(tx, job, d.now()));
        return;
      }
      if (video.status === 'transcode_starting') {
        await d.store.transaction(async (tx) => {
          if (await stillHeld(tx, job, worker)) await tx.update<VideoRecord>('videos', video.id, { status: 'transcoding' });
        });
      }
      // The tools work on local copies: the source lent by the store, the outputs in a scratch
      // directory of this attempt's, stored whole once complete; both go whatever happens (a stop
      // aborts the tools), and so does what an earlier attempt killed with its process left.
      const kept = renditionsKey(video.id, job.id);
      let source: VideoProbe;
      let result: TranscodeResult;
      await dropEarlierAttempts(d.blobs, job);
      const input = await d.blobs.materialise(p.file, attemptScratch(job));
      const work = await d.blobs.scratch(attemptScratch(job)).catch(async (e: unknown) => {
        await input.release();
        throw e;
      });
      try {
        try {
          source = await d.media.probe(input.path);
          result = await d.media.transcode(input.path, work.path, { source, signal });
        } catch (e) {
          throw isMediaInputError(e) ? new PermanentJobError(e.message) : e;
        }
        await d.blobs.putTree(kept, work.path);
      } finally {
        await Promise.all([input.release(), work.release()]);
      }
      /** Swaps the renditions in (while this worker holds the job and the file is wanted): the blobs let go of. */
      const swap = async (tx: Store): Promise<string[]> => {
        const current = await tx.get<VideoRecord>('videos', video.id);
        const version = current ? await stillWanted(tx, current, p) : false;
        if (!(await stillHeld(tx, job, worker))) return [kept];
        if (!current || version === false) {
          await markDone(tx, job, d.now());
          return [kept];
        }
        const now = isoTime(d.now());
        const patch: Partial<VideoRecord> = {
          renditions: { key: kept, source: p.file, master: result.master, list: result.renditions, time: now, ...(result.storyboard ? { storyboard: result.storyboard } : {}) },
          status: 'available',
          transcode_status: 'complete',
          transcode_error: null,
          modified_time: now,
        };
        const gone = current.renditions ? [current.renditions.key] : [];
        if (version) {
          // The new version's renditions are ready: it becomes the file, and the old one goes.
          Object.assign(patch, { file: version.file, duration: Math.round(source.duration), width: source.width, height: source.height });
          const old = current.file?.key;
          if (old && old !== p.file) {
            gone.push(old, framePrefix(current.id, old));
            await countUploadBytes(tx, current.user_id, -current.file!.size);
          }
          await tx.update<VideoVersionRecord>('video_versions', version.id, { file: null });
        }
        const saved = await tx.update<VideoRecord>('videos', current.id, patch);
        await emitVideoEvent(tx, saved!, 'video.available', d.now());
        await markDone(tx, job, d.now());
        return gone;
      };
      // What the swap let go of is removed by a job queued with it: it goes even if this worker dies now.
      const removal = await d.store.transaction(async (tx) => {
        const gone = await swap(tx);
        return gone.length ? enqueueDelete(tx, gone, d.now()) : null;
      });
      if (removal) await deleteNow(d.store, d.blobs, removal, d.now);
    },

    failed: (tx, job, error) => recordTranscodeFailure(tx, job, error, d.now()),
  };
}

/** What a transcode failing for good means for its video (or version); also when an operator cancels it. */
export async function recordTranscodeFailure(tx: Store, job: JobRecord, error: string, now: Date): Promise<void> {
  const p = job.payload as TranscodePayload;
  const video = await tx.get<VideoRecord>('videos', job.subject);
  if (!video) return;
  const message = `The video could not be transcoded: ${error}`;
  if (p.version) {
    // The playing file stays; the version is marked failed.
    const version = await tx.get<VideoVersionRecord>('video_versions', p.version);
    if (version) await tx.update<VideoVersionRecord>('video_versions', version.id, { upload: { ...version.upload, status: 'error' } });
    const saved = await tx.update<VideoRecord>('videos', video.id, { transcode_status: video.renditions ? 'complete' : 'error', transcode_error: message });
    await emitVideoEvent(tx, saved!, 'video.transcode_error', now, { error: message });
    return;
  }
  if (video.file?.key !== p.file) return;
  const saved = await tx.update<VideoRecord>('videos', video.id, { status: 'transcode_error', transcode_status: 'error', transcode_error: message, modified_time: isoTime(now) });
  await emitVideoEvent(tx, saved!, 'video.transcode_error', now, { error: message });
}
