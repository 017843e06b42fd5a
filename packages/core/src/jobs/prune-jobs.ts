import type { Store } from '../store/store';
import { and, eq, isIn, lt } from '../store/filters';
import { isoTime } from '../support/time';
import { nextJobs } from './queue';

/** How long finished jobs are kept once they finish (ServiceConfig.jobRetention). */
export interface JobRetention {
  /** Seconds a `done` job is kept. */
  doneSeconds: number;
  /** Seconds a `failed` job is kept: longer, as its `error` is what an operator looks into. */
  failedSeconds: number;
}

/** The most jobs one prune deletes: a short write transaction, however large an old table is. */
export const pruneBatch = 500;

/** How often each worker starts pruning. */
export const pruneEverySeconds = 3600;

/**
 * Deletes up to `limit` finished jobs whose retention ran out by `now`, the oldest first, in one
 * transaction, and answers how many (`limit`: more may be left). A finished job's `run_after` is
 * when it finished (queue.ts `finished`), so the `(state, run_after)` index finds them. Pruners
 * running at once take different rows (SKIP LOCKED) or run one after the other.
 */
export async function pruneJobs(store: Store, retention: JobRetention, now: Date, limit = pruneBatch): Promise<number> {
  const kept = { done: retention.doneSeconds, failed: retention.failedSeconds };
  return store.transaction(async (tx) => {
    let removed = 0;
    for (const [state, seconds] of Object.entries(kept)) {
      if (removed === limit) break;
      const expired = await nextJobs(tx, and(eq('state', state), lt('run_after', isoTime(new Date(now.getTime() - seconds * 1000)))), limit - removed);
      if (expired.length) removed += await tx.deleteWhere('jobs', isIn('id', expired.map((job) => job.id)));
    }
    return removed;
  });
}

/** What a worker calls when it is idle; true when it deleted a full batch (more may be left). */
export type PruneStep = () => Promise<boolean>;

/**
 * A worker's pruning: a pass starts at most every `pruneEverySeconds` and deletes one batch a
 * step, going on while batches come back full, so the worker looks for jobs between batches.
 */
export function jobPruner(store: Store, retention: JobRetention, now: () => Date): PruneStep {
  let nextPass = -Infinity;
  let passing = false;
  return async () => {
    const time = now();
    if (!passing && time.getTime() < nextPass) return false;
    if (!passing) nextPass = time.getTime() + pruneEverySeconds * 1000;
    // Unset while the batch runs: another lane of the worker idle meanwhile starts none, and a batch that throws ends the pass.
    passing = false;
    passing = (await pruneJobs(store, retention, time)) === pruneBatch;
    return passing;
  };
}
