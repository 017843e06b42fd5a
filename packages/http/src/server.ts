import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Service } from '@reelbase/core';
import { createRequestListener, type ListenerOptions } from './request-listener';
import { FsBlobStore } from '@reelbase/blobs-fs';
import { startWorker, type WorkerStartOptions } from '@reelbase/worker';
import { instrument, jobObserver, observeRequests, startMetricsServer, type Logger, type MetricsListen } from './observe/index';

export interface ServeOptions extends ListenerOptions {
  port?: number;
  host?: string;
  /** The embedded transcode worker: on by default; false leaves the jobs to `reelbase worker` processes. */
  worker?: boolean | Omit<WorkerStartOptions, 'filesDir' | 'media' | 'blobs'>;
  /** Request and job log lines (pino); none when absent. */
  logger?: Logger;
  /** Prometheus metrics (and the health checks) on a listener of their own; none when absent. */
  metrics?: MetricsListen;
}

export interface RunningServer {
  /** `http://host:port` as bound (port 0 picks a free one). */
  url: string;
  port: number;
  server: Server;
  /** The metrics listener's `http://host:port`, when metrics are on. */
  metricsUrl?: string;
  /** Readiness answers 503 from now on; requests are still served (the first part of a SIGTERM). */
  drain(): void;
  /** Stops accepting, lets in-flight requests finish, then closes the store. */
  close(): Promise<void>;
}

export async function serve(service: Service, options: ServeOptions = {}): Promise<RunningServer> {
  const { logger } = options;
  const { blobs, health, metrics } = await instrument(service, options.blobs ?? new FsBlobStore(options.filesDir ?? 'files'), options.metrics !== undefined);
  const pulledBytes = metrics && ((bytes: number) => metrics.uploadBytes.inc({ approach: 'pull' }, bytes));
  const listener = createRequestListener(service, { ...options, blobs, pulledBytes });
  const observed = observeRequests(async (req, res) => {
    if (!(await health.answer(req.url ?? '/', res))) await listener(req, res);
  }, { logger, metrics, trustProxy: options.trustProxy });
  const server = createServer((req, res) => {
    observed(req, res).catch((e: unknown) => {
      if (logger) logger.error({ err: e, req_id: res.getHeader('x-request-id') }, 'request failed');
      else console.error('reelbase: request failed', e);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, options.host ?? '127.0.0.1', () => resolve());
  });
  const metricsServer = metrics && options.metrics ? await startMetricsServer(metrics, health, options.metrics).catch(async (e: unknown) => {
    await new Promise((resolve) => server.close(resolve));
    throw e;
  }) : undefined;
  const observer = jobObserver(logger, metrics);
  const worker =
    options.worker === false
      ? null
      : startWorker(service, { ...(options.worker === true ? {} : options.worker), ...(observer ? { observer } : {}), filesDir: options.filesDir, blobs, media: options.media });
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
    drain: () => health.drain(),
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        // A running job is given back unfinished: the next worker starts it over.
        await worker?.stop();
        await metricsServer?.close();
        await service.close();
      })();
      return closing;
    },
  };
}

/** REELBASE_DRAIN_SECONDS: how long a SIGTERM keeps serving with readiness at 503 before it stops accepting (default 5). */
export function drainSecondsFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.REELBASE_DRAIN_SECONDS;
  if (raw === undefined || raw.trim() === '') return 5;
  const seconds = Number(raw);
  if (!(Number.isFinite(seconds) && seconds >= 0)) throw new Error(`REELBASE_DRAIN_SECONDS: "${raw}" is not a number of seconds`);
  return seconds;
}

/**
 * Closes the server gracefully, then exits. SIGTERM first drains for `drainSeconds`: readiness
 * answers 503 while requests are still served, so a balancer stops sending before connections are
 * refused. SIGINT (Ctrl-C), or a second signal during the drain, skips the rest of it.
 */
export function closeOnSignals(running: RunningServer, log: (line: string) => void = console.error, drainSeconds = 0): void {
  let skipDrain: (() => void) | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (skipDrain) return skipDrain();
    if (stopping) return;
    stopping = true;
    if (signal === 'SIGTERM' && drainSeconds > 0) {
      running.drain();
      log(`reelbase: SIGTERM received, draining for ${drainSeconds} s (readiness answers 503; Ctrl-C ends the drain)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainSeconds * 1000);
        skipDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      skipDrain = () => undefined;
      log('reelbase: drained, finishing in-flight requests');
    } else log(`reelbase: ${signal} received, finishing in-flight requests`);
    running.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
