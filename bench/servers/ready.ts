import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Prints the server's URL on stdout (the line the bench waits for) and stops it on SIGTERM. */
export function announce(server: Server): void {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`http://127.0.0.1:${port}\n`);
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
