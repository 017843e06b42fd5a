import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throwaway database for one test run; see scratchDatabase. */
export interface ScratchDatabase {
  /** The URL of a new, empty schema in the run's database (the URL's `options` set its search_path). */
  freshUrl(): Promise<string>;
  /** Drops the run's database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * A throwaway database for a test run, on the server `serverUrl` names (its user needs CREATEDB),
 * named `rb_scratch_<random>` so that runs sharing a server never collide. It is created on the
 * first `freshUrl()`; each call then answers a schema of its own, which is far quicker to make
 * than a database, so every test can open an empty store.
 */
export function scratchDatabase(serverUrl: string): ScratchDatabase {
  const name = `rb_scratch_${randomBytes(6).toString('hex')}`;
  const runUrl = new URL(serverUrl);
  runUrl.pathname = `/${name}`;
  let client: Promise<pg.Client> | undefined;
  let schemas = 0;

  const admin = async <R>(fn: (admin: pg.Client) => Promise<R>): Promise<R> => {
    const server = new pg.Client({ connectionString: serverUrl, application_name: 'reelbase scratch' });
    await server.connect();
    try {
      return await fn(server);
    } finally {
      await server.end();
    }
  };
  const connect = async (): Promise<pg.Client> => {
    await admin((server) => server.query(`CREATE DATABASE "${name}"`));
    const db = new pg.Client({ connectionString: runUrl.toString(), application_name: 'reelbase scratch' });
    await db.connect();
    return db;
  };

  return {
    async freshUrl() {
      client ??= connect();
      const schema = `s${++schemas}`;
      await (await client).query(`CREATE SCHEMA "${schema}"`);
      const url = new URL(runUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return url.toString();
    },
    async drop() {
      if (!client) return;
      await (await client).end();
      client = undefined;
      await admin((server) => server.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
