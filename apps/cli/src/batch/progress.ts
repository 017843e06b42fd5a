import type { CliIo } from '../io';
import { plainProgressView } from '../render/progress';
import type { Clock } from './clock';

/** Where a batch stands, for a progress display. */
export interface ProgressSnapshot {
  /** What is being done: `batch`, `follow`, `tag`… */
  label: string;
  /** Tasks of this run (lines already done by an earlier run are `skipped`, not counted here). */
  total: number;
  done: number;
  failed: number;
  skipped: number;
  elapsedMs: number;
  /** Finished tasks per second. */
  rate: number;
  /** Estimated time left; null until something finished. */
  etaMs: number | null;
  /** While requests are held back (429, network error): for how much longer, and why. */
  waiting: { ms: number; reason: string } | null;
}

/** A progress display: plain lines, or (on a terminal) an Ink progress bar. */
export interface ProgressView {
  update(snapshot: ProgressSnapshot): void;
  /** Shows the final state and releases the terminal. */
  finish(snapshot: ProgressSnapshot): Promise<void>;
}

export interface ProgressTracker {
  finished(ok: boolean): void;
  waiting(ms: number, reason: string): void;
  end(): Promise<ProgressSnapshot>;
}

/** Counts finished tasks and feeds snapshots (with rate and ETA) to a view. */
export function trackProgress(view: ProgressView, clock: Clock, start: { label: string; total: number; skipped: number }): ProgressTracker {
  const startedAt = clock.now();
  let done = 0;
  let failed = 0;
  let wait: { until: number; reason: string } | null = null;
  const snapshot = (): ProgressSnapshot => {
    const now = clock.now();
    const elapsedMs = now - startedAt;
    const finished = done + failed;
    const rate = elapsedMs > 0 ? (finished * 1000) / elapsedMs : 0;
    return {
      ...start,
      done,
      failed,
      elapsedMs,
      rate,
      etaMs: rate > 0 ? ((start.total - finished) / rate) * 1000 : null,
      waiting: wait && wait.until > now ? { ms: wait.until - now, reason: wait.reason } : null,
    };
  };
  view.update(snapshot());
  return {
    finished(ok) {
      if (ok) done++;
      else failed++;
      view.update(snapshot());
    },
    waiting(ms, reason) {
      wait = { until: clock.now() + ms, reason };
      view.update(snapshot());
    },
    async end() {
      wait = null;
      const last = snapshot();
      await view.finish(last);
      return last;
    },
  };
}

/**
 * An Ink progress bar when stderr is a terminal and the output is for people; plain lines on
 * stderr otherwise. Ink (and React) load only on the terminal path.
 */
export async function openProgressView(io: CliIo, forMachines: boolean): Promise<ProgressView> {
  if (!forMachines && io.terminal?.isTTY) {
    const { inkProgressView } = await import('../ui/batch-progress-view');
    return inkProgressView(io.terminal);
  }
  return plainProgressView(io.stderr);
}
