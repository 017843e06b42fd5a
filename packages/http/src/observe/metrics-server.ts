import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Health } from './health';
import type { Metrics } from './metrics';

export interface MetricsListen {
  port: number;
  /** Default 127.0.0.1: the series tell a stranger more than the API does. */
  host?: string;
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The operator's listener, apart from the API: `/metrics` in Prometheus's text format, and the
 * same `/health` and `/health/ready` as the API's port (a worker has no other port to answer them on).
 */
export async function startMetricsServer(metrics: Metrics, health: Health, listen: MetricsListen): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
        (e: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${(e as Error).message}\n`),
      );
      return;
    }
    void Promise.resolve(health.answer(req.url ?? '/', res)).then((answered) => answered || res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: /metrics, /health, /health/ready\n'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address, family } = server.address() as AddressInfo;
  return {
    url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
