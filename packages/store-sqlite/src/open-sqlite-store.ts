import type { Schema, Store } from '@reelbase/core';
import Database from 'better-sqlite3';
import { beginBulkLoad } from './bulk-load';
import { BulkWriter } from './bulk-writer';
import { connect } from './connect';
import { ReadCache } from './read-cache';
import { ReadSnapshot } from './read-snapshot';
import { OwnWrites } from './own-writes';
import { Operations } from './sqlite-operations';
import { describeSchema, ensureSchema } from './sqlite-schema';
import { buildSearch, type SearchBuildProgress } from './sqlite-search';
import { SqliteStore } from './sqlite-store';
import { DEFAULT_GROUP_LIMITS, type GroupLimits } from './group-commit';

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
  /**
   * With `bulkLoad`, for a load that does not search what it writes (`reelbase seed`): the
   * full-text indexes of the tables it fills are built at close() too, instead of row by row, and
   * until then a search does not find the rows loaded.
   */
  deferSearch?: boolean;
  /**
   * Told how a full-text index's build comes along (a store from before search, or whose search
   * fields changed, builds it at open, in batches that each commit: an interrupted build resumes).
   */
  onSearchBuild?: SearchBuildProgress;
  /** Rows such a build adds in one transaction (default SEARCH_BUILD_BATCH, 20,000). */
  searchBuildBatch?: number;
  /**
   * How long a group of queued writes may stay open for one shared COMMIT (group-commit.ts;
   * default 64 writes or 10 ms): more trades the first write's latency for fewer fsyncs.
   */
  groupCommit?: Partial<GroupLimits>;
}

const PAGE_SIZE = 8192;

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
    // Only a new database takes it (a WAL database keeps its page size). 8 KiB pages hold a video
    // row ~4 to a page instead of 2 and halve the pages an index spans: a million-video seed
    // loads and builds its indexes a tenth faster, with the same list latencies.
    writer.db.pragma(`page_size = ${PAGE_SIZE}`);
    writer.db.pragma('journal_mode = WAL');
    writer.db.pragma('synchronous = FULL');
    ensureSchema(writer, options.schema, tables);
    buildSearch(writer, tables, options.onSearchBuild, options.searchBuildBatch);
    const load = options.bulkLoad ? beginBulkLoad(writer, options.schema, tables, options.deferSearch ?? false) : undefined;
    // Opened after the schema exists, so the reader never sees a half-created database.
    const reader = memory ? undefined : connect(new Database(options.path, { readonly: true, fileMustExist: true }), cacheMiB);
    const snapshot = reader && new ReadSnapshot(reader, writer);
    const own = reader && new OwnWrites(tables);
    const read = snapshot && own && { ops: new Operations(snapshot.conn, tables, new ReadCache(snapshot, tables, own)), snapshot, own };
    const groups = { ...DEFAULT_GROUP_LIMITS, ...options.groupCommit };
    return new SqliteStore(new Operations(writer, tables, undefined, own), read, groups, load && {
      end: load.end,
      writer: memory ? undefined : new BulkWriter({ path: options.path, cacheMiB, fresh: load.fresh }),
    });
  } catch (error) {
    writer.close();
    throw error;
  }
}
