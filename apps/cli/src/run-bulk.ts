import type { Client, TransportResponse } from '@reelbase/http';
import { openClient, type TargetOptions } from './client';
import { json, line, type CliIo } from './io';
import { describeFailure, exitForRun, failureOf, runWithProgress } from './batch/run-with-progress';
import { readBatchOptions, type BatchFlags } from './commands/batch-options';

/** The flags of a bulk command: where to, how, and --json. */
export type BulkOptions = TargetOptions & BatchFlags & { json?: boolean };

/** Many requests of one kind (follow these users, tag these videos) and how to report them. */
export interface Bulk<T> {
  /** Names the work in progress lines. */
  label: string;
  tasks: readonly T[];
  send(client: Client, task: T): Promise<TransportResponse>;
  /** Items (users, videos) one task covers; default 1. */
  size?(task: T): number;
  /** The task in messages: `video 7`, `users 1…100 (100)`. */
  describe(task: T): string;
  /** The closing line for people, from the items done and the requests sent. */
  done(items: number, requests: number): string;
}

/**
 * Runs a bulk command's requests through the runner (progress, retries, --fail-fast, a stop on
 * Ctrl-C) and reports: each failure on stderr, a closing line, and with --json
 * `{ done, failed, requests, failures: [{ task, status, error }] }` on stdout. Exit 1 when any failed.
 */
export async function runBulk<T>(io: CliIo, opts: BulkOptions, bulk: Bulk<T>): Promise<void> {
  const flags = readBatchOptions(opts);
  const size = bulk.size ?? (() => 1);
  const failures: { task: T; text: string; status: number | null; error: unknown }[] = [];
  let done = 0;
  const client = await openClient(io, opts);
  let summary;
  try {
    summary = await runWithProgress(io, {
      label: bulk.label,
      tasks: bulk.tasks,
      ...flags,
      forMachines: opts.json === true,
      send: (task) => bulk.send(client, task),
      onFinish(task, outcome) {
        if (outcome.ok) done += size(task);
        else failures.push({ task, text: `${bulk.describe(task)}: ${describeFailure(outcome)}`, ...failureOf(outcome) });
      },
    });
  } finally {
    await client.close();
  }
  const failed = failures.reduce((n, f) => n + size(f.task), 0);
  if (opts.json) io.stdout(json({ done, failed, requests: summary.requests, failures: failures.map(({ task, status, error }) => ({ task, status, error })) }));
  for (const f of failures) line(io.stderr, f.text);
  line(io.stderr, bulk.done(done, summary.requests));
  if (summary.left) line(io.stderr, `${bulk.label}: stopped with ${summary.left} request${summary.left === 1 ? '' : 's'} not sent; run the command again for the rest`);
  exitForRun(summary);
}

/** Help text of a bulk command: its exit codes and examples. */
export const bulkHelp = (examples: readonly string[]): string =>
  ['', 'Exit codes: 0 ok, 1 some requests failed (each listed on stderr), 2 usage error (nothing sent).', '', 'Examples:', ...examples.map((e) => `  ${e}`)].join('\n');

/** `1 user`, `3 users`. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
