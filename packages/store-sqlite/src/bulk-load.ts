import type { Schema } from '@reelbase/core';
import { wantedIndexes } from '@reelbase/core/sql';
import { withIndexSorting } from './index-sorting';
import { applyLoadSettings } from './load-settings';
import type { Connection } from './sqlite-connection';
import { createIndexSql, quote, type Tables } from './sqlite-schema';

/**
 * Readies a store opened for a bulk load (`reelbase seed`) and answers what closing it must do.
 *
 * The secondary indexes of every table that holds no row yet are dropped and built again at the
 * end from the loaded rows: one sort each instead of a B-tree insert per row into every index,
 * which at a million videos is most of a load's time. Unique keys stay, so they keep guarding the
 * load, and so do the indexes of tables holding rows (the load may read or trigger lookups in
 * them). A load writes a membership only after its mirror's source rows, so no mirror trigger
 * scans a table left without its indexes.
 *
 * When no table holds a row, nothing but the load itself can be lost, so commits are not synced
 * until the end (WAL with synchronous=OFF: a killed process loses nothing committed; a power cut
 * may cost the load). The end builds the indexes, restores synchronous=FULL and checkpoints, which
 * syncs everything. A load killed before its end leaves what it committed, and the next open
 * builds the missing indexes (ensureSchema).
 */
export function beginBulkLoad(conn: Connection, schema: Schema, tables: Tables): BulkLoad {
  const deferred: string[] = [];
  let fresh = true;
  conn.immediate(() => {
    for (const table of tables.values()) {
      if (conn.get(`SELECT 1 AS found FROM ${table.sql} LIMIT 1`)) {
        fresh = false;
        continue;
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
    conn.db.pragma('synchronous = FULL');
    conn.db.pragma('mmap_size = 0');
    conn.db.pragma('wal_autocheckpoint = 1000');
    conn.db.pragma('wal_checkpoint(TRUNCATE)');
  };
  return { fresh, end };
}

export interface BulkLoad {
  /** No table held a row: every connection writing the load may skip syncs (applyLoadSettings). */
  fresh: boolean;
  /** Builds the deferred indexes and syncs everything; the last thing before the connections close. */
  end: () => void;
}
