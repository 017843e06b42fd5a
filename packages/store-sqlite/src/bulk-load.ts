import type { Schema } from '@reelbase/core';
import { wantedIndexes } from '@reelbase/core/sql';
import { withIndexSorting } from './index-sorting';
import { applyLoadSettings } from './load-settings';
import type { Connection } from './sqlite-connection';
import { createIndexSql, quote, type Table, type Tables } from './sqlite-schema';
import { buildSearch, deferSearch, searchTable } from './sqlite-search';

/** Rows a bulk load's full-text build adds per transaction (the load is not synced until its end). */
const SEARCH_LOAD_BATCH = 200_000;
/**
 * FTS5 writes its pending terms out as a new segment whenever they pass `hashsize` (1 MiB by
 * default), and merges segments as they pile up. A build that buffers a whole transaction's terms
 * writes a few large segments and merges little: 40% less CPU for a million videos' index.
 */
const SEARCH_LOAD_BUFFER = 256 * 2 ** 20;
const FTS5_DEFAULT_BUFFER = 2 ** 20;

/**
 * Readies a store opened for a bulk load (`reelbase seed`) and answers what closing it must do.
 *
 * The secondary indexes of every table that holds no row yet are dropped and built again at the
 * end from the loaded rows: one sort each instead of a B-tree insert per row into every index,
 * which at a million videos is most of a load's time. Unique keys stay, so they keep guarding the
 * load, and so do the indexes of tables holding rows (the load may read or trigger lookups in
 * them). A load writes a membership only after its mirror's source rows, so no mirror trigger
 * scans a table left without its indexes. With `searchAtEnd` (a load that does not search what
 * it writes), the full-text indexes of those tables are likewise filled at the end (buildSearch),
 * a few large INSERT…SELECTs instead of an index write per row by their triggers.
 *
 * When no table holds a row, nothing but the load itself can be lost, so commits are not synced
 * until the end (WAL with synchronous=OFF: a killed process loses nothing committed; a power cut
 * may cost the load). The end builds the indexes, restores synchronous=FULL and checkpoints, which
 * syncs everything. A load killed before its end leaves what it committed, and the next open
 * builds the missing indexes (ensureSchema, buildSearch).
 */
export function beginBulkLoad(conn: Connection, schema: Schema, tables: Tables, searchAtEnd: boolean): BulkLoad {
  const deferred: string[] = [];
  const searched: Table[] = [];
  let fresh = true;
  conn.immediate(() => {
    for (const table of tables.values()) {
      if (conn.get(`SELECT 1 AS found FROM ${table.sql} LIMIT 1`)) {
        fresh = false;
        continue;
      }
      if (searchAtEnd && table.search) {
        searched.push(table);
        deferSearch(conn, table);
      }
      for (const [name, index] of wantedIndexes(schema[table.name], table)) {
        if (index.unique) continue;
        conn.db.exec(`DROP INDEX IF EXISTS ${quote(name)}`);
        deferred.push(createIndexSql(table, name, index));
      }
    }
  });
  applyLoadSettings(conn.db, fresh);
  const end = () => {
    withIndexSorting(conn, () =>
      conn.immediate(() => {
        for (const sql of deferred) conn.db.exec(sql);
      }),
    );
    withSearchBuffer(conn, searched, () => buildSearch(conn, tables, undefined, SEARCH_LOAD_BATCH));
    conn.db.pragma('synchronous = FULL');
    conn.db.pragma('mmap_size = 0');
    conn.db.pragma('wal_autocheckpoint = 1000');
    conn.db.pragma('wal_checkpoint(TRUNCATE)');
  };
  return { fresh, end };
}

/** Runs `fn` with FTS5's term buffer of each of `tables`' indexes at SEARCH_LOAD_BUFFER (a setting the index stores), then back at the default. */
function withSearchBuffer(conn: Connection, tables: readonly Table[], fn: () => void): void {
  const buffer = (bytes: number) => {
    for (const table of tables) conn.db.exec(`INSERT INTO ${searchTable(table)}(${searchTable(table)}, rank) VALUES ('hashsize', ${bytes})`);
  };
  buffer(SEARCH_LOAD_BUFFER);
  try {
    fn();
  } finally {
    buffer(FTS5_DEFAULT_BUFFER);
  }
}

export interface BulkLoad {
  /** No table held a row: every connection writing the load may skip syncs (applyLoadSettings). */
  fresh: boolean;
  /** Builds the deferred indexes and syncs everything; the last thing before the connections close. */
  end: () => void;
}
