import type { SqliteDatabase } from './sqlite-types';

/** The statements that open, keep and undo one transaction level (a transaction or a savepoint). */
export interface Level {
  begin?: string;
  commit?: string;
  rollback: string[];
}

export const savepoint = (name: string): Level => ({
  begin: `SAVEPOINT ${name}`,
  commit: `RELEASE ${name}`,
  rollback: [`ROLLBACK TO ${name}`, `RELEASE ${name}`],
});

/** Runs `body` between `level.begin` and `level.commit`, undoing everything on a throw. */
export async function runInLevel<R>(db: SqliteDatabase, level: Level, body: () => R | Promise<R>): Promise<R> {
  if (level.begin) db.exec(level.begin);
  try {
    const result = await body();
    if (level.commit) db.exec(level.commit);
    return result;
  } catch (error) {
    try {
      // SQLite may already have rolled back on its own (SQLITE_FULL, SQLITE_IOERR…).
      if (db.inTransaction) for (const sql of level.rollback) db.exec(sql);
    } catch {
      // The original error matters more than a failed undo of an already-undone transaction.
    }
    throw error;
  }
}
