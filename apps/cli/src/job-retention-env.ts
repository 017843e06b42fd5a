import { defaultConfig, type ServiceConfig } from '@reelbase/core';
import type { Env } from './context';
import { durationSeconds } from './durations';
import { UsageError } from './errors';

function duration(env: Env, name: string): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const seconds = durationSeconds(value);
  if (seconds === null) throw new UsageError(`${name}: "${value}" is not a duration (such as 3600, 90m, 12h or 30d)`);
  return seconds;
}

/**
 * How long workers keep finished jobs before deleting them, from the environment:
 * REELBASE_KEEP_DONE_JOBS (default 7d) and REELBASE_KEEP_FAILED_JOBS (default 30d), each `3600`,
 * `90m`, `12h` or `30d`. Unset: the service defaults.
 */
export function jobRetentionFromEnv(env: Env): Partial<ServiceConfig> {
  const done = duration(env, 'REELBASE_KEEP_DONE_JOBS');
  const failed = duration(env, 'REELBASE_KEEP_FAILED_JOBS');
  if (done === undefined && failed === undefined) return {};
  const defaults = defaultConfig.jobRetention;
  return { jobRetention: { doneSeconds: done ?? defaults.doneSeconds, failedSeconds: failed ?? defaults.failedSeconds } };
}
