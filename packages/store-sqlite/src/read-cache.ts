import { deepFreeze, type Doc, type FindResult } from '@reelbase/core';
import { docKey, mayHold, valueKey, type Changed, type OwnWrites, type RowFacts } from './own-writes';
import type { ReadSnapshot } from './read-snapshot';
import { decodeRow, type Row } from './row-codec';
import type { Tables } from './sqlite-schema';
import type { SqlValue } from './sqlite-types';

const MAX_CACHED_COUNTS = 1000;
/** The most read records: issue 21 reads 2,000 videos by id. */
const MAX_CACHED_DOCS = 2000;

// Documents and pages are also bounded by the JSON text they were read from, since what one keeps
// alive is about ten times that text: after 20,000 searches for one video each (100k videos of
// 1.7 KB), every remembered row held 11 KB of heap after GC (its frozen document, core's Clip of
// it) and a 5.7 KB buffer (the Clip's JSON). With pages bounded by 5,000 rows alone, the server
// was left with 81 MiB of heap and 27 MiB of buffers (RSS 414 MiB); with this budget, 41 MiB and
// 7 MiB (RSS 268 MiB).

/** Text of remembered documents: 2,000 of 4 KiB fit, so the hot records are all kept; one over a quarter of it never is. */
export const MAX_CACHED_DOC_BYTES = 8 * 1024 * 1024;
/**
 * Text of the rows of remembered pages, all pages together: about 1,200 videos; a page over a
 * quarter of it (100 videos of 5 KiB) is never kept. Most pages are read once (every search asks
 * its own), and a list's hot pages are few.
 */
export const MAX_CACHED_FIND_BYTES = 2 * 1024 * 1024;
/** Rows of remembered pages, all pages together; a page longer than a tenth of it is never kept. */
const MAX_CACHED_FIND_ROWS = 5000;
/** Remembered pages: most are a viewer's likes of one video, one row or none. */
const MAX_CACHED_FINDS = 10_000;

/**
 * Remembered answers by key, in the order remembered, and by the tables they read, grouped there
 * by one value their condition asks of that table's rows (`user_id` 7): what a commit forgets is
 * looked for among the readers of the tables it changed, passing over whole groups whose value
 * no changed row has (a like of one user passes over every other user's pages at once).
 */
class Entries<E extends Entry<unknown>> {
  readonly #entries = new Map<string, E>();
  readonly #byTable = new Map<string, Map<string, Set<string>>>();

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): E | undefined {
    return this.#entries.get(key);
  }

  set(key: string, entry: E): void {
    this.delete(key);
    this.#entries.set(key, entry);
    for (const table of entry.tables) {
      let groups = this.#byTable.get(table);
      if (!groups) this.#byTable.set(table, (groups = new Map()));
      const group = groupOf(entry, table);
      let keys = groups.get(group);
      if (!keys) groups.set(group, (keys = new Set()));
      keys.add(key);
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    for (const table of entry.tables) {
      const groups = this.#byTable.get(table)!;
      const group = groupOf(entry, table);
      const keys = groups.get(group)!;
      keys.delete(key);
      if (keys.size === 0) groups.delete(group);
    }
  }

  oldest(): string | undefined {
    return this.#entries.keys().next().value;
  }

  /** The keys of the entries reading `table` that a row with one of `rows`' facts may concern; deleting them while going through is safe. */
  *readersOf(table: string, rows: readonly RowFacts[] | 'all'): Iterable<string> {
    for (const [group, keys] of this.#byTable.get(table) ?? []) {
      if (group && rows !== 'all' && rows.every((facts) => differs(group, facts))) continue;
      yield* keys;
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#byTable.clear();
  }
}

/** An entry's group among a table's readers: `field\0value` of the first single value it asks of that table's rows, or none. */
function groupOf(entry: Entry<unknown>, table: string): string {
  if (entry.asked?.table !== table || entry.tables.length > 1) return '';
  for (const [field, values] of entry.asked.equal) if (values.size === 1) return `${field}\u0000${[...values][0]}`;
  return '';
}

/** Whether a row with these facts has another value than the group's. */
function differs(group: string, facts: RowFacts): boolean {
  const at = group.indexOf('\u0000');
  const field = group.slice(0, at);
  return field in facts && valueKey(facts[field]) !== group.slice(at + 1);
}

/** What a read answered, and the statement it ran (which says what tables it read). */
export interface Read<V> {
  value: V;
  sql: string;
}

/** A page as read, and the length of its rows' JSON text: its weight while remembered. */
export interface ReadPage<T extends Doc> extends Read<FindResult<T>> {
  bytes: number;
}

/** A read's collection and the equalities its condition asks of that collection's rows (own-writes.ts `equalities`). */
export interface Asked {
  table: string;
  equal: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A remembered total or page, the tables its statement reads, and what it asked of its own. */
interface Entry<V> {
  value: V;
  tables: readonly string[];
  asked?: Asked;
}

interface Page extends Entry<FindResult<Doc>> {
  bytes: number;
}

/** A remembered document (null when missing), and the length of its JSON text. */
interface Known {
  doc: Doc | null;
  bytes: number;
}

/**
 * What the read-only connection remembers while the rows it read are unchanged: list totals,
 * pages, and the documents of point reads. A list's total is a COUNT over every entry the viewer
 * may see (236,000 for the busiest tag of a million videos: about 10 ms), and every page of the
 * list asks it again; a point read of a video costs more in JSON.parse than in SQLite; a viewer's
 * likes of the video they read are a statement per read.
 *
 * The snapshot's data_version changes whenever another connection commits. When only this
 * process's writer committed meanwhile, the cache forgets what those commits changed (OwnWrites):
 * the documents written, and every total and page that reads a table they changed. When another
 * process committed, it forgets everything. Either way an answer is what reading would answer now.
 *
 * Everything remembered is answered to every caller, so it is frozen (the Store contract: a
 * read's answer is never changed by its caller). Copying it for each caller instead cost a third
 * of the read path's time under load. Frozen and kept, the same document object is answered until
 * it changes, which lets core remember what it builds from one (a Clip) by the object.
 */
export class ReadCache {
  #version: number | undefined;
  readonly #counts = new Entries<Entry<number>>();
  readonly #finds = new Entries<Page>();
  #findRows = 0;
  #findBytes = 0;
  readonly #docs = new Map<string, Known>();
  #docBytes = 0;
  /** Statement → the tables it reads, worked out once per statement text. */
  readonly #reads = new Map<string, readonly string[]>();

  constructor(
    readonly snapshot: ReadSnapshot,
    private readonly tables: Tables,
    private readonly own: OwnWrites,
  ) {}

  /**
   * A total, read by `load` (with the statement it ran) unless remembered under `key`. Call inside
   * the read snapshot, so the version and the count agree.
   */
  count(key: string, load: () => Read<number>, asked?: () => Asked): number {
    this.#sync();
    let entry = this.#counts.get(key);
    if (entry === undefined) {
      const { value, sql } = load();
      entry = { value, tables: this.#tablesOf(sql), asked: asked?.() };
      if (this.#counts.size >= MAX_CACHED_COUNTS) this.#counts.delete(this.#counts.oldest()!);
      this.#counts.set(key, entry);
    }
    return entry.value;
  }

  /** A page (and its total) of a find, read by `load` (with its statement) unless remembered under `key`. */
  find<T extends Doc>(key: string, load: () => ReadPage<T>, asked?: () => Asked): FindResult<T> {
    this.#sync();
    const known = this.#finds.get(key);
    if (known) return known.value as FindResult<T>;
    const { value: page, sql, bytes } = load();
    if (page.items.length > MAX_CACHED_FIND_ROWS / 10 || bytes > MAX_CACHED_FIND_BYTES / 4) return page;
    const value = deepFreeze(page);
    while (
      this.#finds.size >= MAX_CACHED_FINDS ||
      this.#findRows + value.items.length > MAX_CACHED_FIND_ROWS ||
      this.#findBytes + bytes > MAX_CACHED_FIND_BYTES
    ) {
      this.#forgetFind(this.#finds.oldest()!);
    }
    this.#finds.set(key, { value, tables: this.#tablesOf(sql), asked: asked?.(), bytes });
    this.#findRows += value.items.length;
    this.#findBytes += bytes;
    return value;
  }

  /** The document `id` of `table` (null when missing), read by `load` (its row) unless remembered. */
  doc<T extends Doc>(table: string, id: string, load: () => Row | undefined): T | null {
    this.#sync();
    const key = docKey(table, id);
    const known = this.#docs.get(key);
    if (known !== undefined) return known.doc as T | null;
    const row = load();
    if (!row) {
      this.#rememberDoc(key, { doc: null, bytes: 0 });
      return null;
    }
    const doc = decodeRow<T>(row);
    const bytes = row.doc.length;
    if (bytes <= MAX_CACHED_DOC_BYTES / 4) this.#rememberDoc(key, { doc: deepFreeze(doc), bytes });
    return doc;
  }

  /** Adds a document, forgetting the oldest ones while over either bound. */
  #rememberDoc(key: string, known: Known): void {
    while (this.#docs.size >= MAX_CACHED_DOCS || this.#docBytes + known.bytes > MAX_CACHED_DOC_BYTES) {
      this.#forgetDoc(this.#docs.keys().next().value!);
    }
    this.#docs.set(key, known);
    this.#docBytes += known.bytes;
  }

  #forgetDoc(key: string): void {
    const known = this.#docs.get(key);
    if (!known) return;
    this.#docBytes -= known.bytes;
    this.#docs.delete(key);
  }

  #sync(): void {
    const version = this.snapshot.dataVersion();
    if (version === this.#version) return;
    this.#version = version;
    // Taken together, so that what a foreign commit clears includes this process's commits.
    const foreign = this.snapshot.takeForeign();
    const changed = this.own.take();
    if (foreign) {
      this.#counts.clear();
      this.#finds.clear();
      this.#findRows = 0;
      this.#findBytes = 0;
      this.#docs.clear();
      this.#docBytes = 0;
    } else {
      this.#forget(changed);
    }
  }

  #forget(changed: Changed): void {
    for (const [table, rows] of changed.rows) {
      for (const key of this.#counts.readersOf(table, rows)) if (mayHaveChanged(this.#counts.get(key)!, changed)) this.#counts.delete(key);
      for (const key of this.#finds.readersOf(table, rows)) if (mayHaveChanged(this.#finds.get(key)!, changed)) this.#forgetFind(key);
    }
    for (const key of changed.docs) this.#forgetDoc(key);
    if (changed.wholeTables.size === 0) return;
    for (const key of this.#docs.keys()) if (changed.wholeTables.has(key.slice(0, key.indexOf('\u0000')))) this.#forgetDoc(key);
  }

  #forgetFind(key: string): void {
    const page = this.#finds.get(key)!;
    this.#findRows -= page.value.items.length;
    this.#findBytes -= page.bytes;
    this.#finds.delete(key);
  }

  /** The tables a statement names (as FROM or in a subquery): compiled statements quote every table. */
  #tablesOf(sql: string): readonly string[] {
    let names = this.#reads.get(sql);
    if (!names) {
      names = [...this.tables.values()].filter((t) => sql.includes(t.sql)).map((t) => t.name);
      remember(this.#reads, sql, names, MAX_CACHED_COUNTS);
    }
    return names;
  }
}

/**
 * Whether a commit may have changed what an entry answers: it changed rows of a table the entry
 * reads, and (for the entry's own table, when it asked equalities of its rows) a row that may
 * hold them. A page of one user's likes outlives another user's like.
 */
function mayHaveChanged(entry: Entry<unknown>, changed: Changed): boolean {
  for (const table of entry.tables) {
    const rows = changed.rows.get(table);
    if (rows === undefined) continue;
    if (rows === 'all' || entry.asked?.table !== table || entry.tables.length > 1) return true;
    const { equal } = entry.asked;
    if (rows.some((facts) => mayHold(equal, facts))) return true;
  }
  return false;
}

/** The key of a statement's answer: its text and values. */
export const statementKey = (sql: string, params: readonly SqlValue[]): string => `${sql}\u0000${JSON.stringify(params, typedParam)}`;

/** Adds to a bounded map, forgetting the oldest entry when full. */
export function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/** Keeps a BLOB or a bigint parameter apart from a string that would print the same. */
function typedParam(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { bigint: String(value) };
  if (value instanceof Uint8Array) return { blob: Array.from(value) };
  return value;
}
