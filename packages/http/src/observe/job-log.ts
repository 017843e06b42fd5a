import { repackageKind, transcodeKind, webhookKind, type JobObserver, type JobOutcome, type JobRecord } from '@reelbase/core';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

/** Kinds whose subject is a video (the others' is a blob key or an upload). */
const aboutVideos = new Set([transcodeKind, repackageKind, webhookKind]);

const levelOf: Record<JobOutcome, 'info' | 'warn' | 'error'> = { done: 'info', released: 'info', lost: 'warn', retry: 'warn', failed: 'error' };

/** The worker's side of the logs and metrics: a line as each job attempt starts and ends, counted and timed by kind and outcome. */
export function jobObserver(logger: Logger | undefined, metrics: Metrics | undefined): JobObserver | undefined {
  if (!logger && !metrics) return undefined;
  const fields = (job: JobRecord) => ({
    job_id: job.id,
    kind: job.kind,
    ...(aboutVideos.has(job.kind) ? { video: job.subject } : { subject: job.subject }),
    attempt: job.attempts,
    req_id: job.request_id ?? null,
  });
  return {
    started(job) {
      logger?.info(fields(job), 'job started');
    },
    finished(job, outcome, ms, error) {
      metrics?.jobRuns.inc({ kind: job.kind, outcome });
      metrics?.jobSeconds.observe({ kind: job.kind }, ms / 1000);
      logger?.[levelOf[outcome]]({ ...fields(job), ms: Math.round(ms), outcome, ...(error ? { error } : {}) }, 'job finished');
    },
  };
}
