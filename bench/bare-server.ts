import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The baseline: node:http answering a fixed JSON value, serialised per request as any JSON API
 * must, with no routing, auth, store or representation work.
 */
export async function startBareServer(body: unknown): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    const payload = JSON.stringify(body);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }).end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
