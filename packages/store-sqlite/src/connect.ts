import { Connection } from './sqlite-connection';
import type { SqliteDatabase, SqlValue } from './sqlite-types';

/** Registered on every connection: Unicode lower-casing (SQLite's lower() and LIKE fold ASCII only). */
export const LOWER_FUNCTION = 'rb_lower';

/** The settings and functions every connection of a store has (the bulk writer thread's too). */
export function connect(db: SqliteDatabase, cacheMiB: number): Connection {
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
