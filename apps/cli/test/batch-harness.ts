import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createService, createToken, createUser, parseScopes, schema, type ServiceConfig, type Store, type VideoRecord } from '@reelbase/core';
import { serve, type RunningServer } from '@reelbase/http';
import { openSqliteStore } from '@reelbase/store-sqlite';
import { fromSource } from '@reelbase/api-tests/from-source';
import type { Clock } from '../src/batch/clock';
import { cli, tempDir, type Outcome } from './cli-harness';

/**
 * Where batch commands are pointed in tests: `http` (a server in this process, over an in-memory
 * SQLite store) or `in-process` (the CLI opens a SQLite file itself). Either way the store starts with
 * one user holding an all-scopes token.
 */
export interface Target {
  name: 'http' | 'in-process';
  dir: string;
  /** The target and token flags for the CLI. */
  flags: string[];
  userId: string;
  /** HTTP only: requests the server received with this method and path (query ignored). */
  requests(method: string, path: string): number;
  /** Runs `fn` on the store (for in-process, opened only while the CLI does not hold it). */
  withStore<R>(fn: (store: Store) => Promise<R>): Promise<R>;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** The service's clock (HTTP only). */
  clock?: () => Date;
  config?: Partial<ServiceConfig>;
}

export async function startTarget(name: Target['name'], options: TargetOptions = {}): Promise<Target> {
  const { dir, cleanup } = tempDir();
  const dbPath = join(dir, 'reelbase.db');
  const seed = async (store: Store) => {
    const now = options.clock?.() ?? new Date();
    const user = await createUser(store, now, { name: 'Batcher' });
    return { user, token: (await createToken(store, now, user.id, parseScopes('all'))).token };
  };
  if (name === 'in-process') {
    const store = await openSqliteStore({ schema, path: dbPath });
    const { user, token } = await seed(store);
    await store.close();
    return {
      name,
      dir,
      flags: ['--store', `sqlite:${dbPath}`, '--token', token],
      userId: user.id,
      requests: () => NaN,
      async withStore(fn) {
        const opened = await openSqliteStore({ schema, path: dbPath });
        try {
          return await fn(opened);
        } finally {
          await opened.close();
        }
      },
      async stop() {
        cleanup();
      },
    };
  }
  // The server's store lives as long as the server: memory is enough (and spares a sync per write).
  const service = createService({ store: await openSqliteStore({ schema, path: ':memory:' }), clock: options.clock, config: options.config });
  const { user, token } = await seed(service.store);
  const running: RunningServer = await serve(service, { port: 0, host: '127.0.0.1', filesDir: join(dir, 'files') });
  const seen = new Map<string, number>();
  running.server.on('request', (req) => {
    const key = `${req.method} ${(req.url ?? '').split('?')[0]}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  });
  return {
    name,
    dir,
    flags: ['--base-url', running.url, '--token', token],
    userId: user.id,
    requests: (method, path) => seen.get(`${method} ${path}`) ?? 0,
    withStore: (fn) => fn(service.store),
    async stop() {
      await running.close();
      cleanup();
    },
  };
}

/** Runs the CLI in-process with the test's working directory, a clock, and a stop signal (no process handlers). */
export const run = (target: Target, argv: string[], io: { clock?: Clock; terminal?: NodeJS.WriteStream } = {}): Promise<Outcome> =>
  cli([...argv, ...target.flags], { cwd: target.dir, signal: new AbortController().signal, ...io });

/** Creates `count` users directly in the store; answers their ids. */
export const seedUsers = (target: Target, count: number): Promise<string[]> =>
  target.withStore((store) =>
    store.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push((await createUser(tx, new Date(), { name: `Person ${i + 1}` })).id);
      return ids;
    }),
  );

/** The names of every video in the store. */
export const videoNames = (target: Target): Promise<string[]> =>
  target.withStore(async (store) => (await store.find<VideoRecord>('videos', { limit: 100_000 })).items.map((v) => v.name));

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/**
 * `reelbase ARGS` as a child process from source (stdout/stderr piped: not a terminal). `preload`
 * modules run first. `onStderr` sees stderr as it comes and may kill the child.
 */
export function spawnReelbase(args: string[], cwd: string, options: { preload?: string[]; onStderr?(text: string, kill: (signal: NodeJS.Signals) => void): void } = {}) {
  const child = spawn(process.execPath, [...fromSource, ...(options.preload ?? []).flatMap((p) => ['--import', p]), entry, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, XDG_CONFIG_HOME: join(cwd, '.config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
    options.onStderr?.(stderr, (signal) => child.kill(signal));
  });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
