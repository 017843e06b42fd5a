import type { BlobAccess } from '../blobs/blob-store';
import type { Store } from '../store/store';
import type { JobRecord } from './job-records';
import { enqueue, markDone, stillHeld } from './queue';
import type { JobHandler } from './worker';

export const deleteKind = 'blobs.delete';

export type DeletePayload = { keys: string[] };

/**
 * Queues the removal of blobs (keys or prefixes) a change let go of, in the change's transaction:
 * once it commits they go, however long the blob store is away. Thirty attempts with the queue's
 * back-off retry for more than a day.
 */
export const enqueueDelete = (store: Store, keys: string[], now: Date): Promise<JobRecord> =>
  enqueue(store, { kind: deleteKind, subject: keys[0], payload: { keys } satisfies DeletePayload, max_attempts: 30 }, now);

const removeAll = async (blobs: BlobAccess, job: JobRecord) => {
  for (const key of (job.payload as DeletePayload).keys) await blobs.deleteTree(key);
};

/**
 * The fast path: removes the blobs at once and completes the job. A failure leaves the job queued
 * for the workers (answered false); removing twice is harmless, should one claim it meanwhile.
 */
export async function deleteNow(store: Store, blobs: BlobAccess, job: JobRecord, now: () => Date): Promise<boolean> {
  try {
    await removeAll(blobs, job);
  } catch {
    return false;
  }
  await store.transaction((tx) => markDone(tx, job, now()));
  return true;
}

/** A worker's side: retried with back-off while the blob store fails. */
export function deleteHandler(d: { store: Store; blobs: BlobAccess; now: () => Date }): JobHandler {
  return {
    async run(job, { worker }) {
      await removeAll(d.blobs, job);
      await d.store.transaction(async (tx) => (await stillHeld(tx, job, worker)) && markDone(tx, job, d.now()));
    },
    // What is left is listed by `reelbase blobs check`.
    async failed() {},
  };
}
