import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { schema, type Store } from '@reelbase/core';
import { openJsonStore } from '@reelbase/store-json';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { openSqliteStore } from '@reelbase/store-sqlite';

/** A driver the API tests run on: each test file repeats its suite for every entry. */
export interface TestDriver {
  name: string;
  /** Several processes may share one of its databases: `open` then also answers `reopen`. */
  sharedByProcesses?: boolean;
  /** A search finding nothing falls back to names near its words (PostgreSQL with pg_trgm: docs/search.md "Typos"). */
  nearMatches?: boolean;
  open(): Promise<OpenedStore>;
}

export interface OpenedStore {
  store: Store;
  cleanup(): void;
  /** Another store on the same database, as another process would open it (the caller closes it). */
  reopen?: () => Promise<Store>;
}

const tempDir = (): { dir: string; cleanup(): void } => {
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

/**
 * PostgreSQL joins the drivers when REELBASE_TEST_POSTGRES names a server
 * (postgres://user:pass@host:port/db; scripts/with-postgres.sh starts a throwaway one): the test
 * run gets a database of its own, dropped when the run ends, and every store a schema in it.
 */
function postgresDriver(server: string): TestDriver {
  const database = scratchDatabase(server);
  after(() => database.drop());
  return {
    name: 'postgres',
    sharedByProcesses: true,
    // The test server has pg_trgm (Debian's postgresql-contrib), which the driver creates.
    nearMatches: true,
    async open() {
      const url = await database.freshUrl();
      return { store: await openPostgresStore({ schema, url }), cleanup: () => {}, reopen: () => openPostgresStore({ schema, url }) };
    },
  };
}

const postgres = process.env.REELBASE_TEST_POSTGRES;

export const drivers: TestDriver[] = [
  {
    name: 'sqlite',
    sharedByProcesses: true,
    async open() {
      const { dir, cleanup } = tempDir();
      const path = join(dir, 'reelbase.db');
      return { store: await openSqliteStore({ schema, path }), cleanup, reopen: () => openSqliteStore({ schema, path }) };
    },
  },
  {
    name: 'json',
    async open() {
      const { dir, cleanup } = tempDir();
      return { store: await openJsonStore({ schema, path: join(dir, 'reelbase.json') }), cleanup };
    },
  },
  ...(postgres ? [postgresDriver(postgres)] : []),
];
