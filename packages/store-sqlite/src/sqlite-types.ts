/**
 * The few better-sqlite3 methods the driver uses, declared structurally (as Kysely does) so the
 * rest of the package does not depend on its types and a caller could hand in a compatible handle.
 */

/** What SQLite binds and returns (booleans are bound as 0/1 by the driver, never passed through). */
export type SqlValue = string | number | bigint | Uint8Array | null;

/** One INSERT with its values bound (insertMany's, which may run on the bulk writer's thread). */
export interface BoundInsert {
  sql: string;
  values: SqlValue[];
}

// Parameters are `unknown` only so better-sqlite3's own (wider) signatures fit; Connection binds SqlValue.
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  function(name: string, options: { deterministic?: boolean }, fn: (value: SqlValue) => SqlValue): unknown;
  close(): unknown;
  readonly inTransaction: boolean;
}
