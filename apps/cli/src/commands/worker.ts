import type { Command } from 'commander';
import { startWorker, transcodeConcurrency } from '@reelbase/http';
import { envOf, openService } from '../context';
import { openBlobsOf } from '../blobs-flag';
import { line, type CliIo } from '../io';
import { transcodingLine } from '../transcoding-line';
import { printNodeSupport } from '../node-support';
import { blobsOption, storeOption } from './options';

/**
 * `reelbase worker`: transcoding (and the other background jobs) only, no HTTP. Any number of
 * them, on any machine that reaches the store's database and its files (a shared directory,
 * `REELBASE_FILES`, or a bucket, `--blobs s3://…`), share the work: each job is claimed by one worker, leased and heartbeated.
 */
export function registerWorker(program: Command, io: CliIo): void {
  program
    .command('worker')
    .description('run background jobs (transcodes) on a store, with no HTTP server; several may share a PostgreSQL store')
    .addOption(storeOption())
    .addOption(blobsOption())
    .option('--concurrency <n>', 'jobs at once (env REELBASE_TRANSCODE_CONCURRENCY; default 1)')
    .action(async (opts: { store?: string; concurrency?: string; blobs?: string }) => {
      const env = envOf(io);
      const concurrency = opts.concurrency === undefined ? transcodeConcurrency(env) : transcodeConcurrency({ REELBASE_TRANSCODE_CONCURRENCY: opts.concurrency });
      const { service, target, filesDir } = await openService(io, opts.store);
      const blobs = await openBlobsOf(io, opts.blobs, filesDir);
      // filesDir: a filesystem store's tus uploads gather there, and abandoned ones are removed by the worker.
      const worker = startWorker(service, { blobs, filesDir, concurrency });
      line(io.stdout, `reelbase worker ${worker.id} on store ${target}, files ${blobs.description}`);
      line(io.stdout, await transcodingLine(concurrency));
      printNodeSupport(io, service.now());
      const stop = async () => {
        await worker.stop();
        await service.close();
      };
      const { signal } = io;
      if (signal) {
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return stop();
      }
      await new Promise<void>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      await stop();
    });
}
