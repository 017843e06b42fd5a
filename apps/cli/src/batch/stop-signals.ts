/** SIGINT/SIGTERM as a stop request for batch work: the first stops starting requests, a second quits at once. */
export interface StopSignals {
  readonly signal: AbortSignal;
  /** The signal that stopped the run, if any. */
  received(): NodeJS.Signals | null;
  release(): void;
}

/** Exit codes of a run stopped by a signal: 128 + the signal's number, as shells report them. */
export const signalExitCodes: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };

export function stopOnSignals(announce: (text: string) => void): StopSignals {
  const controller = new AbortController();
  let received: NodeJS.Signals | null = null;
  const handler = (signal: NodeJS.Signals) => {
    if (received) process.exit(signalExitCodes[signal]);
    received = signal;
    announce(`${signal}: finishing the requests in flight and recording them (again to quit at once)`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    received: () => received,
    release() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
