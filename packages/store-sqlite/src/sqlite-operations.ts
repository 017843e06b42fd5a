import {
  assertSequenced,
  autoIdNumber,
  checkSequence,
  StoreConflictError,
  type Doc,
  type Filter,
  type FindOptions,
  type FindResult,
  type OrderBy,
  type SumRow,
  SEARCH_EXACT_TOTAL,
} from '@reelbase/core';
import { countBySql, groupCounts, sumBySql, sumRows, type GroupRow } from '@reelbase/core/sql';
import { compileFilter, compileWhere } from './compile-filter';
import { statementKey, type Asked, type Read, type ReadCache, type ReadPage } from './read-cache';
import { mirroredColumns } from './sqlite-mirror';
import { compileFind, type Statement } from './compile-query';
import { spanSql, WALK_GROWTH, WINDOW_COUNTED, windowSize, type ProbedWalk, type Window } from './search-walks';
import { equalities, factsOf, type OwnWrites } from './own-writes';
import { readKey } from './read-keys';
import { columnValues, decodeRow, encodeText, mergePatch, toSql, toSqlId, type Body, type Row } from './row-codec';
import type { Connection } from './sqlite-connection';
import { vocabulary, type Vocabulary } from './sqlite-search';
import { DOC_COLUMN, quote, type Table, type Tables } from './sqlite-schema';
import type { BoundInsert, SqlValue } from './sqlite-types';

/**
 * The store operations as synchronous calls on one connection. Callers decide which connection
 * and which transaction they run in (see sqlite-store.ts); multi-statement writes here assume
 * they are inside one.
 */
export class Operations {
  /** By table, then by `rows` and whether the id is given. */
  readonly #inserts = new Map<Table, Map<string, InsertStatement>>();
  readonly #words: Vocabulary;
  /** ProbedWalk plans by their text: whether each walks an index (#walks). */
  readonly #walkPlans = new Map<string, boolean>();

  constructor(
    readonly conn: Connection,
    readonly tables: Tables,
    /** On the read-only connection: totals, pages and point reads remembered while what they read is unchanged. */
    private readonly cache?: ReadCache,
    /** On the writer connection: what it writes, for the read cache to forget. */
    private readonly own?: OwnWrites,
  ) {
    this.#words = vocabulary(conn, tables, cache && (() => cache.snapshot.dataVersion()));
  }

  table(collection: string): Table {
    const table = this.tables.get(collection);
    if (!table) throw new Error(`unknown collection ${JSON.stringify(collection)}`);
    return table;
  }

  get<T extends Doc>(collection: string, id: string): T | null {
    const table = this.table(collection);
    if (this.cache) return this.cache.doc<T>(table.name, id, () => this.#row(table, id));
    const row = this.#row(table, id);
    return row ? decodeRow<T>(row) : null;
  }

  insert<T extends Doc>(collection: string, doc: Record<string, unknown>): T {
    const table = this.table(collection);
    const { id, json } = this.#insert(table, doc, table.id === 'text' ? textId(collection, doc.id) : undefined);
    return decodeRow<T>({ id, doc: json });
  }

  /**
   * Answers only the ids: a bulk load has no use for the documents, and parsing them back cost a
   * fifth of it. All or none only in a transaction level of its own, which callers give it.
   */
  insertMany(collection: string, docs: readonly Record<string, unknown>[]): string[] {
    const batch = this.#bindMany(collection, docs);
    this.own?.bulk(batch.table, docs);
    return batch.ids(this.#write(batch.table, () => this.conn.insertAll(batch.inserts)));
  }

  /**
   * insertMany with the INSERTs run by `run`, in one transaction, elsewhere (a bulk load's writer
   * thread). They are bound before this answers its promise, on the caller's thread.
   */
  async insertManyVia(collection: string, docs: readonly Record<string, unknown>[], run: (inserts: BoundInsert[]) => Promise<number[]>): Promise<string[]> {
    const batch = this.#bindMany(collection, docs);
    let rowids: number[];
    try {
      rowids = await run(batch.inserts);
    } catch (error) {
      throw conflict(batch.table, error) ?? error;
    }
    return batch.ids(rowids);
  }

  /** AUTOINCREMENT raises the table's sqlite_sequence row past an explicit id by itself. */
  insertWithId<T extends Doc>(collection: string, doc: Doc): T {
    const table = this.table(collection);
    const { id, json } = this.#insert(table, doc, table.id === 'auto' ? autoIdNumber(collection, doc.id) : textId(collection, doc.id));
    return decodeRow<T>({ id, doc: json });
  }

  sequence(collection: string): number {
    const table = this.table(collection);
    assertSequenced(collection, table.id);
    return this.conn.get<{ seq: number }>('SELECT seq FROM sqlite_sequence WHERE name = ?', [table.name])?.seq ?? 0;
  }

  /** sqlite_sequence is an ordinary table SQLite lets us write; it has a row once the table had one. */
  setSequence(collection: string, value: number): void {
    const table = this.table(collection);
    assertSequenced(collection, table.id);
    const maxId = this.conn.get<{ n: number | null }>(`SELECT max(id) AS n FROM ${table.sql}`)?.n ?? 0;
    checkSequence(collection, value, maxId);
    if (this.conn.run('UPDATE sqlite_sequence SET seq = ? WHERE name = ?', [value, table.name]).changes === 0) {
      this.conn.run('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', [table.name, value]);
    }
  }

  update<T extends Doc>(collection: string, id: string, patch: Record<string, unknown>): T | null {
    const table = this.table(collection);
    const row = this.#row(table, id);
    if (!row) return null;
    const before = JSON.parse(row.doc) as Body;
    return this.#save<T>(table, row, before, mergePatch(before, patch));
  }

  increment<T extends Doc>(collection: string, id: string, field: string, by: number): T | null {
    const table = this.table(collection);
    if (typeof by !== 'number' || !Number.isFinite(by)) throw new TypeError(`increment ${collection}.${field}: by must be a finite number`);
    const row = this.#row(table, id);
    if (!row) return null;
    const body = JSON.parse(row.doc) as Body;
    const current = body[field] ?? 0;
    if (typeof current !== 'number') throw new TypeError(`increment ${collection}.${field}: the field holds a ${typeof current}, not a number`);
    // Read-modify-write keeps JS number semantics exactly; callers run it in one transaction.
    return this.#save<T>(table, row, body, { ...body, [field]: current + by });
  }

  delete(collection: string, id: string): boolean {
    const table = this.table(collection);
    // What the row was tells the read cache which pages may have held it.
    if (this.own) this.own.doc(table, id, [this.#body(table, id)]);
    return this.conn.run(`DELETE FROM ${table.sql} WHERE id = ?`, [toSqlId(table, id)]).changes > 0;
  }

  deleteWhere(collection: string, where: Filter): number {
    const table = this.table(collection);
    const params: SqlValue[] = [];
    const sql = `DELETE FROM ${table.sql} WHERE ${compileFilter(this.tables, table, where, params)}`;
    this.own?.bulk(table, [factsOf(where)]);
    return this.conn.run(sql, params).changes;
  }

  count(collection: string, where?: Filter): number {
    const table = this.table(collection);
    const read = (): Read<number> => {
      const params: SqlValue[] = [];
      const sql = `SELECT count(*) AS n FROM ${table.sql}${compileWhere(this.tables, table, where, params)}`;
      return { value: this.#countRow(sql, params), sql };
    };
    // Remembered by what was asked, so a repeated question is not compiled again.
    return this.cache ? this.conn.snapshot(() => this.cache!.count(readKey(table.name, 'count', where, null), read, () => asked(table, where))) : read().value;
  }

  /** Not remembered by the read cache: a page of owners asks for its own ids, which seldom repeat. */
  countBy(collection: string, field: string, where?: Filter, distinct?: string): Map<string, number> {
    const table = this.table(collection);
    const params: SqlValue[] = [];
    const sql = countBySql(table, field, compileWhere(this.tables, table, where, params), distinct);
    return groupCounts(this.conn.all<GroupRow>(sql, params));
  }

  /** Not remembered by the read cache, like countBy: a report's filters seldom repeat. */
  sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): SumRow[] {
    const table = this.table(collection);
    const params: SqlValue[] = [];
    const sql = sumBySql(table, by, sums, compileWhere(this.tables, table, where, params));
    return sumRows(this.conn.all<Record<string, unknown>>(sql, params), sums);
  }

  find<T extends Doc>(collection: string, options: FindOptions = {}): FindResult<T> {
    const table = this.table(collection);
    const offset = checkCount('offset', options.offset) ?? 0;
    const limit = checkCount('limit', options.limit);
    const read = (): ReadPage<T> => {
      const { rows, probed, count, countParams } = compileFind(this.tables, table, options, this.#words);
      const { sql, params: rowParams, first, window } = rows(limit, offset);
      let bytes = 0;
      const decode = (row: Row): T => {
        bytes += row.doc.length;
        return decodeRow<T>(row);
      };
      const page = (): FindResult<T> => {
        if (probed && limit !== undefined) {
          // Counted first: past the exact bound the matches are many, and the page is found by
          // walking rows in order (probed) rather than by reading every match.
          const total = this.#count(count, countParams, () => asked(table, options.where));
          const many = total > (options.exactTotal ?? SEARCH_EXACT_TOTAL);
          const walk = many && probed(limit, offset, total, this.conn.get<{ n: number | null }>(spanSql(table))?.n ?? 0).find((w) => this.#walks(w.plan));
          const walked = walk && this.#walkPage(walk, limit, total);
          if (walked) return { items: walked.map(decode), total };
        }
        const best = window && limit !== undefined ? this.#windowPage(window, offset + limit, limit) : undefined;
        // The best-scored rows fill the page only when the best tier holds that many matches (counted exactly up to WINDOW_COUNTED).
        const few = best !== undefined && best.matches <= WINDOW_COUNTED && best.matches < offset + (limit ?? 0);
        const found = best?.rows ?? (first && !few ? this.conn.all<Row>(first.sql, first.params) : undefined);
        const items = (found?.length ? found : this.conn.all<Row>(sql, rowParams)).map(decode);
        // A short page that is non-empty (or starts at 0) tells the total without counting.
        const short = limit === undefined || items.length < limit;
        const total = short && (items.length > 0 || offset === 0) ? offset + items.length : this.#count(count, countParams, () => asked(table, options.where));
        return { items, total };
      };
      // Without a limit the page is the total: one statement, which needs no snapshot of its own.
      const value = limit === undefined ? page() : this.conn.snapshot(page);
      return { value, sql, bytes };
    };
    // Remembered by what was asked (filters hold only JSON values), so a repeated read is not compiled again.
    return this.cache ? this.cache.find(readKey(table.name, 'find', options.where, { ...options, where: undefined }), read, () => asked(table, options.where)) : read().value;
  }

  findOne<T extends Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): T | null {
    const table = this.table(collection);
    const read = (): ReadPage<T> => {
      const { sql, params } = compileFind(this.tables, table, { where, orderBy }).rows(1, 0);
      const row = this.conn.get<Row>(sql, params);
      return { value: { items: row ? [decodeRow<T>(row)] : [], total: row ? 1 : 0 }, sql, bytes: row?.doc.length ?? 0 };
    };
    const found = this.cache ? this.cache.find(readKey(table.name, 'one', where, orderBy ?? null), read, () => asked(table, where)) : read().value;
    return found.items[0] ?? null;
  }

  /** A ranked search's page from its Window when the best tier's matches are many enough and fill it (`rows`), and how many matches that tier holds (Window.matches). */
  #windowPage(window: Window, need: number, limit: number): { rows?: Row[]; matches: number } {
    const span = this.conn.get<{ n: number | null }>(window.span)?.n ?? 0;
    const matches = this.conn.get<{ n: number }>(window.matches.sql, window.matches.params)!.n;
    const size = windowSize(need, span, matches);
    if (size === undefined) return { matches };
    const page = window.page(size);
    const rows = this.conn.all<Row>(page.sql, page.params);
    return { rows: rows.length === limit ? rows : undefined, matches };
  }

  /**
   * A walk's page, walked again over WALK_GROWTH times the rows each time it falls short (the
   * matches bunch in the order: titles that begin with the word sort together), while that walks
   * fewer rows than there are matches; past that, ordering the matches costs less. Undefined when
   * the page is not found so.
   */
  #walkPage(walk: ProbedWalk, limit: number, total: number): Row[] | undefined {
    for (let size = walk.size; ; size *= WALK_GROWTH) {
      const page = walk.page(size);
      const rows = this.conn.all<Row>(page.sql, page.params);
      if (rows.length === limit) return rows;
      if (size * WALK_GROWTH > total) return undefined;
    }
  }

  /** Whether a walk's plan reads its rows in order from an index (no sort of them all), remembered by its text: the schema decides it. */
  #walks(plan: Statement): boolean {
    let walks = this.#walkPlans.get(plan.sql);
    if (walks === undefined) {
      walks = !this.conn.all<{ detail: string }>(plan.sql, plan.params).some((step) => step.detail.includes('TEMP B-TREE'));
      this.#walkPlans.set(plan.sql, walks);
    }
    return walks;
  }

  /** A list's total, which every page of the list asks again: remembered by the statement. */
  #count(sql: string, params: SqlValue[], asking?: () => Asked): number {
    return this.cache ? this.cache.count(statementKey(sql, params), () => ({ value: this.#countRow(sql, params), sql }), asking) : this.#countRow(sql, params);
  }

  /** A row's document as stored, or null. */
  #body(table: Table, id: string): Body | null {
    const row = this.#row(table, id);
    return row ? (JSON.parse(row.doc) as Body) : null;
  }

  #countRow(sql: string, params: SqlValue[]): number {
    return this.conn.get<{ n: number }>(sql, params)?.n ?? 0;
  }

  /** Inserts with `id` in the id column, or lets an auto one be assigned when it is undefined. */
  #insert(table: Table, doc: Record<string, unknown>, id: string | number | undefined): { id: string; json: string } {
    const { sql, mirror } = this.#insertStatement(table, id !== undefined);
    const json = encodeText(doc);
    const values = rowValues(table, doc, json, id, mirror);
    const { lastInsertRowid } = this.#write(table, () => this.conn.run(sql, values));
    const inserted = String(id ?? lastInsertRowid);
    // A point read may remember the id as missing.
    this.own?.doc(table, inserted, [doc]);
    return { id: inserted, json };
  }

  /**
   * The INSERTs of `docs`, `ROWS_PER_INSERT` rows to a statement (a statement per row cost about as
   * much again as the row itself), and how their last rowids give every id. Rows take their auto
   * ids in the order they are inserted, one after the other (nothing else writes the table in the
   * middle of one statement), so a statement's last id tells them all. Mirrored rows come out of a
   * join, which an ordinal bound with each row keeps in order.
   */
  #bindMany(collection: string, docs: readonly Record<string, unknown>[]): BoundBatch {
    const table = this.table(collection);
    const given = table.id === 'text' ? docs.map((doc) => textId(collection, doc.id)) : undefined;
    const inserts: BoundInsert[] = [];
    const sizes: number[] = [];
    for (let from = 0; from < docs.length; from += ROWS_PER_INSERT) {
      const rows = docs.slice(from, from + ROWS_PER_INSERT);
      const { sql, mirror } = this.#insertStatement(table, given !== undefined, rows.length);
      const values: SqlValue[] = [];
      rows.forEach((doc, i) => {
        if (mirror && rows.length > 1) values.push(i);
        values.push(...rowValues(table, doc, encodeText(doc), given?.[from + i], mirror));
      });
      inserts.push({ sql, values });
      sizes.push(rows.length);
    }
    const ids = (rowids: number[]): string[] =>
      given ?? rowids.flatMap((last, i) => Array.from({ length: sizes[i] }, (_, row) => String(last - sizes[i] + 1 + row)));
    return { table, inserts, ids };
  }

  /** The INSERT of `rows` rows of a table, with or without the id column, built once (every row of a bulk load takes one). */
  #insertStatement(table: Table, withId: boolean, rows = 1): InsertStatement {
    let byShape = this.#inserts.get(table);
    if (!byShape) this.#inserts.set(table, (byShape = new Map()));
    const shape = `${rows}:${withId}`;
    let statement = byShape.get(shape);
    if (!statement) {
      const cols = [...(withId ? ['id'] : []), DOC_COLUMN, ...table.columns.map(quote)];
      const exprs = cols.map(() => '?');
      const mirror = mirroredColumns(table, this.tables);
      const into = `INSERT INTO ${table.sql} (${[...cols, ...(mirror?.columns ?? [])].join(', ')})`;
      const values = (width: number) => Array.from({ length: rows }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');
      // Several mirrored rows: VALUES (ordinal, …columns, source id) joined to their sources.
      const picked = cols.map((_, i) => `rb_rows.column${i + 2}`);
      const sql = !mirror
        ? `${into} VALUES ${values(cols.length)}`
        : rows === 1
          ? `${into} SELECT ${[...exprs, ...mirror.expressions].join(', ')} FROM (SELECT 1) ${mirror.join('?')}`
          : `${into} SELECT ${[...picked, ...mirror.expressions].join(', ')} FROM (VALUES ${values(cols.length + 2)}) AS rb_rows ` +
            `${mirror.join(`rb_rows.column${cols.length + 2}`)} ORDER BY rb_rows.column1`;
      statement = { sql, mirror };
      byShape.set(shape, statement);
    }
    return statement;
  }

  #row(table: Table, id: string): Row | undefined {
    return this.conn.get<Row>(`SELECT id, ${DOC_COLUMN} FROM ${table.sql} WHERE id = ?`, [toSqlId(table, id)]);
  }

  /**
   * Rewrites the document and only the columns whose value changes from `before` (the stored
   * body): SQLite rewrites the entries of every index on a column the UPDATE sets, changed or not,
   * and an increment of a users counter would otherwise dirty a page in each of its six indexes.
   */
  #save<T extends Doc>(table: Table, row: Row, before: Body, doc: Body): T {
    const json = encodeText(doc);
    const old = columnValues(table, before);
    const sets = [DOC_COLUMN];
    const values: SqlValue[] = [json];
    columnValues(table, doc).forEach((value, i) => {
      if (value === old[i]) return;
      sets.push(quote(table.columns[i]));
      values.push(value);
    });
    const assignments = sets.map((col) => `${col} = ?`).join(', ');
    this.own?.doc(table, String(row.id), [before, doc]);
    this.#write(table, () => this.conn.run(`UPDATE ${table.sql} SET ${assignments} WHERE id = ?`, [...values, row.id]));
    return decodeRow<T>({ id: row.id, doc: json });
  }

  /** Runs a write, turning unique-index violations into StoreConflictError. */
  #write<R>(table: Table, fn: () => R): R {
    try {
      return fn();
    } catch (error) {
      throw conflict(table, error) ?? error;
    }
  }
}

const asked = (table: Table, where: Filter | undefined): Asked => ({ table: table.name, equal: equalities(where) });

/** Rows per multi-row INSERT of a bulk insert (16 columns of a video make 512 parameters). */
const ROWS_PER_INSERT = 32;

/**
 * What one row of an INSERT binds, in the statement's order: the id when given, the document
 * text, the columns, and for a mirrored table the source id its copies are read by (sqlite-mirror.ts).
 */
function rowValues(table: Table, doc: Record<string, unknown>, json: string, id: string | number | undefined, mirror: InsertStatement['mirror']): SqlValue[] {
  const values: SqlValue[] = id === undefined ? [json] : [id, json];
  values.push(...columnValues(table, doc));
  if (mirror) values.push(toSql(doc[mirror.key]));
  return values;
}

/** The bound INSERTs of an insertMany, and its ids from their last rowids. */
interface BoundBatch {
  table: Table;
  inserts: BoundInsert[];
  ids: (rowids: number[]) => string[];
}

interface InsertStatement {
  sql: string;
  /** The mirrored columns and the document field keying their source, bound last. */
  mirror: { key: string; columns: string[] } | null;
}

function conflict(table: Table, error: unknown): StoreConflictError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new StoreConflictError(table.name, ['id']);
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  // "UNIQUE constraint failed: videos.user_id, videos.slug" — report the declared key in its order.
  const failed = ((error as Error).message.split(': ')[1] ?? '').split(', ').map((c) => c.slice(c.indexOf('.') + 1));
  const key = table.unique.find((k) => k.length === failed.length && k.every((f) => failed.includes(f)));
  return new StoreConflictError(table.name, key ?? failed);
}

function textId(collection: string, id: unknown): string {
  if (typeof id !== 'string' || id === '') throw new TypeError(`insert into ${collection}: a text-id collection needs a string id`);
  return id;
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return value;
}
