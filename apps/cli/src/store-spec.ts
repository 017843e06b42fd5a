import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { schema, type Store } from '@reelbase/core';
import { UsageError } from './errors';

/** The store `serve` and the in-process commands use when neither --store nor REELBASE_STORE is given. */
export const defaultStoreSpec = 'sqlite:./data/reelbase.db';

/** A parsed `--store` value: a driver and a file (null for an in-memory store), or a PostgreSQL database. */
export interface StoreSpec {
  driver: 'sqlite' | 'json' | 'postgres';
  /** Absolute file path, or null for memory (and for postgres, which has no file). */
  path: string | null;
  /** postgres: the connection URL as given, password included. */
  url?: string;
}

const usage = 'expected sqlite:PATH, sqlite::memory:, json:PATH, json:memory or postgres://USER:PASSWORD@HOST:PORT/DATABASE';

/**
 * Parses `sqlite:./data/reelbase.db`, `sqlite::memory:`, `json:./data/reelbase.json`,
 * `json:memory` or `postgres://user:pass@host:port/db` (also `postgresql://`); relative paths
 * resolve against `cwd`. Anything else is a UsageError.
 */
export function parseStoreSpec(spec: string, cwd: string): StoreSpec {
  if (/^postgres(ql)?:\/\//i.test(spec)) return parsePostgresSpec(spec);
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

/** A database URL needs a host (or `?host=`) and a database name; the rest (port, user, password, `?sslmode=`…) is libpq's business. */
function parsePostgresSpec(spec: string): StoreSpec {
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new UsageError(`store "${spec}" is not a valid URL: ${usage}`);
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new UsageError(`store "${spec}" names no host: ${usage}`);
  if (url.pathname.length < 2) throw new UsageError(`store "${spec}" names no database: ${usage}`);
  return { driver: 'postgres', path: null, url: spec };
}

/**
 * `sqlite:/abs/path.db`, `json:memory`, `postgres://user@host:5432/db`…: how a store is named in
 * messages and saved profiles. A database password is left out (PostgreSQL's PGPASSWORD or
 * ~/.pgpass supplies it to a URL without one).
 */
export function describeStore(spec: StoreSpec): string {
  if (spec.url) {
    const url = new URL(spec.url);
    url.password = '';
    return url.toString();
  }
  return `${spec.driver}:${spec.path ?? (spec.driver === 'sqlite' ? ':memory:' : 'memory')}`;
}

/**
 * Opens the store a spec names, creating the file's directory. Drivers are imported lazily so a
 * command that talks HTTP never loads better-sqlite3, lowdb or pg. `bulk`: for a command that
 * writes a great deal at once (`seed`), a SQLite store gets a larger page cache and is opened for
 * a bulk load (indexes of empty tables, full-text ones included, built at close; see store-sqlite's bulk-load.ts),
 * and a PostgreSQL store builds the B-trees of its empty tables at close (store-postgres's pg-bulk-load.ts).
 * `progress` hears the build of a SQLite store's full-text index, which an upgrade makes at open.
 */
export async function openStore(spec: StoreSpec, { bulk = false, progress }: { bulk?: boolean; progress?: (line: string) => void } = {}): Promise<Store> {
  if (spec.url) {
    const { openPostgresStore } = await import('@reelbase/store-postgres');
    return openPostgresStore({ schema, url: spec.url, bulkLoad: bulk });
  }
  if (spec.path) mkdirSync(dirname(spec.path), { recursive: true });
  if (spec.driver === 'sqlite') {
    const { openSqliteStore } = await import('@reelbase/store-sqlite');
    return openSqliteStore({
      schema,
      path: spec.path ?? ':memory:',
      ...(bulk ? { cacheMiB: 256, bulkLoad: true, deferSearch: true } : {}),
      ...(progress ? { onSearchBuild: (collection: string, done: number, total: number) => progress(`reelbase: building the search index of ${collection}: ${done}/${total}`) } : {}),
    });
  }
  const { openJsonStore } = await import('@reelbase/store-json');
  return openJsonStore(spec.path ? { schema, path: spec.path } : { schema });
}

/** The spec a command uses: its --store flag, else REELBASE_STORE, else the default. */
export const storeSpecFrom = (flag: string | undefined, env: Readonly<Record<string, string | undefined>>, cwd: string): StoreSpec =>
  parseStoreSpec(flag ?? (env.REELBASE_STORE || defaultStoreSpec), cwd);

/** Opens a store that must already exist (the source of `export` or `migrate`): a missing file is an error, not a new empty store. */
export async function openExistingStore(spec: StoreSpec): Promise<Store> {
  if (spec.path && !existsSync(spec.path)) throw new Error(`there is no store at ${spec.path}`);
  return openStore(spec);
}
