import type { Command } from 'commander';
import { UsageError } from '../errors';

/** The flags of batch work (`batch`, `follow add|remove`, `tags add|remove`), read with `readBatchOptions`. */
export interface BatchFlags {
  concurrency: string;
  retries: string;
  failFast?: boolean;
}

export function addBatchOptions(command: Command, concurrency: number): Command {
  return command
    .option('-c, --concurrency <n>', 'requests in flight at once (1 to 64)', String(concurrency))
    .option('--retries <n>', 'retries of a request after a 429 (honouring Retry-After) or a network error (0 to 100)', '5')
    .option('--fail-fast', 'stop starting requests after the first failure (default: a failure never stops the rest)');
}

export function readBatchOptions(flags: BatchFlags): { concurrency: number; retries: number; failFast: boolean } {
  return {
    concurrency: integerFlag('--concurrency', flags.concurrency, 1, 64),
    retries: integerFlag('--retries', flags.retries, 0, 100),
    failFast: flags.failFast === true,
  };
}

function integerFlag(name: string, value: string, min: number, max: number): number {
  const n = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${name} expects a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}
