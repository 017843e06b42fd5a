import { deepFreeze, type Doc } from '@reelbase/core';
import type { ReadSnapshot } from './read-snapshot';
import type { SqlValue } from './sqlite-types';

const MAX_CACHED_COUNTS = 1000;
/** About 2,000 documents of a few KiB each: a few MiB of heap for the most read records. */
const MAX_CACHED_DOCS = 2000;

/**
 * What the read-only connection remembers while the database is unchanged: list totals and the
 * documents of point reads. A list's total is a COUNT over every entry the viewer may see
 * (236,000 for the busiest tag of a million videos: about 10 ms), and every page of the list asks
 * it again; a point read of a video costs more in JSON.parse than in SQLite. The snapshot's
 * data_version changes whenever another connection (this process's writer, or another process)
 * commits; everything remembered is dropped then, so an answer is always what reading would
 * answer now. Under steady writes everything is read afresh; while nothing changes, a page costs
 * only its own rows and a point read nothing.
 *
 * A remembered document is answered to every caller, so it is frozen (the Store contract: a
 * read's answer is never changed by its caller). Copying it for each caller instead cost a third
 * of the read path's time under load.
 */
export class ReadCache {
  #version: number | undefined;
  readonly #counts = new Map<string, number>();
  readonly #docs = new Map<string, Doc | null>();

  constructor(private readonly snapshot: ReadSnapshot) {}

  /** `load` answers one row with the count as `n`. Call inside the read snapshot, so the version and the count agree. */
  count(sql: string, params: readonly SqlValue[], load: () => number): number {
    this.#sync();
    const key = `${sql}\u0000${JSON.stringify(params, typedParam)}`;
    let n = this.#counts.get(key);
    if (n === undefined) {
      n = load();
      remember(this.#counts, key, n, MAX_CACHED_COUNTS);
    }
    return n;
  }

  /** The document `id` of `table` (null when missing), read by `load` unless remembered. */
  doc<T extends Doc>(table: string, id: string, load: () => T | null): T | null {
    this.#sync();
    const key = `${table}\u0000${id}`;
    const known = this.#docs.get(key);
    if (known !== undefined) return known as T | null;
    const doc = load();
    remember(this.#docs, key, doc && deepFreeze(doc), MAX_CACHED_DOCS);
    return doc;
  }

  #sync(): void {
    const version = this.snapshot.dataVersion();
    if (version === this.#version) return;
    this.#counts.clear();
    this.#docs.clear();
    this.#version = version;
  }
}

/** Adds to a bounded map, forgetting the oldest entry when full. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/** Keeps a BLOB or a bigint parameter apart from a string that would print the same. */
function typedParam(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { bigint: String(value) };
  if (value instanceof Uint8Array) return { blob: Array.from(value) };
  return value;
}
