import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, watch } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WebhookReceiver } from '@reelbase/api-tests';
import { cliCommand } from '@reelbase/api-tests/bundled-commands';
import { createToken, createUser, parseScopes, type Store } from '@reelbase/core';

/** The command as installed (`bin/reelbase.js` running the build in dist/, which `npm install` makes). */
const bin = fileURLToPath(new URL('../bin/reelbase.js', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  /** Every line it printed on stdout so far. */
  lines: string[];
  /** Every line it printed on stderr so far (which also passes through to the test's). */
  errors: string[];
}

/** A day before every Node.js line's end of life: a test's server does not print the notice (node-support.ts). */
export const beforeNodeEndOfLife = { REELBASE_TEST_TODAY: '2000-01-01' };

/**
 * `reelbase <args>` in a process of its own with exactly `env` (plus PATH, no SIGTERM drain and no Node.js notice), answered once a line
 * of its stdout matches `ready` (the server's "Stop with Ctrl-C.", a worker's first line). From source
 * (bundled: bundled-commands), or `built`: the installed bin over dist/.
 */
export async function startCli(args: string[], env: Record<string, string>, ready: RegExp, cwd: string, from: 'source' | 'built' = 'source'): Promise<CliProcess> {
  const command = from === 'built' ? [bin] : [...cliCommand];
  const child = spawn(process.execPath, [...command, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    // No drain on SIGTERM unless a test asks: the processes here are stopped by the dozen, with no balancer to tell.
    env: { PATH: process.env.PATH ?? '', REELBASE_DRAIN_SECONDS: '0', ...beforeNodeEndOfLife, ...env },
  });
  child.stderr!.pipe(process.stderr);
  const errors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => errors.push(line));
  const lines: string[] = [];
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`reelbase ${args[0]} exited with ${code} before it was ready:\n${lines.join('\n')}`)));
  const started = new Promise<CliProcess>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (ready.test(line)) resolve({ child, lines, errors });
    });
  });
  return Promise.race([started, exited]);
}

/** SIGTERM, and the exit code it ended with. */
export async function stopCli({ child }: CliProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exit = once(child, 'exit');
  child.kill('SIGTERM');
  return (await exit)[0] as number | null;
}

/** SIGKILL: the process dies at once, whatever it was doing. */
export async function killCli({ child }: CliProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGKILL');
  await exit;
}

/** The URL a `reelbase serve` process printed. */
export const servedUrl = (p: CliProcess): string => /^reelbase serving (\S+) /.exec(p.lines.find((l) => l.startsWith('reelbase serving')) ?? '')![1];

/** An API caller on a server process with one user's token. */
export const caller = (base: string, token: string) => ({
  call: async (method: string, path: string, o: { token?: string; json?: unknown } = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${o.token ?? token}`, ...(o.json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: o.json === undefined ? undefined : JSON.stringify(o.json),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
  },
});

/**
 * Resolves once `name` exists in `dir` (the directory itself must exist): watched, not polled.
 * Rejects when `signal` aborts (the test's, when it times out): the watcher would otherwise keep the
 * test file's process alive.
 */
export function appears(dir: string, name: (entry: string) => boolean, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, () => check());
    const stop = () => {
      watcher.close();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
    const check = () => {
      const found = readdirSync(dir).find(name);
      if (!found) return;
      watcher.close();
      signal?.removeEventListener('abort', stop);
      resolve(found);
    };
    if (signal?.aborted) stop();
    else check();
  });
}

/** Resolves once the receiver has `n` deliveries. */
export async function deliveries(receiver: WebhookReceiver, n: number): Promise<void> {
  while (receiver.deliveries.length < n) await receiver.next();
}

/** A user made straight in `store`, at `time`: its all-scopes token. */
export async function account(store: Store, time: string): Promise<string> {
  const user = await createUser(store, new Date(time), { name: 'Uploader' });
  return (await createToken(store, new Date(time), user.id, parseScopes('all'))).token;
}
