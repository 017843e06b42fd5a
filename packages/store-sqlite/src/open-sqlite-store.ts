import type { Schema, Store } from '@reelbase/core';
import Database from 'better-sqlite3';
import { beginBulkLoad } from './bulk-load';
import { LOWER_FUNCTION } from './compile-filter';
import { ReadCache } from './read-cache';
import { ReadSnapshot } from './read-snapshot';
import { Connection } from './sqlite-connection';
import { Operations } from './sqlite-operations';
import { describeSchema, ensureSchema } from './sqlite-schema';
import { SqliteStore } from './sqlite-store';
import type { SqliteDatabase, SqlValue } from './sqlite-types';

export interface SqliteStoreOptions {
  /** The collections; tables, columns and indexes are created or upgraded to match at open. */
  schema: Schema;
  /** A database file (created when missing) or ':memory:'. */
  path: string;
  /**
   * Page cache of each connection, in MiB (default 32, SQLite's own is 2): the upper levels of
   * every index of a million-video store stay in memory. A bulk writer (`reelbase seed`) gains
   * from more: its inserts land all over every index.
   */
  cacheMiB?: number;
  /**
   * Opened to be filled in bulk (`reelbase seed`): the indexes of empty tables are built at close()
   * and, in an empty database, commits are synced only then (bulk-load.ts). close() must run.
   */
  bulkLoad?: boolean;
}

/**
 * Opens a store on an SQLite database: one table per collection with a column per declared field
 * plus the JSON document. File databases run in WAL mode with synchronous=FULL, so an
 * acknowledged write survives a power cut, and get a second read-only connection for root reads.
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const tables = describeSchema(options.schema);
  const memory = options.path === ':memory:' || options.path === '';
  const cacheMiB = options.cacheMiB ?? 32;
  const writer = connect(new Database(options.path), cacheMiB);
  try {
    writer.db.pragma('journal_mode = WAL');
    writer.db.pragma('synchronous = FULL');
    ensureSchema(writer, options.schema, tables);
    const endLoad = options.bulkLoad ? beginBulkLoad(writer, options.schema, tables) : undefined;
    // Opened after the schema exists, so the reader never sees a half-created database.
    const reader = memory ? undefined : connect(new Database(options.path, { readonly: true, fileMustExist: true }), cacheMiB);
    const snapshot = reader && new ReadSnapshot(reader);
    return new SqliteStore(new Operations(writer, tables), snapshot && { ops: new Operations(snapshot.conn, tables, new ReadCache(snapshot)), snapshot }, endLoad);
  } catch (error) {
    writer.close();
    throw error;
  }
}

function connect(db: SqliteDatabase, cacheMiB: number): Connection {
  db.pragma('busy_timeout = 5000');
  if (!(cacheMiB > 0)) throw new RangeError(`cacheMiB must be a positive number, got ${cacheMiB}`);
  // A negative cache_size counts KiB instead of pages.
  db.pragma(`cache_size = ${-Math.round(cacheMiB * 1024)}`);
  // Statement journals (every statement that fires a trigger, or writes several rows, inside a
  // transaction keeps one) go to memory instead of a temporary file written page by page.
  db.pragma('temp_store = MEMORY');
  db.function(LOWER_FUNCTION, { deterministic: true }, lower);
  return new Connection(db);
}

function lower(value: SqlValue): SqlValue {
  return value === null ? null : String(value).toLowerCase();
}
