import type { Connection } from './sqlite-connection';
import type { SqlValue } from './sqlite-types';

const MAX_CACHED_COUNTS = 1000;

/**
 * Counts taken on the read-only connection, remembered while the database is unchanged. A list's
 * total is a COUNT over every entry the viewer may see (236,000 for the busiest tag of a million
 * videos: about 10 ms), and every page of the list asks it again. SQLite's data_version changes
 * whenever another connection (this process's writer, or another process) commits; remembered
 * counts are dropped then, so a total is always what counting would answer now. Under steady
 * writes every count is taken afresh; while nothing changes, a page costs only its own rows.
 */
export class CountCache {
  #version: number | undefined;
  readonly #counts = new Map<string, number>();

  constructor(private readonly conn: Connection) {}

  /** `sql` answers one row with the count as `n`. Call inside a read transaction, so the version and the count agree. */
  count(sql: string, params: readonly SqlValue[]): number {
    const version = this.conn.get<{ data_version: number }>('PRAGMA data_version')!.data_version;
    if (version !== this.#version) {
      this.#counts.clear();
      this.#version = version;
    }
    const key = `${sql}\u0000${JSON.stringify(params, typedParam)}`;
    let n = this.#counts.get(key);
    if (n === undefined) {
      n = this.conn.get<{ n: number }>(sql, [...params])?.n ?? 0;
      if (this.#counts.size >= MAX_CACHED_COUNTS) this.#counts.delete(this.#counts.keys().next().value as string);
      this.#counts.set(key, n);
    }
    return n;
  }
}

/** Keeps a BLOB or a bigint parameter apart from a string that would print the same. */
function typedParam(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { bigint: String(value) };
  if (value instanceof Uint8Array) return { blob: Array.from(value) };
  return value;
}
