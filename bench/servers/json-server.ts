/** json-server 0.17 as its users run it (defaults, no logger) on a db.json: `json-server.ts <db.json>`. */
import { createRequire } from 'node:module';
import type { RequestListener, Server } from 'node:http';
import { announce } from './ready';

interface JsonServer {
  create(): RequestListener & { use(handler: unknown): void; listen(port: number, host: string, ready: () => void): Server };
  defaults(options: { logger: boolean }): unknown;
  router(path: string): unknown;
}

const jsonServer = createRequire(import.meta.url)('json-server') as JsonServer;
const app = jsonServer.create();
app.use(jsonServer.defaults({ logger: false }));
app.use(jsonServer.router(process.argv[2]));
const server = app.listen(0, '127.0.0.1', () => announce(server));
