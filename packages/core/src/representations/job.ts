import type { JobRecord } from '../jobs/job-records';

export const jobUri = (job: JobRecord): string => `/admin/jobs/${job.id}`;

/**
 * A job as the operator's console shows it: what it is about, where it stands, its attempts and
 * last error, and its times. `due_time` is when a queued job may next run; `lease_until` when a
 * running job's worker must renew its claim.
 */
export const representJob = (job: JobRecord): Record<string, unknown> => ({
  uri: jobUri(job),
  id: job.id,
  kind: job.kind,
  state: job.state,
  subject: job.subject,
  payload: job.payload,
  attempts: job.attempts,
  max_attempts: job.max_attempts,
  last_error: job.error,
  created_time: job.created_time,
  due_time: job.state === 'queued' ? job.run_after : null,
  worker: job.lease_owner,
  lease_until: job.lease_until,
  finished_time: job.finished_time,
  finished_by: job.finished_by ?? null,
});
