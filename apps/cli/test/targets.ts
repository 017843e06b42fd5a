import { join } from 'node:path';
import { cli, printedToken, startServe, stdoutJson } from './cli-harness';

/** Where a test's client commands go: the flags that reach it, its user's token, and how to stop it. */
export interface TestTarget {
  flags: string[];
  token: string;
  stop(): Promise<void>;
}

/**
 * The two transports every client command is tested on, each with a user holding every scope:
 * in-process on a SQLite file in `dir`, and over HTTP to `reelbase serve` on an ephemeral port.
 */
export const transports: { name: string; setup(dir: string): Promise<TestTarget> }[] = [
  {
    name: 'in-process',
    async setup(dir) {
      const store = `sqlite:${join(dir, 'r.db')}`;
      const user = stdoutJson(await cli(['users', 'create', '--name', 'Alice', '--store', store, '--json']));
      const made = await cli(['tokens', 'create', '--user', user.uri.split('/').pop(), '--scopes', 'all', '--store', store, '--json']);
      return { flags: ['--store', store], token: stdoutJson(made).access_token, stop: async () => {} };
    },
  },
  {
    name: 'http',
    async setup(dir) {
      const running = await startServe(['--port', '0', '--host', '127.0.0.1', '--store', 'sqlite:./r.db'], dir);
      return {
        flags: ['--base-url', running.server.url],
        token: printedToken(running.output()),
        stop: async () => void (await running.stop()),
      };
    },
  },
];
