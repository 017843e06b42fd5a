import { setImmediate } from 'node:timers/promises';
import type { TransportResponse } from '@reelbase/http';
import { systemClock, type Clock } from './clock';
import { backoffMs, retryAfterMs } from './retry';

/** How one task ended: an answer (ok when 2xx), or an error after its retries ran out. */
export type TaskOutcome =
  | { ok: boolean; status: number; response: TransportResponse; attempts: number }
  | { ok: false; status: null; error: string; attempts: number };

export interface RunnerOptions<T> {
  /** At most this many requests in flight. */
  concurrency: number;
  /** Sends one task's request; a thrown error counts as a network error. */
  send(task: T): Promise<TransportResponse>;
  /** Called once per finished task, as it finishes (never for a task left unsent by a stop). */
  onFinish(task: T, outcome: TaskOutcome): void;
  /** Called when requests are held back: how long and why. */
  onWait?(ms: number, reason: string): void;
  /** Retries after a 429 or a network error; default 5. */
  retries?: number;
  /** Stop starting tasks after the first failure. */
  failFast?: boolean;
  /** Aborting stops starting tasks and cuts waits short; requests in flight finish and are reported. */
  signal?: AbortSignal;
  clock?: Clock;
}

export interface RunSummary {
  done: number;
  failed: number;
  /** Tasks not finished because the run stopped early. */
  left: number;
  stopped: 'signal' | 'fail-fast' | null;
}

/**
 * Runs `tasks` with bounded concurrency. A 429 holds back every worker for the answer's
 * `Retry-After` (else exponential back-off) and retries; a network error retries the one task
 * with back-off; both at most `retries` times. A 429 refuses the request, so its retry can never
 * act twice.
 */
export async function runTasks<T>(tasks: readonly T[], options: RunnerOptions<T>): Promise<RunSummary> {
  const clock = options.clock ?? systemClock;
  const retries = options.retries ?? 5;
  const stop = new AbortController();
  const outer = options.signal;
  const onAbort = () => stop.abort();
  if (outer?.aborted) stop.abort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  let done = 0;
  let failed = 0;
  let failedFast = false;
  /** Set by a 429: nobody sends before this time. */
  let pausedUntil = 0;

  /** The task's outcome, or undefined when the run stopped before it was answered. */
  const attempt = async (task: T): Promise<TaskOutcome | undefined> => {
    for (let n = 1; ; n++) {
      while (!stop.signal.aborted && pausedUntil > clock.now()) await clock.sleep(pausedUntil - clock.now(), stop.signal);
      if (stop.signal.aborted) return undefined;
      let response: TransportResponse;
      try {
        response = await options.send(task);
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        if (n > retries) return { ok: false, status: null, error, attempts: n };
        const ms = backoffMs(n);
        options.onWait?.(ms, `network error (${error}), retry ${n} of ${retries}`);
        await clock.sleep(ms, stop.signal);
        continue;
      }
      if (response.status === 429 && n <= retries) {
        const ms = retryAfterMs(response.headers, clock.now()) ?? backoffMs(n);
        pausedUntil = Math.max(pausedUntil, clock.now() + ms);
        options.onWait?.(ms, `rate limited (429), retry ${n} of ${retries}`);
        continue;
      }
      return { ok: response.status >= 200 && response.status < 300, status: response.status, response, attempts: n };
    }
  };

  const worker = async (): Promise<void> => {
    while (!stop.signal.aborted && next < tasks.length) {
      // An in-process transport answers in microtasks alone; without a turn of the event loop, a
      // signal (Ctrl-C) or a timer would wait for the whole batch.
      await setImmediate();
      if (stop.signal.aborted || next >= tasks.length) break;
      const task = tasks[next++];
      const outcome = await attempt(task);
      if (!outcome) return;
      if (outcome.ok) done++;
      else failed++;
      try {
        options.onFinish(task, outcome);
      } catch (e) {
        stop.abort(); // cannot record results: start nothing more
        throw e;
      }
      if (!outcome.ok && options.failFast && !stop.signal.aborted) {
        failedFast = true;
        stop.abort();
      }
    }
  };

  const settled = await Promise.allSettled(Array.from({ length: Math.min(Math.max(1, options.concurrency), tasks.length) }, worker));
  outer?.removeEventListener('abort', onAbort);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  const left = tasks.length - done - failed;
  // A stop that came after the last task changed nothing: the run is complete.
  const stopped = failedFast ? 'fail-fast' : outer?.aborted && left > 0 ? 'signal' : null;
  return { done, failed, left, stopped };
}
