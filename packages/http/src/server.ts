import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Service } from '@reelbase/core';
import { createRequestListener, type ListenerOptions } from './request-listener';
import { startWorker, type WorkerStartOptions } from './worker';

export interface ServeOptions extends ListenerOptions {
  port?: number;
  host?: string;
  /** The embedded transcode worker: on by default; false leaves the jobs to `reelbase worker` processes. */
  worker?: boolean | Omit<WorkerStartOptions, 'filesDir' | 'media' | 'blobs'>;
}

export interface RunningServer {
  /** `http://host:port` as bound (port 0 picks a free one). */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting, lets in-flight requests finish, then closes the store. */
  close(): Promise<void>;
}

export async function serve(service: Service, options: ServeOptions = {}): Promise<RunningServer> {
  const listener = createRequestListener(service, options);
  const server = createServer((req, res) => {
    listener(req, res).catch((e: unknown) => {
      console.error('reelbase: request failed', e);
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
  const worker = options.worker === false ? null : startWorker(service, { ...(options.worker === true ? {} : options.worker), filesDir: options.filesDir, blobs: options.blobs, media: options.media });
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        // A running job is given back unfinished: the next worker starts it over.
        await worker?.stop();
        await service.close();
      })();
      return closing;
    },
  };
}

/** Closes the server gracefully on SIGTERM/SIGINT, then exits. */
export function closeOnSignals(running: RunningServer, log: (line: string) => void = console.error): void {
  const stop = (signal: string) => {
    log(`reelbase: ${signal} received, finishing in-flight requests`);
    running.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
