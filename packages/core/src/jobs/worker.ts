import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store';
import type { JobRecord } from './job-records';
import { jobPruner, type JobRetention } from './prune-jobs';
import { claimJob, heartbeat, markFailed, release, stillHeld } from './queue';

/** What runs one kind of job. */
export interface JobHandler {
  /**
   * Does the work. `signal` aborts when the lease is lost (another worker took the job over) or
   * the worker stops; `beat` renews the lease (the worker also renews it on a timer). Completes
   * the job itself (markDone in the transaction that commits its effects, checking `stillHeld`).
   */
  run(job: JobRecord, context: { worker: string; signal: AbortSignal }): Promise<void>;
  /** The job failed for good: record what that means (a video in transcode_error…), in `tx`. */
  failed(tx: Store, job: JobRecord, error: string): Promise<void>;
}

/** A job's attempt failed for a reason that another attempt cannot mend (bad input): fail it for good. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

export interface WorkerOptions {
  store: Store;
  handlers: Readonly<Record<string, JobHandler>>;
  now: () => Date;
  /** Jobs run at once (REELBASE_TRANSCODE_CONCURRENCY); default 1. */
  concurrency?: number;
  /** Kinds whose jobs of one subject run one after another, in order (webhook deliveries). */
  ordered?: readonly string[];
  leaseSeconds?: number;
  /** How often an idle worker looks for work queued by other processes. */
  idleMs?: number;
  onError?: (error: unknown) => void;
  /** Finished jobs are deleted this long after they finish (ServiceConfig.jobRetention), by the worker when idle; absent: kept. */
  retention?: JobRetention;
  /** Told when each attempt starts and ends: the worker's log lines and metrics. */
  observer?: JobObserver;
}

/**
 * How an attempt ended: `done`; `retry` (failed, queued again after a back-off); `failed` (for
 * good); `released` (given back by a stopping worker); `lost` (its lease went to another worker).
 */
export type JobOutcome = 'done' | 'retry' | 'failed' | 'released' | 'lost';

export interface JobObserver {
  started(job: JobRecord): void;
  finished(job: JobRecord, outcome: JobOutcome, ms: number, error?: string): void;
}

export interface Worker {
  readonly id: string;
  /** Starts claiming and running jobs until `stop`. */
  start(): void;
  /** An idle worker looks for work now (this process just queued some). */
  wake(): void;
  /** Runs jobs until none is due, then answers; for tests and one-shot runs. */
  drain(): Promise<number>;
  /** Stops claiming; running jobs are aborted and given back, due at once (another worker starts them over). */
  stop(): Promise<void>;
}

/**
 * A worker: `concurrency` lanes, each claiming the next due job (leased), running it with a
 * heartbeat, and recording a failure with back-off. Any number of workers, in any number of
 * processes, may share one store: claims are exclusive, and a worker that dies leaves its jobs
 * to be claimed again when their leases run out.
 */
export function createWorker(o: WorkerOptions): Worker {
  const id = `worker-${randomBytes(6).toString('hex')}`;
  const lease = o.leaseSeconds ?? 60;
  const kinds = Object.keys(o.handlers);
  const onError = o.onError ?? ((e: unknown) => console.error('reelbase worker:', e));
  const stopping = new AbortController();
  const sleepers = new Set<() => void>();
  let lanes: Promise<void>[] = [];
  const prune = o.retention && jobPruner(o.store, o.retention, o.now);

  /** Claims and runs one job; false when none is due. */
  async function runOne(): Promise<boolean> {
    const job = await claimJob(o.store, { worker: id, kinds, ordered: o.ordered, leaseSeconds: lease, now: o.now() });
    if (!job) return false;
    const aborted = new AbortController();
    const onStop = () => aborted.abort(new Error('the worker is stopping'));
    stopping.signal.addEventListener('abort', onStop);
    const timer = setInterval(() => {
      heartbeat(o.store, job, id, lease, o.now()).then(
        (held) => held || aborted.abort(new Error('the lease was lost')),
        onError,
      );
    }, (lease * 1000) / 3);
    timer.unref();
    o.observer?.started(job);
    const started = performance.now();
    let outcome: JobOutcome = 'done';
    let error: string | undefined;
    try {
      if (job.attempts > job.max_attempts) throw new PermanentJobError('the workers running it stopped too often');
      await o.handlers[job.kind].run(job, { worker: id, signal: aborted.signal });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      // A stopping worker gives the job back for another to start over; a lost lease means
      // another worker has it; anything else is a failed attempt.
      if (stopping.signal.aborted) {
        outcome = 'released';
        await release(o.store, job, id, o.now()).catch(onError);
      } else if (aborted.signal.aborted) outcome = 'lost';
      else outcome = await fail(job, e, error);
    } finally {
      clearInterval(timer);
      stopping.signal.removeEventListener('abort', onStop);
      o.observer?.finished(job, outcome, performance.now() - started, error);
    }
    return true;
  }

  /**
   * Records a failed attempt: queued again (`retry`) or failed for good. Only while this worker
   * still holds the job: one cancelled by an operator (or taken over) meanwhile stays as it is
   * now (`lost`), checked in the transaction that writes, so a cancel is never undone.
   */
  async function fail(job: JobRecord, e: unknown, message: string): Promise<JobOutcome> {
    return o.store.transaction(async (tx) => {
      if (!(await stillHeld(tx, job, id))) return 'lost';
      const spent = await markFailed(tx, job, message, o.now(), e instanceof PermanentJobError);
      if (spent) await o.handlers[job.kind].failed(tx, job, message);
      return spent ? 'failed' : 'retry';
    });
  }

  async function lane(): Promise<void> {
    while (!stopping.signal.aborted) {
      let worked = false;
      try {
        // Idle, the worker deletes finished jobs; a full batch counts as work, so the next comes without a nap.
        worked = (await runOne()) || (!!prune && (await prune()));
      } catch (e) {
        onError(e);
      }
      if (worked || stopping.signal.aborted) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, o.idleMs ?? 1000);
        function done() {
          clearTimeout(timer);
          sleepers.delete(done);
          // Each nap adds its listener: one left behind per idle second piles up on the signal.
          stopping.signal.removeEventListener('abort', done);
          resolve();
        }
        sleepers.add(done);
        stopping.signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  return {
    id,
    start() {
      lanes = Array.from({ length: Math.max(1, o.concurrency ?? 1) }, () => lane());
    },
    wake() {
      for (const wake of [...sleepers]) wake();
    },
    async drain() {
      let ran = 0;
      while (await runOne()) ran++;
      return ran;
    },
    async stop() {
      stopping.abort();
      await Promise.all(lanes);
    },
  };
}
