import { Option, type Command } from 'commander';
import { renderChecks } from '../dump/count-report';
import { importBatchSize, VerificationError, type CollectionCheck } from '../dump/import-store';
import { printRestore } from '../dump/restore-report';
import type { VideoFileTally } from '../dump/video-files';
import { UsageError } from '../errors';
import type { CliIo } from '../io';

/** The flags `import` and `migrate` share. */
export interface RestoreOptions {
  replace?: boolean;
  batchSize?: string;
  json?: boolean;
}

export const restoreOptions = (command: Command): Command =>
  command
    .option('--replace', 'delete every document in the target store first (without it, a store that holds any is refused)')
    .addOption(new Option('--batch-size <n>', `documents inserted per transaction (default ${importBatchSize})`));

/** `--batch-size`: documents per transaction, 1 to 100000. */
export function parseBatchSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new UsageError(`--batch-size must be a whole number from 1 to 100000, got "${value}"`);
  return n;
}

/**
 * Runs an import and reports it: the counts on success; on a count mismatch, the table showing
 * which collections differ goes to stderr before the error (exit 1).
 */
export async function runRestore(
  io: CliIo,
  opts: RestoreOptions,
  target: string,
  files: VideoFileTally,
  verb: string,
  restore: () => Promise<{ checks: CollectionCheck[]; copiedFrom?: string }>,
): Promise<void> {
  let outcome;
  try {
    outcome = await restore();
  } catch (error) {
    if (error instanceof VerificationError) io.stderr(renderChecks(error.checks));
    throw error;
  }
  printRestore(io, { target, files, ...outcome }, { json: opts.json, summary: `${verb} into ${target}` });
}
