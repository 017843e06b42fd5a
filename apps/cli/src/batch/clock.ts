import { setTimeout as delay } from 'node:timers/promises';

/** Time as the batch runner sees it; tests inject one that advances without waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms`; resolves early (never rejects) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
};
