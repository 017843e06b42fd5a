import type { Store } from '../store/store';
import type { BlobInfo, BlobStore } from '../blobs/blob-store';
import { OwnedIndex, type OwnedBlob } from './owned-keys';
import { deleteNow, enqueueDelete } from '../jobs/delete-job';
import { deadScratch } from '../jobs/attempt-scratch';

/** What `reelbase blobs check` found. */
export interface BlobCheck {
  /** Blobs listed. */
  blobs: number;
  /** Blobs no record holds, older than the grace period. */
  orphans: BlobInfo[];
  /** Blobs no record holds yet, but younger than the grace period: a writer may be about to record them. */
  young: number;
  /** Files records point at that the store lacks. */
  missing: OwnedBlob[];
  /** Local directories of job attempts no longer running (deadScratch): what a killed process left. */
  scratch: string[];
}

export interface BlobCheckOptions {
  now: Date;
  /** Blobs younger than this are left alone: an upload or a transcode writes its blob before it records it. */
  graceSeconds: number;
}

/**
 * Compares the blob store with the records. The blobs are listed before the records are read, so a
 * blob recorded meanwhile is seen held; one written but not yet recorded is younger than the grace
 * period. A file found missing is looked for again after the records are read once more, so a file
 * replaced (and removed) meanwhile is not reported.
 */
export async function checkBlobs(store: Store, blobs: BlobStore, o: BlobCheckOptions): Promise<BlobCheck> {
  const listed = new Map<string, BlobInfo>();
  for await (const blob of blobs.list('')) listed.set(blob.key, blob);
  const owned = await OwnedIndex.of(store);
  const oldest = o.now.getTime() - o.graceSeconds * 1000;
  const orphans: BlobInfo[] = [];
  let young = 0;
  for (const blob of listed.values()) {
    if (owned.holds(blob.key)) continue;
    if (blob.modified && blob.modified.getTime() > oldest) young++;
    else orphans.push(blob);
  }
  const absent = async (blob: OwnedBlob) => !listed.has(blob.key) && !(await blobs.stat(blob.key));
  let missing = await filterAsync(owned.required, absent);
  if (missing.length) {
    const still = new Set((await OwnedIndex.of(store)).required.map((b) => b.key));
    missing = await filterAsync(
      missing.filter((b) => still.has(b.key)),
      async (b) => !(await blobs.stat(b.key)),
    );
  }
  orphans.sort((a, b) => a.key.localeCompare(b.key));
  missing.sort((a, b) => a.key.localeCompare(b.key));
  return { blobs: listed.size, orphans, young, missing, scratch: await deadScratch(store, blobs) };
}

async function filterAsync<T>(items: T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const out: T[] = [];
  for (const item of items) if (await keep(item)) out.push(item);
  return out;
}

/** Keys a removal job names at most: a job's payload stays one small row. */
const keysPerJob = 500;

/**
 * Removes orphans through the durable removal job (queued, then run at once): a blob store that
 * fails half-way leaves the rest to the workers. Answers how many removals are left queued.
 */
export async function removeOrphans(store: Store, blobs: BlobStore, orphans: BlobInfo[], now: () => Date): Promise<number> {
  let queued = 0;
  for (let i = 0; i < orphans.length; i += keysPerJob) {
    const keys = orphans.slice(i, i + keysPerJob).map((b) => b.key);
    const job = await store.transaction((tx) => enqueueDelete(tx, keys, now()));
    if (!(await deleteNow(store, blobs, job, now))) queued++;
  }
  return queued;
}
