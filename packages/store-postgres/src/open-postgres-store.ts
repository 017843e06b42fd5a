import type { Schema, Store } from '@reelbase/core';
import pg from 'pg';
import { beginBulkLoad } from './pg-bulk-load';
import { Operations } from './pg-operations';
import { ensureSchema } from './pg-schema';
import { PgStore } from './pg-store';

export interface PostgresStoreOptions {
  /** The collections; tables, columns and indexes are created or upgraded to match at open. */
  schema: Schema;
  /** `postgres://user:password@host:port/database` (or `postgresql://`); libpq's query parameters such as `sslmode` apply. */
  url: string;
  /** Connections in the pool (default 10): one per transaction in progress plus concurrent reads. */
  maxConnections?: number;
  /** How many times a transaction runs before a serialization failure or deadlock is given up on (default 10). */
  transactionAttempts?: number;
  /**
   * Opened to be filled in bulk (`reelbase seed`): the non-unique B-trees of empty tables are
   * dropped and built at close() from the loaded rows (pg-bulk-load.ts). close() must run; a load
   * that never closes gets them back at the store's next open.
   */
  bulkLoad?: boolean;
}

/**
 * Opens a store on a PostgreSQL database: one table per collection with a typed column per
 * declared field plus the JSON document, and the indexes the schema asks for. Several processes
 * may share the database: writes are SERIALIZABLE transactions, retried on serialization failures.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, application_name: 'reelbase' });
  // An idle connection the server drops is only taken out of the pool; the next statement gets a fresh one.
  pool.on('error', () => undefined);
  try {
    const tables = await ensureSchema(pool, options.schema);
    const endLoad = options.bulkLoad ? await beginBulkLoad(pool, options.schema, tables) : undefined;
    return new PgStore(pool, new Operations(tables), options.transactionAttempts ?? 10, endLoad);
  } catch (error) {
    await pool.end();
    throw error;
  }
}
