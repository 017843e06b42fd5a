/**
 * A reelbase server in its own process, for the crash-safety and shutdown tests: `node
 * <crashServerCommand> <sqlite|json> <path> [token]` (bundled-commands.ts). On a fresh store it
 * creates a user and prints its token; it then prints `listening <port> <token>` on one line.
 * The crash test SIGKILLs it mid-burst and starts it again on the same file with the same token;
 * the shutdown test sends SIGTERM, which it answers as `reelbase serve` does (draining first for
 * REELBASE_DRAIN_SECONDS when that is set). Video files go to
 * `files/` beside the store, so a restart finds the uploads in progress. Like `reelbase serve`, it
 * runs the embedded transcode worker: a finished upload becomes available in the background.
 */
import { dirname, join } from 'node:path';
import { createService, createToken, createUser, parseScopes } from '@reelbase/core';
import { closeOnSignals, drainSecondsFrom, serve } from '@reelbase/http';
import { schema } from '@reelbase/core';
import { openJsonStore } from '@reelbase/store-json';
import { openSqliteStore } from '@reelbase/store-sqlite';

const [kind, path, given] = process.argv.slice(2);
const store = kind === 'sqlite' ? await openSqliteStore({ schema, path }) : await openJsonStore({ schema, path });
let token = given;
if (!token) {
  const user = await createUser(store, new Date(), { name: 'Crash tester' });
  token = (await createToken(store, new Date(), user.id, parseScopes('all'))).token;
}
const service = createService({ store, onError: (e) => console.error('UNEXPECTED', e) });
const server = await serve(service, { port: 0, host: '127.0.0.1', filesDir: join(dirname(path), 'files') });
// REELBASE_DRAIN_SECONDS as `reelbase serve` reads it, but 0 unless set: most tests want a SIGTERM to stop at once.
closeOnSignals(server, console.error, drainSecondsFrom({ REELBASE_DRAIN_SECONDS: process.env.REELBASE_DRAIN_SECONDS ?? '0' }));
console.log(`listening ${new URL(server.url).port} ${token}`);
