import { ApiError, codes, notFound } from '../engine/errors';
import { isoTime } from '../support/time';
import { and, eq } from '../store/filters';
import type { Store } from '../store/store';
import type { JobRecord } from '../jobs/job-records';
import { recordTranscodeFailure, transcodeKind } from '../uploads/transcode-job';

/**
 * The operator's job console (issue 47): list, show, retry and cancel jobs. The admin operations
 * and `reelbase jobs` offline on a store both act through these, so the two agree.
 */

export const jobStates = ['queued', 'running', 'done', 'failed'] as const;

/** Which jobs a list shows: any of these, all when absent. */
export interface JobFilter {
  state?: JobRecord['state'];
  kind?: string;
  /** The video (or other subject) the jobs are about. */
  subject?: string;
}

/** Jobs matching `filter`, newest first, a page at a time. */
export async function listJobs(store: Store, filter: JobFilter, page: { offset: number; limit: number }): Promise<{ items: JobRecord[]; total: number }> {
  const where = and(
    filter.state ? eq('state', filter.state) : undefined,
    filter.kind ? eq('kind', filter.kind) : undefined,
    filter.subject ? eq('subject', filter.subject) : undefined,
  );
  return store.find<JobRecord>('jobs', { where, orderBy: [{ field: 'id', direction: 'desc' }], offset: page.offset, limit: page.limit });
}

export async function getJob(store: Store, id: string): Promise<JobRecord> {
  const job = /^\d+$/.test(id) ? await store.get<JobRecord>('jobs', id) : null;
  if (!job) throw notFound('job');
  return job;
}

const conflict = (job: JobRecord, action: string, allowed: string): ApiError =>
  new ApiError(409, codes.invalidInput, `This job cannot be ${action}.`, `job ${job.id} is ${job.state}: only a ${allowed} job can be ${action}`);

/**
 * Makes a failed job due again now with its attempts renewed (or a queued one due now, skipping
 * its back-off). In the caller's transaction; answers the job as it now is.
 */
export async function retryJob(tx: Store, id: string, now: Date): Promise<JobRecord> {
  const job = await getJob(tx, id);
  if (job.state !== 'failed' && job.state !== 'queued') throw conflict(job, 'retried', 'failed or queued');
  const patch: Partial<JobRecord> = { state: 'queued', run_after: isoTime(now), finished_time: null, finished_by: null };
  // A failed job's attempts were spent: it gets as many again; its last error stays until the next attempt.
  if (job.state === 'failed') patch.max_attempts = job.attempts + job.max_attempts;
  return (await tx.update<JobRecord>('jobs', job.id, patch))!;
}

/** What a job failing for good means beyond the job (a transcode's video in transcode_error), by kind. */
const failureRecords: Record<string, (tx: Store, job: JobRecord, error: string, now: Date) => Promise<void>> = {
  [transcodeKind]: recordTranscodeFailure,
};

export const cancelledError = 'cancelled by an operator';

/**
 * Fails a queued or running job for good, as a worker would (with what that means for its
 * subject). A running job's worker loses its claim: its next heartbeat aborts it, and its
 * results are discarded (it commits only while it holds the job).
 */
export async function cancelJob(tx: Store, id: string, now: Date): Promise<JobRecord> {
  const job = await getJob(tx, id);
  if (job.state !== 'queued' && job.state !== 'running') throw conflict(job, 'cancelled', 'queued or running');
  const time = isoTime(now);
  const saved = await tx.update<JobRecord>('jobs', job.id, { state: 'failed', error: cancelledError, lease_owner: null, lease_until: null, run_after: time, finished_time: time });
  await failureRecords[job.kind]?.(tx, saved!, cancelledError, now);
  return saved!;
}
