import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { schema, type Store } from '@reelbase/core';
import { UsageError } from './errors';

/** The store `serve` and the in-process commands use when neither --store nor REELBASE_STORE is given. */
export const defaultStoreSpec = 'sqlite:./data/reelbase.db';

/** A parsed `--store` value: a driver and a file, or null for an in-memory store. */
export interface StoreSpec {
  driver: 'sqlite' | 'json';
  /** Absolute file path, or null for memory. */
  path: string | null;
}

const usage = 'expected sqlite:PATH, sqlite::memory:, json:PATH or json:memory';

/**
 * Parses `sqlite:./data/reelbase.db`, `sqlite::memory:`, `json:./data/reelbase.json` or
 * `json:memory`; relative paths resolve against `cwd`. Anything else is a UsageError.
 */
export function parseStoreSpec(spec: string, cwd: string): StoreSpec {
  const colon = spec.indexOf(':');
  const scheme = colon < 0 ? '' : spec.slice(0, colon);
  const rest = colon < 0 ? '' : spec.slice(colon + 1);
  if (scheme !== 'sqlite' && scheme !== 'json') {
    throw new UsageError(`unknown store "${spec}": ${usage}`);
  }
  if (rest === '') throw new UsageError(`store "${spec}" names no file: ${usage}`);
  const memory = scheme === 'sqlite' ? rest === ':memory:' : rest === 'memory';
  return { driver: scheme, path: memory ? null : resolve(cwd, rest) };
}

/** `sqlite:/abs/path.db`, `json:memory`…: how a store is named in messages. */
export const describeStore = (spec: StoreSpec): string =>
  `${spec.driver}:${spec.path ?? (spec.driver === 'sqlite' ? ':memory:' : 'memory')}`;

/**
 * Opens the store a spec names, creating the file's directory. Drivers are imported lazily so a
 * command that talks HTTP never loads better-sqlite3 or lowdb.
 */
export async function openStore(spec: StoreSpec): Promise<Store> {
  if (spec.path) mkdirSync(dirname(spec.path), { recursive: true });
  if (spec.driver === 'sqlite') {
    const { openSqliteStore } = await import('@reelbase/store-sqlite');
    return openSqliteStore({ schema, path: spec.path ?? ':memory:' });
  }
  const { openJsonStore } = await import('@reelbase/store-json');
  return openJsonStore(spec.path ? { schema, path: spec.path } : { schema });
}

/** The spec a command uses: its --store flag, else REELBASE_STORE, else the default. */
export const storeSpecFrom = (flag: string | undefined, env: Readonly<Record<string, string | undefined>>, cwd: string): StoreSpec =>
  parseStoreSpec(flag ?? (env.REELBASE_STORE || defaultStoreSpec), cwd);
