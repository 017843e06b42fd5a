import type { Counter, Histogram, Registry } from 'prom-client';
import { abortUploadKind, and, deleteKind, eq, isoTime, lte, repackageKind, transcodeKind, webhookKind, type JobRecord, type Store } from '@reelbase/core';
import { RequestSeries } from './request-series';

/** Every job kind a worker runs: the label values of the job series. */
const jobKinds = [transcodeKind, repackageKind, webhookKind, deleteKind, abortUploadKind];
const gaugedStates = ['queued', 'running', 'failed'] as const;
/** The job gauges read the store at most this often, however often Prometheus scrapes. */
const jobGaugeMs = 5_000;

/** The Prometheus series of one process (its own registry: several servers in one test process keep theirs apart). */
export interface Metrics {
  readonly registry: Registry;
  /** reelbase_http_requests_total, …_request_duration_seconds and …_requests_in_flight. */
  readonly requests: RequestSeries;
  readonly jobRuns: Counter<'kind' | 'outcome'>;
  readonly jobSeconds: Histogram<'kind'>;
  readonly uploadBytes: Counter<'approach'>;
  readonly blobOperations: Counter<'op' | 'outcome'>;
  readonly transactionSeconds: Histogram;
  readonly rateLimited: Counter;
  readonly signInFailures: Counter;
}

export async function createMetrics(store: Store, now: () => Date): Promise<Metrics> {
  // Loaded when metrics are on: most processes never serve them.
  const prom = await import('prom-client');
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = prom;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const jobs = jobCounts(store, now);
  new Gauge({
    name: 'reelbase_jobs',
    help: 'Jobs in the store by kind and state (queued, running, failed), read at most every 5 s',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      const counts = await jobs();
      this.reset();
      for (const [kind, states] of Object.entries(counts.byState)) for (const [state, n] of Object.entries(states)) this.set({ kind, state }, n);
    },
  });
  new Gauge({
    name: 'reelbase_job_oldest_due_seconds',
    help: 'How long the oldest queued job of each kind has been due (0 when none waits)',
    labelNames: ['kind'],
    registers,
    async collect() {
      const counts = await jobs();
      for (const [kind, seconds] of Object.entries(counts.oldestDue)) this.set({ kind }, seconds);
    },
  });
  return {
    registry,
    requests: new RequestSeries(prom, registers),
    jobRuns: new Counter({ name: 'reelbase_job_runs_total', help: 'Job attempts run by this process, by kind and outcome (done, retry, failed, released, lost)', labelNames: ['kind', 'outcome'], registers }),
    jobSeconds: new Histogram({ name: 'reelbase_job_duration_seconds', help: 'Time a job attempt ran, by kind', labelNames: ['kind'], buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800], registers }),
    uploadBytes: new Counter({ name: 'reelbase_upload_bytes_total', help: 'Upload bytes received, by approach (tus, post, streaming, pull)', labelNames: ['approach'], registers }),
    blobOperations: new Counter({ name: 'reelbase_blob_operations_total', help: 'Blob store calls, by operation and outcome (ok, error)', labelNames: ['op', 'outcome'], registers }),
    transactionSeconds: new Histogram({ name: 'reelbase_store_transaction_duration_seconds', help: 'Time a store transaction took, commit included', buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1], registers }),
    rateLimited: new Counter({ name: 'reelbase_rate_limited_total', help: 'Requests answered 429 (a request, follow, upload or sign-in limit)', registers }),
    signInFailures: new Counter({ name: 'reelbase_sign_in_failures_total', help: 'Sign-in forms answered with a wrong email or password', registers }),
  };
}

interface JobCounts {
  byState: Record<string, Record<string, number>>;
  oldestDue: Record<string, number>;
}

/** The job gauges' figures, read from the store once per `jobGaugeMs` (a scrape in between gets the last ones). */
function jobCounts(store: Store, now: () => Date): () => Promise<JobCounts> {
  let last: { at: number; counts: Promise<JobCounts> } | undefined;
  const read = async (): Promise<JobCounts> => {
    const byState: JobCounts['byState'] = {};
    const oldestDue: JobCounts['oldestDue'] = {};
    const at = now();
    for (const kind of jobKinds) {
      byState[kind] = {};
      for (const state of gaugedStates) byState[kind][state] = await store.count('jobs', and(eq('kind', kind), eq('state', state)));
      const { items } = await store.find<JobRecord>('jobs', {
        where: and(eq('state', 'queued'), lte('run_after', isoTime(at)), eq('kind', kind)),
        orderBy: [{ field: 'run_after', direction: 'asc' }],
        limit: 1,
      });
      oldestDue[kind] = items[0] ? Math.max(0, (at.getTime() - Date.parse(items[0].run_after)) / 1000) : 0;
    }
    return { byState, oldestDue };
  };
  return () => {
    const t = performance.now();
    if (!last || t - last.at > jobGaugeMs) {
      const counts = read();
      last = { at: t, counts };
      // A failed read is not kept: the next scrape asks again.
      counts.catch(() => (last = undefined));
    }
    return last.counts;
  };
}

/** Times every transaction of `store` (the one object the service and its workers share). */
export function timeTransactions(store: Store, histogram: Histogram): void {
  const transaction = store.transaction.bind(store);
  store.transaction = async (fn) => {
    const end = histogram.startTimer();
    try {
      return await transaction(fn);
    } finally {
      end();
    }
  };
}
