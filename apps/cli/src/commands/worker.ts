import type { Command } from 'commander';
import { instrument, jobObserver, startMetricsServer } from '@reelbase/http';
import { startWorker, transcodeConcurrency } from '@reelbase/worker';
import { envOf, openService } from '../context';
import { openBlobsOf } from '../blobs-flag';
import { line, type CliIo } from '../io';
import { transcodingLine } from '../transcoding-line';
import { printNodeSupport } from '../node-support';
import { blobsOption, storeOption } from './options';
import { logUnexpected, loggerOf, metricsListenOf, metricsOptions, type MetricsFlags } from '../observability';

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
    .addOption(metricsOptions()[0])
    .addOption(metricsOptions()[1])
    .action(async (opts: MetricsFlags & { store?: string; concurrency?: string; blobs?: string }) => {
      const env = envOf(io);
      const concurrency = opts.concurrency === undefined ? transcodeConcurrency(env) : transcodeConcurrency({ REELBASE_TRANSCODE_CONCURRENCY: opts.concurrency });
      const listen = metricsListenOf(opts, io);
      const logger = await loggerOf(io);
      const { service, target, filesDir } = await openService(io, opts.store, {}, logUnexpected(logger));
      const opened = await openBlobsOf(io, opts.blobs, filesDir);
      const { blobs, health, metrics } = await instrument(service, opened, listen !== undefined);
      // The operator's port: metrics, and the health checks a worker has no other port to answer on.
      const metricsServer = metrics && listen ? await startMetricsServer(metrics, health, listen) : undefined;
      // filesDir: a filesystem store's tus uploads gather there, and abandoned ones are removed by the worker.
      const observer = jobObserver(logger, metrics);
      const worker = startWorker(service, { blobs, filesDir, concurrency, ...(observer ? { observer } : {}) });
      line(io.stdout, `reelbase worker ${worker.id} on store ${target}, files ${opened.description}`);
      line(io.stdout, await transcodingLine(concurrency));
      printNodeSupport(io);
      if (metricsServer) line(io.stdout, `Metrics: ${metricsServer.url}/metrics (health: ${metricsServer.url}/health/ready)`);
      const stop = async () => {
        await worker.stop();
        await metricsServer?.close();
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
