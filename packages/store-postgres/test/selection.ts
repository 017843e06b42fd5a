import { after } from 'node:test';
import { scratchDatabase } from '../src/index';

/**
 * The PostgreSQL tests run when REELBASE_TEST_POSTGRES=postgres://user:pass@host:port/db names a
 * server (scripts/with-postgres.sh starts a throwaway one and sets it); otherwise they report this
 * reason as skipped. A run gets a database of its own on that server, dropped when it ends.
 */
export const server = process.env.REELBASE_TEST_POSTGRES;

export const notSelected: string | undefined = server ? undefined : 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)';

const database = server ? scratchDatabase(server) : undefined;
// Registered as the test file loads, so it runs once the whole file is done.
if (database) after(() => database.drop());

/** The URL of a new, empty schema in the run's database. */
export function freshUrl(): Promise<string> {
  if (!database) throw new Error(notSelected);
  return database.freshUrl();
}
