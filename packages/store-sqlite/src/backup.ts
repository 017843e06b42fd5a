import { rename, rm } from 'node:fs/promises';
import Database from 'better-sqlite3';

/** Pages per step of the online backup: all of them, so the copy is made in one read transaction. */
const wholeFile = 0x7fffffff;

/**
 * Copies the SQLite database at `source` to `to` through SQLite's online backup API while other
 * processes go on writing: one step copies every page inside one read transaction (WAL lets the
 * writers on meanwhile), so the copy is the database as of one commit. Steps of a few pages would
 * start over at each write by another connection and, under a steady load, might never end. The
 * copy is written beside `to`, checked with `PRAGMA integrity_check`, then renamed into place.
 */
export async function backupSqlite(source: string, to: string): Promise<{ pages: number }> {
  const partial = `${to}.partial`;
  await rm(partial, { force: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(partial, { progress: () => wholeFile });
    const problems = sqliteIntegrity(partial);
    if (problems.length) throw new Error(`the copy of ${source} fails PRAGMA integrity_check: ${problems.slice(0, 5).join('; ')}`);
    await rename(partial, to);
    return { pages: totalPages };
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
}

/** What `PRAGMA integrity_check` finds wrong in the database at `path`: nothing for a sound one. */
export function sqliteIntegrity(path: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  } finally {
    db.close();
  }
}

/**
 * Replaces the database at `target` with the backup at `from` (checked first), through the same
 * backup API, so the target's own journal is handled by SQLite. No process may have `target` open.
 */
export async function restoreSqlite(from: string, target: string): Promise<{ pages: number }> {
  const problems = sqliteIntegrity(from);
  if (problems.length) throw new Error(`the backup ${from} fails PRAGMA integrity_check: ${problems.slice(0, 5).join('; ')}`);
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(target, { progress: () => wholeFile });
    return { pages: totalPages };
  } finally {
    db.close();
  }
}
