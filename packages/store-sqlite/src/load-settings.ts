import type { SqliteDatabase } from './sqlite-types';

/** The settings a bulk load writes with, on each connection that writes it (bulk-load.ts). */
export function applyLoadSettings(db: SqliteDatabase, fresh: boolean): void {
  if (fresh) db.pragma('synchronous = OFF');
  // Building an index scans its whole table: mapped pages are read in place instead of copied
  // through the page cache (a third less time per index of a million videos). better-sqlite3's
  // SQLite maps at most 2 GiB.
  db.pragma(`mmap_size = ${2 ** 31}`);
  // A checkpoint every 80 MiB of WAL instead of every 8: a page written by many of the load's
  // transactions (a table's last leaf, a unique index's) is copied to the database once per
  // checkpoint, not once per transaction.
  db.pragma('wal_autocheckpoint = 10000');
}
