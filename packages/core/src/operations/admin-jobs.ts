import { enums, object, optional, size, string } from 'superstruct';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { ok, operation } from '../engine/operation';
import { cancelJob, getJob, jobStates, listJobs, retryJob } from './job-console';
import type { JobRecord } from '../jobs/job-records';
import { representJob } from '../representations/job';

/**
 * Extension: the operator's job console (issue 47), as PeerTube's jobs admin API. The `admin`
 * scope is the operator's own: `tokens create --scopes all,admin` and the first-run token carry it,
 * no app can ask for it.
 */
const kind = 'job';

export const listJobsOperation = operation({
  id: 'admin.jobs.list',
  summary: 'Extension: list background jobs (transcodes, deliveries, removals), newest first; filter by state, kind and video',
  method: 'GET',
  paths: ['/admin/jobs'],
  scope: 'admin',
  params: object({
    ...listParams({ direction: false }),
    state: optional(enums([...jobStates])),
    kind: optional(size(string(), 1, 64)),
    video: optional(size(string(), 1, 64)),
  }),
  async handle(ctx) {
    const p = ctx.params as ListParams & { state?: JobRecord['state']; kind?: string; video?: string };
    const page = pageOf(p);
    const { items, total } = await listJobs(ctx.store, { state: p.state, kind: p.kind, subject: p.video }, page);
    return listReply(ctx, page, total, items.map(representJob), kind);
  },
});

export const getJobOperation = operation({
  id: 'admin.jobs.get',
  summary: 'Extension: one background job: its state, attempts, last error and times',
  method: 'GET',
  paths: ['/admin/jobs/{job_id}'],
  scope: 'admin',
  async handle(ctx) {
    return ok(representJob(await getJob(ctx.store, ctx.path.job_id)), kind);
  },
});

export const retryJobOperation = operation({
  id: 'admin.jobs.retry',
  summary: 'Extension: run a failed job again with fresh attempts (or a queued one now, skipping its back-off); 409 for a running or done job',
  method: 'POST',
  paths: ['/admin/jobs/{job_id}/retry'],
  scope: 'admin',
  async handle(ctx) {
    return { ...ok(representJob(await retryJob(ctx.store, ctx.path.job_id, ctx.now())), kind), jobsQueued: true };
  },
});

export const cancelJobOperation = operation({
  id: 'admin.jobs.cancel',
  summary: 'Extension: fail a queued or running job for good (a transcode’s video then reads transcode_error); 409 for a finished job',
  method: 'POST',
  paths: ['/admin/jobs/{job_id}/cancel'],
  scope: 'admin',
  async handle(ctx) {
    return ok(representJob(await cancelJob(ctx.store, ctx.path.job_id, ctx.now())), kind);
  },
});

export const adminJobOperations = [listJobsOperation, getJobOperation, retryJobOperation, cancelJobOperation];
