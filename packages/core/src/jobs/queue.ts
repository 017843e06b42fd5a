import type { Filter, OrderBy, Store } from '../store/store';
import { and, eq, isIn, lte } from '../store/filters';
import { isoTime } from '../support/time';
import type { JobRecord, NewJob } from './job-records';
import { currentRequestId } from '../support/request-scope';

/**
 * Queues `job` through `store` (the caller's transaction: the job exists exactly when the change
 * that needs it commits), marked with the id of the request being answered, if any.
 */
export async function enqueue(store: Store, job: NewJob, now: Date): Promise<JobRecord> {
  const time = isoTime(now);
  return store.insert<JobRecord>('jobs', {
    kind: job.kind,
    subject: job.subject,
    payload: job.payload,
    state: 'queued',
    attempts: 0,
    max_attempts: job.max_attempts ?? 5,
    run_after: job.run_after ?? time,
    lease_owner: null,
    lease_until: null,
    error: null,
    created_time: time,
    finished_time: null,
    request_id: currentRequestId() ?? null,
  });
}

const at = (now: Date, seconds: number) => isoTime(new Date(now.getTime() + seconds * 1000));

/** Jobs a worker may take now: queued and due, or running on a lease that ran out. */
export const claimable = (kinds: readonly string[], now: Date) => and(isIn('state', ['queued', 'running']), lte('run_after', isoTime(now)), isIn('kind', [...kinds]));

const byRunAfter: OrderBy[] = [{ field: 'run_after', direction: 'asc' }, { field: 'id', direction: 'asc' }];

/**
 * Up to `limit` jobs matching `where` in `run_after` order, within the transaction `tx`. Where
 * several servers share the store, they are locked and those other transactions hold are skipped.
 */
export const nextJobs = async (tx: Store, where: Filter, limit: number): Promise<JobRecord[]> =>
  tx.lockNext ? tx.lockNext<JobRecord>('jobs', where, byRunAfter, limit) : (await tx.find<JobRecord>('jobs', { where, orderBy: byRunAfter, limit })).items;

/** How many due jobs a claim looks at when the first ones must wait for an earlier job of their subject. */
const lookahead = 20;

/**
 * Takes the next due job of `kinds` for `worker`, leased for `leaseSeconds`, or null. One write
 * transaction: on SQLite and JSON transactions are serialised, on PostgreSQL a conflicting claim
 * is retried, so two workers never hold one job. Jobs of a kind listed in `ordered` wait while
 * an earlier job of the same subject is unfinished (webhook events of one video go in order).
 */
export async function claimJob(
  store: Store,
  o: { worker: string; kinds: readonly string[]; ordered?: readonly string[]; leaseSeconds: number; now: Date },
): Promise<JobRecord | null> {
  return store.transaction(async (tx) => {
    const where = claimable(o.kinds, o.now);
    for (const job of await nextJobs(tx, where, lookahead)) {
      if (o.ordered?.includes(job.kind) && (await earlierUnfinished(tx, job))) continue;
      const lease = at(o.now, o.leaseSeconds);
      return tx.update<JobRecord>('jobs', job.id, { state: 'running', attempts: job.attempts + 1, lease_owner: o.worker, lease_until: lease, run_after: lease });
    }
    return null;
  });
}

async function earlierUnfinished(store: Store, job: JobRecord): Promise<boolean> {
  const { items } = await store.find<JobRecord>('jobs', {
    where: and(isIn('state', ['queued', 'running']), isIn('subject', [job.subject]), isIn('kind', [job.kind])),
    orderBy: [{ field: 'id', direction: 'asc' }],
    limit: 1,
  });
  return items.length > 0 && Number(items[0].id) < Number(job.id);
}

/** Extends `job`'s lease while `worker` still holds it; false when it does not (the job was taken over). */
export async function heartbeat(store: Store, job: JobRecord, worker: string, leaseSeconds: number, now: Date): Promise<boolean> {
  return store.transaction(async (tx) => {
    const current = await tx.get<JobRecord>('jobs', job.id);
    if (!current || current.state !== 'running' || current.lease_owner !== worker || current.attempts !== job.attempts) return false;
    const lease = at(now, leaseSeconds);
    await tx.update<JobRecord>('jobs', job.id, { lease_until: lease, run_after: lease });
    return true;
  });
}

/** True when `worker` still holds this claim of `job` (read in the caller's transaction before it commits the job's effects). */
export async function stillHeld(store: Store, job: JobRecord, worker: string): Promise<boolean> {
  const current = await store.get<JobRecord>('jobs', job.id);
  return !!current && current.state === 'running' && current.lease_owner === worker && current.attempts === job.attempts;
}

/** A finished job's `run_after` becomes its `finished_time`: pruning (prune-jobs.ts) finds it by the `(state, run_after)` index. */
const finished = (now: Date) => ({ lease_owner: null, lease_until: null, run_after: isoTime(now), finished_time: isoTime(now) });

export async function markDone(store: Store, job: JobRecord, now: Date): Promise<void> {
  await store.update<JobRecord>('jobs', job.id, { state: 'done', finished_by: job.lease_owner, ...finished(now) });
}

/** Back-off before attempt n + 1: 5 s, 20 s, 80 s, 320 s… at most an hour. */
export const backoffSeconds = (attempts: number): number => Math.min(3600, 5 * 4 ** Math.max(0, attempts - 1));

/**
 * Records a failed attempt: queued again after a back-off, or failed for good once its attempts
 * are spent (answering true then, so the caller records what the failure means).
 */
export async function markFailed(store: Store, job: JobRecord, error: string, now: Date, final = false): Promise<boolean> {
  const spent = final || job.attempts >= job.max_attempts;
  await store.update<JobRecord>(
    'jobs',
    job.id,
    spent
      ? { state: 'failed', error, ...finished(now) }
      : { state: 'queued', error, lease_owner: null, lease_until: null, run_after: at(now, backoffSeconds(job.attempts)) },
  );
  return spent;
}

/** Gives a job back unfinished, due at `due` (at once when its worker is stopping): this attempt does not count. */
export async function release(store: Store, job: JobRecord, worker: string, now: Date, due = now): Promise<void> {
  await store.transaction(async (tx) => {
    if (!(await stillHeld(tx, job, worker))) return;
    await tx.update<JobRecord>('jobs', job.id, { state: 'queued', attempts: job.attempts - 1, lease_owner: null, lease_until: null, run_after: isoTime(due) });
  });
}

/** Makes the queued jobs of `kind` about `subject` due now (what they wait for happened early). */
export async function hasten(store: Store, kind: string, subject: string, now: Date): Promise<void> {
  const { items } = await store.find<JobRecord>('jobs', { where: and(eq('subject', subject), eq('state', 'queued')) });
  for (const job of items) if (job.kind === kind) await store.update<JobRecord>('jobs', job.id, { run_after: isoTime(now) });
}
