import type { Command } from 'commander';
import { checkBlobs, removeOrphans, type BlobCheck } from '@reelbase/core';
import { openService } from '../context';
import { openBlobsOf } from '../blobs-flag';
import { UsageError, ReportedFailure } from '../errors';
import { json, line, type CliIo } from '../io';
import { formatBytes } from '../dump/video-files';
import { blobsOption, jsonOption, storeOption } from './options';
import { registerMigrate } from './blobs-migrate';

/**
 * `reelbase blobs …`: the store's video files (a directory or a bucket) beside its records. Each
 * subcommand registers itself on the group from the list below.
 */
export function registerBlobs(program: Command, io: CliIo): void {
  const group = program.command('blobs').description('administer the video files of a store: a files directory or an S3 bucket');
  for (const register of [registerCheck, registerMigrate]) register(group, io);
}

/** A blob store and the store whose records it holds, with the flags `serve` and `worker` take. */
export const addBlobStoreOptions = (command: Command): Command => command.addOption(storeOption()).addOption(blobsOption());

/** `1h`, `30m`, `90s`, `2d` or plain seconds. */
function parseDuration(text: string): number {
  const m = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!m) throw new UsageError(`--grace: expected a duration such as 3600, 90s, 30m, 1h or 2d, got ${JSON.stringify(text)}`);
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
}

type CheckOptions = { store?: string; blobs?: string; fix?: boolean; json?: boolean; grace: string };

function registerCheck(group: Command, io: CliIo): void {
  addBlobStoreOptions(
    group
      .command('check')
      .description('list files no record holds (orphans), files records point at that are missing, and dead job attempts’ local directories; --fix removes the orphans and those directories')
      .option('--fix', 'remove the orphans (through the durable removal job) and dead attempts’ directories; missing files are reported, they cannot be made up')
      .option('--grace <duration>', 'leave files younger than this alone: a writer stores a file before it records it', '1h'),
  )
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        'Exit code 1 when orphans, missing files or dead attempts’ directories are found (with --fix: when missing files remain or a removal failed).',
        'Uploads in progress, transcodes running and removals queued hold their files; a file newer than --grace is never an orphan.',
        '',
        'Examples:',
        '  reelbase blobs check --store postgres://reelbase@db/reelbase --blobs s3://media/reelbase',
        '  reelbase blobs check --fix --json',
      ].join('\n'),
    )
    .action(async (opts: CheckOptions) => {
      const graceSeconds = parseDuration(opts.grace);
      const { service, target, filesDir } = await openService(io, opts.store);
      try {
        const blobs = await openBlobsOf(io, opts.blobs, filesDir);
        const found = await checkBlobs(service.store, blobs, { now: service.now(), graceSeconds });
        const left = opts.fix && found.orphans.length ? await removeOrphans(service.store, blobs, found.orphans, service.now) : 0;
        if (opts.fix) for (const name of found.scratch) await blobs.dropScratch(name);
        const report = { store: target, blobs: blobs.description, grace_seconds: graceSeconds, ...summary(found), ...(opts.fix ? { fixed: true, removals_queued: left } : {}) };
        if (opts.json) io.stdout(json(report));
        else printCheck(io, report.store, report.blobs, found, opts.fix ? left : null);
        if (found.missing.length || left || (!opts.fix && (found.orphans.length || found.scratch.length))) throw new ReportedFailure(1);
      } finally {
        await service.close();
      }
    });
}

const summary = (found: BlobCheck) => ({
  checked: found.blobs,
  young: found.young,
  orphans: found.orphans.map((b) => ({ key: b.key, size: b.size, modified: b.modified?.toISOString() ?? null })),
  missing: found.missing.map((b) => ({ key: b.key, owner: b.owner })),
  scratch: found.scratch,
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `left` is null without --fix, else how many removals stayed queued. */
function printCheck(io: CliIo, store: string, where: string, found: BlobCheck, left: number | null): void {
  line(io.stdout, `Checked ${plural(found.blobs, 'file')} in ${where} against store ${store}.`);
  for (const b of found.orphans) line(io.stdout, `orphan   ${b.key}  ${formatBytes(b.size)}${b.modified ? `  ${b.modified.toISOString()}` : ''}`);
  for (const b of found.missing) line(io.stdout, `missing  ${b.key}  (${b.owner})`);
  for (const name of found.scratch) line(io.stdout, `scratch  ${name}  (local files of a job attempt that no longer runs)`);
  if (found.young) line(io.stdout, `${plural(found.young, 'file')} no record holds yet, newer than the grace period: left alone.`);
  if (found.scratch.length) {
    const n = found.scratch.length;
    const what = `${n} dead ${n === 1 ? 'attempt’s directory' : 'attempts’ directories'}`;
    line(io.stdout, left === null ? `${what}: run with --fix to remove them.` : `Removed ${what}.`);
  }
  if (!found.orphans.length && !found.missing.length && !found.scratch.length) return line(io.stdout, 'Clean: every file is held by a record, every record’s file is there.');
  const bytes = found.orphans.reduce((n, b) => n + b.size, 0);
  if (found.orphans.length) {
    line(
      io.stdout,
      left === null
        ? `${plural(found.orphans.length, 'orphan')} (${formatBytes(bytes)}): run with --fix to remove them.`
        : left
          ? `${plural(found.orphans.length, 'orphan')}: the blob store failed; ${plural(left, 'removal job')} left queued for the workers.`
          : `Removed ${plural(found.orphans.length, 'orphan')} (${formatBytes(bytes)}).`,
    );
  }
  if (found.missing.length) line(io.stdout, `${plural(found.missing.length, 'missing file')}: restore them from a backup of the files; they cannot be made up.`);
}
