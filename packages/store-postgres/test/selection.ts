import { after } from 'node:test';
import pg from 'pg';
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

/** A direct connection for what the Store interface does not show (catalog, plans, sequences). */
export async function withClient<R>(url: string, fn: (client: pg.Client) => Promise<R>): Promise<R> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
