/**
 * A unit of background work (a transcode, a webhook delivery) kept in the store, so it outlives
 * the process that queued it and any worker that dies running it.
 *
 * `run_after` is when the job may next be claimed: for a queued job, when it is due (now, or
 * after a back-off); for a running one, when its lease runs out — a worker that stops
 * heartbeating leaves its job claimable again, by the same query that finds new work; for a
 * finished one, when it finished, so the same index finds the finished jobs to delete.
 */
export type JobRecord = {
  id: string;
  kind: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  /** What the job is about (a video id): webhook deliveries of one subject run in order. */
  subject: string;
  payload: Record<string, unknown>;
  /** Claims so far, the current one included. */
  attempts: number;
  max_attempts: number;
  run_after: string;
  /** The worker holding the current claim, and its lease. */
  lease_owner: string | null;
  lease_until: string | null;
  /** Why the last attempt failed. */
  error: string | null;
  created_time: string;
  finished_time: string | null;
  /** The worker whose attempt completed it. */
  finished_by?: string | null;
  /** The X-Request-Id of the request that queued it (absent on jobs queued before it was kept, null outside a request). */
  request_id?: string | null;
};

/** A job to queue; due at once unless `run_after` says later. */
export type NewJob = Pick<JobRecord, 'kind' | 'subject' | 'payload'> & { max_attempts?: number; run_after?: string };
