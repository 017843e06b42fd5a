import { ApiError, cancelJob, getJob, listJobs, representJob, retryJob, type JobFilter, type Service } from '@reelbase/core';
import type { Client, TransportResponse } from '@reelbase/http';
import { callOrUsage } from '../client';

/** What `reelbase jobs` and the TUI's Jobs section ask of the console; each answer is the API's (a job, a list, an error). */
export interface JobConsole {
  list(filter: JobFilter, page: { page: number; perPage: number }): Promise<TransportResponse>;
  show(id: string): Promise<TransportResponse>;
  retry(id: string): Promise<TransportResponse>;
  cancel(id: string): Promise<TransportResponse>;
  close(): Promise<void>;
}

/** Through a running server's admin operations (or in-process through the table), with the client's token. */
export function apiJobConsole(client: Client): JobConsole {
  const id = (job_id: string) => ({ job_id });
  return {
    list: (filter, page) =>
      callOrUsage(client, 'admin.jobs.list', {
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.kind ? { kind: filter.kind } : {}),
        ...(filter.subject ? { video: filter.subject } : {}),
        page: String(page.page),
        per_page: String(page.perPage),
      }),
    show: (job) => callOrUsage(client, 'admin.jobs.get', id(job)),
    retry: (job) => callOrUsage(client, 'admin.jobs.retry', id(job)),
    cancel: (job) => callOrUsage(client, 'admin.jobs.cancel', id(job)),
    close: () => client.close(),
  };
}

/** The Error representation of `e` (as the service answers it), or `e` thrown on when it is no API error. */
function answerError(e: unknown): TransportResponse {
  if (!(e instanceof ApiError)) throw e;
  return { status: e.status, headers: {}, body: { error: e.error, link: null, developer_message: e.developerMessage, error_code: e.code } };
}

const answered = async (work: () => Promise<unknown>): Promise<TransportResponse> => {
  try {
    return { status: 200, headers: {}, body: await work() };
  } catch (e) {
    return answerError(e);
  }
};

/** Offline on a store, as its operator: no token, the same core functions the admin operations call. */
export function storeJobConsole(service: Service): JobConsole {
  const store = service.store;
  return {
    list: (filter, page) =>
      answered(async () => {
        const { items, total } = await listJobs(store, filter, { offset: (page.page - 1) * page.perPage, limit: page.perPage });
        return { total, page: page.page, per_page: page.perPage, data: items.map(representJob) };
      }),
    show: (id) => answered(async () => representJob(await getJob(store, id))),
    retry: (id) => answered(() => store.transaction(async (tx) => representJob(await retryJob(tx, id, service.now())))),
    cancel: (id) => answered(() => store.transaction(async (tx) => representJob(await cancelJob(tx, id, service.now())))),
    close: () => service.close(),
  };
}
