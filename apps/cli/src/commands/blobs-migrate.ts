import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { migrateBlobs } from '../blobs/migrate-blobs';
import { systemClock } from '../batch/clock';
import { openProgressView, trackProgress } from '../batch/progress';
import { signalExitCodes, stopOnSignals } from '../batch/stop-signals';
import { cwdOf, envOf, filesDirOf } from '../context';
import { openBlobsOf } from '../blobs-flag';
import { formatBytes } from '../dump/video-files';
import { ReportedFailure } from '../errors';
import { json, line, type CliIo } from '../io';
import { storeSpecFrom } from '../store-spec';
import { blobsOption, jsonOption, storeOption } from './options';

interface MigrateOptions {
  to: string;
  blobs?: string;
  store?: string;
  journal?: string;
  json?: boolean;
}

/**
 * `reelbase blobs migrate --to s3://BUCKET[/PREFIX] | DIR`: copies every video file from the store
 * the servers use now into another one, verified, resumable, switching nothing.
 */
export function registerMigrate(group: Command, io: CliIo): void {
  group
    .command('migrate')
    .description('copy every video file into another blob store (a bucket or a directory), verified by SHA-256 and resumable; switches nothing')
    .requiredOption('--to <where>', 'where to copy the files: s3://BUCKET[/PREFIX] or a directory')
    .addOption(blobsOption())
    .addOption(storeOption())
    .option('--journal <file>', 'where the copies done are recorded, to resume an interrupted run (default: blobs-migrate.jsonl beside the files directory)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        'Run it again after an interruption: files already copied and verified are skipped. Once it',
        'reports the copy complete, stop the servers and workers, run it once more (it copies only',
        'the files written since), then start them with --blobs (or REELBASE_BLOBS) naming the target.',
        '',
        'Example:',
        '  reelbase blobs migrate --to s3://my-bucket/reelbase',
      ].join('\n'),
    )
    .action(async (opts: MigrateOptions) => {
      const env = envOf(io);
      const filesDir = filesDirOf(storeSpecFrom(opts.store, env, cwdOf(io)), env, cwdOf(io));
      const from = await openBlobsOf(io, opts.blobs, filesDir);
      const to = await openBlobsOf(io, opts.to, filesDir);
      const journal = opts.journal ? resolve(cwdOf(io), opts.journal) : join(dirname(filesDir), 'blobs-migrate.jsonl');
      const signals = io.signal ? undefined : stopOnSignals((text) => line(io.stderr, `\nblobs migrate: ${text}`));
      const view = await openProgressView(io, !!opts.json);
      let progress: ReturnType<typeof trackProgress> | undefined;
      const summary = await migrateBlobs({
        from,
        to,
        journal,
        signal: io.signal ?? signals!.signal,
        onPlan: (plan) => (progress = trackProgress(view, io.clock ?? systemClock, { label: 'blobs migrate', ...plan })),
        onFile: (_key, ok) => progress!.finished(ok),
      }).finally(async () => {
        await progress?.end();
        signals?.release();
      });
      const result = { from: from.description, to: to.description, journal, ...summary };
      if (opts.json) io.stdout(json(result));
      else {
        line(io.stdout, `Copied ${summary.copied} file${summary.copied === 1 ? '' : 's'} (${formatBytes(summary.bytes)}) from ${from.description} to ${to.description}, each verified by SHA-256; ${summary.skipped} copied by an earlier run.`);
        if (summary.vanished) line(io.stdout, `${summary.vanished} file${summary.vanished === 1 ? '' : 's'} went from the source during the copy (deleted by their owner).`);
        if (summary.extra) line(io.stdout, `The target holds ${summary.extra} file${summary.extra === 1 ? '' : 's'} the source does not (left alone).`);
        if (summary.complete) line(io.stdout, `The copy is complete. Nothing was switched: restart the servers and workers with --blobs ${opts.to} (or REELBASE_BLOBS=${opts.to}).`);
        else line(io.stdout, `The copy is NOT complete; nothing was switched. Run the same command again to resume (journal: ${journal}).`);
      }
      for (const f of summary.failed) line(io.stderr, `blobs migrate: ${f.key}: ${f.error}`);
      const received = signals?.received();
      if (summary.stopped) throw new ReportedFailure(received ? signalExitCodes[received] : signalExitCodes.SIGINT);
      if (!summary.complete) throw new ReportedFailure(1);
    });
}
