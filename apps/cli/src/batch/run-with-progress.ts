import { ReportedFailure } from '../errors';
import { line, type CliIo } from '../io';
import { describeApiError } from '../render/api-error';
import { systemClock } from './clock';
import { openProgressView, trackProgress } from './progress';
import { runTasks, type RunnerOptions, type RunSummary, type TaskOutcome } from './runner';
import { signalExitCodes, stopOnSignals } from './stop-signals';

export interface BatchRun<T> extends Pick<RunnerOptions<T>, 'concurrency' | 'send' | 'retries' | 'failFast'> {
  /** Names the work in progress lines: `batch`, `follow`, `tag`… */
  label: string;
  tasks: readonly T[];
  /** Tasks done by an earlier run, shown in the counts. */
  skipped?: number;
  /** JSON output: no Ink, whatever the terminal. */
  forMachines: boolean;
  onFinish?(task: T, outcome: TaskOutcome): void;
}

export interface BatchSummary extends RunSummary {
  /** Exit code of a run stopped by a signal (130, 143), else null. */
  interruptedExit: number | null;
  /** Requests sent for the finished tasks, retries included. */
  requests: number;
}

/**
 * Runs tasks through the runner with a progress display (Ink on a terminal, lines otherwise),
 * the io's clock, and a stop on `io.signal` or, in a real process, SIGINT/SIGTERM.
 */
export async function runWithProgress<T>(io: CliIo, run: BatchRun<T>): Promise<BatchSummary> {
  const clock = io.clock ?? systemClock;
  const view = await openProgressView(io, run.forMachines);
  const progress = trackProgress(view, clock, { label: run.label, total: run.tasks.length, skipped: run.skipped ?? 0 });
  const signals = io.signal ? undefined : stopOnSignals((text) => line(io.stderr, `\n${run.label}: ${text}`));
  let requests = 0;
  try {
    const summary = await runTasks(run.tasks, {
      concurrency: run.concurrency,
      send: run.send,
      retries: run.retries,
      failFast: run.failFast,
      clock,
      signal: io.signal ?? signals!.signal,
      onFinish(task, outcome) {
        requests += outcome.attempts;
        run.onFinish?.(task, outcome);
        progress.finished(outcome.ok);
      },
      onWait: (ms, reason) => progress.waiting(ms, reason),
    });
    const received = signals?.received();
    const interruptedExit = summary.stopped === 'signal' ? (received ? signalExitCodes[received] : signalExitCodes.SIGINT) : null;
    return { ...summary, interruptedExit, requests };
  } finally {
    await progress.end();
    signals?.release();
  }
}

/** A failed task as one line of text: the API's error_code and message, or the network error. */
export const describeFailure = (outcome: TaskOutcome): string => (outcome.status === null ? outcome.error : describeApiError(outcome.response));

/** A failed task for JSON output: its status (null without an answer) and the Error body or network error. */
export const failureOf = (outcome: TaskOutcome): { status: number | null; error: unknown } =>
  outcome.status === null ? { status: null, error: outcome.error } : { status: outcome.status, error: outcome.response.body ?? null };

/** Ends a command by its run: the signal's exit code when interrupted, 1 when anything failed. */
export function exitForRun(summary: BatchSummary): void {
  if (summary.interruptedExit !== null) throw new ReportedFailure(summary.interruptedExit);
  if (summary.failed > 0) throw new ReportedFailure(1);
}
