import type { LocalCopy } from '../blobs/blob-store';
import type { TranscodeResult } from '../media/media-tools';
import type { RenditionSet, VideoRecord } from '../records';
import { isoTime } from '../support/time';
import type { Store } from '../store/store';
import type { JobRecord } from '../jobs/job-records';
import { enqueue, markDone, stillHeld } from '../jobs/queue';
import { deleteNow, enqueueDelete } from '../jobs/delete-job';
import { renditionsKey, type TranscodeDeps } from './transcode-job';
import { attemptScratch, dropEarlierAttempts } from '../jobs/attempt-scratch';
import type { JobHandler } from '../jobs/worker';

export const repackageKind = 'repackage';

type RepackagePayload = { key: string };

/**
 * A set made before renditions were fragmented MP4s: its HLS is `<name>/index.m3u8` over MPEG-TS
 * segments, a second copy of every rung.
 */
export const isLegacySet = (set: RenditionSet | null | undefined): set is RenditionSet => !!set && set.list.some((r) => r.playlist.includes('/'));

/** Queues the re-packaging of the video's rendition set, in the caller's transaction. */
export const enqueueRepackage = (store: Store, video: VideoRecord & { renditions: RenditionSet }, now: Date) =>
  enqueue(store, { kind: repackageKind, subject: video.id, payload: { key: video.renditions.key } satisfies RepackagePayload, max_attempts: 3 }, now);

/**
 * Re-packages a legacy rendition set into one fragmented MP4 a rung (stream copy, no re-encode),
 * beside it, and swaps it in by one transaction while the set is still the video's; then the old
 * set, TS segments and all, is removed. A video transcoded again meanwhile keeps its new set.
 */
export function repackageHandler(d: TranscodeDeps): JobHandler {
  return {
    async run(job, { worker, signal }) {
      const p = job.payload as RepackagePayload;
      const video = await d.store.get<VideoRecord>('videos', job.subject);
      const current = (v: VideoRecord | null) => !!v && v.renditions?.key === p.key && isLegacySet(v.renditions);
      if (!current(video)) {
        await d.store.transaction(async (tx) => (await stillHeld(tx, job, worker)) && markDone(tx, job, d.now()));
        return;
      }
      const old = video!.renditions!;
      const kept = renditionsKey(job.subject, job.id);
      // As a transcode: the rungs' MP4s lent as local copies, the output written to a scratch
      // directory and stored whole; every local copy goes whatever happens.
      const copies: LocalCopy[] = [];
      let result: TranscodeResult;
      await dropEarlierAttempts(d.blobs, job);
      try {
        const sources = [];
        for (const [i, r] of old.list.entries()) {
          const copy = await d.blobs.materialise(`${old.key}/${r.file}`, attemptScratch(job, String(i)));
          copies.push(copy);
          sources.push({ name: r.name, path: copy.path });
        }
        const work = await d.blobs.scratch(attemptScratch(job));
        copies.push(work);
        result = await d.media.repackage(sources, work.path, { signal });
        await d.blobs.putTree(kept, work.path);
      } finally {
        await Promise.all(copies.map((c) => c.release()));
      }
      // The set let go of (the old one, or this one when it came too late) is removed by a job
      // queued with the swap, as a transcode's: it goes even if this worker dies now.
      const removal = await d.store.transaction(async (tx) => {
        const swap = async (): Promise<string> => {
          if (!(await stillHeld(tx, job, worker))) return kept;
          await markDone(tx, job, d.now());
          const now = await tx.get<VideoRecord>('videos', job.subject);
          if (!current(now)) return kept;
          const renditions: RenditionSet = { key: kept, source: old.source, master: result.master, list: result.renditions, time: isoTime(d.now()) };
          await tx.update<VideoRecord>('videos', job.subject, { renditions });
          return old.key;
        };
        return enqueueDelete(tx, [await swap()], d.now());
      });
      await deleteNow(d.store, d.blobs, removal, d.now);
    },
    // The legacy set keeps playing.
    async failed() {},
  };
}

/**
 * Queues a re-packaging job for every video whose renditions are a legacy set (one transaction a
 * page of videos); answers how many. Running it twice queues twice, harmlessly: a job whose set
 * was already replaced does nothing.
 */
export async function queueRepackaging(store: Store, now: Date): Promise<number> {
  let queued = 0;
  const page = 200;
  for (let offset = 0; ; offset += page) {
    const { items } = await store.find<VideoRecord>('videos', { orderBy: [{ field: 'id', direction: 'asc' }], offset, limit: page });
    const legacy = items.filter((v): v is VideoRecord & { renditions: RenditionSet } => isLegacySet(v.renditions));
    if (legacy.length) await store.transaction(async (tx) => void (await Promise.all(legacy.map((v) => enqueueRepackage(tx, v, now)))));
    queued += legacy.length;
    if (items.length < page) return queued;
  }
}
