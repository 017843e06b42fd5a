/** The ceiling: node:http answering a fixed JSON body (`bare.ts <body.json>`), serialised per request as any JSON API must. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { announce } from './ready';

const body: unknown = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const server = createServer((_req, res) => {
  const payload = JSON.stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }).end(payload);
});
server.listen(0, '127.0.0.1', () => announce(server));
