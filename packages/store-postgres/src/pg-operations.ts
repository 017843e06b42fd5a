import {
  assertSequenced,
  autoIdNumber,
  checkSequence,
  SEARCH_EXACT_TOTAL,
  StoreConflictError,
  type Doc,
  type Filter,
  type FindOptions,
  type FindResult,
  type OrderBy,
  type SearchTerm,
  type SumRow,
} from '@reelbase/core';
import { encodeDoc, groupCounts, INCOMPARABLE, mergePatch, quote, sumRows, type Body, type GroupRow } from '@reelbase/core/sql';
import {
  compileCount,
  compileCountBy,
  compileDeleteWhere,
  compileSize,
  compileEstimate,
  compileExists,
  compileFind,
  compileWalk,
  compileFindOne,
  compileLockNext,
  compileSumBy,
  searches,
  walkOf,
  type FindRead,
  type Walk,
} from './compile-query';

/**
 * A walk of a ranked search's first tier (compileWalk) reads up to this many times the rows it
 * expects to (the page's end over the share of the table that matches): a first tier is a part
 * of the matches, and the rows that match do not come evenly.
 */
const WALK_SLACK = 4;
/**
 * Past this many rows a walk costs more than reading every match: each walked row is a heap read,
 * as each match is (measured at 300,000 videos, two words in 4,000 videos: a 7,500-row walk that
 * found too few first, then every match read, took twice the plain plan).
 */
const WALK_MOST = 5_000;
import { DOC_COLUMN, type PgTable, type PgTables } from './pg-columns';
import { NEAR_SETTING, nearSearch, nearWordsKnown, wordAlone, type Near } from './pg-near';
import { wholeWordsOf } from './pg-vocabulary';
import { sqlState, type Executor, type Row, type TransactionExecutor } from './pg-types';
import { columnValue, columnValues, decodeRow, filterValue } from './row-codec';
import { compileInsertMany } from './pg-insert-many';

/** Thrown inside insertMany's savepoint when a row clashed, to undo the others. */
const CLASHED = Symbol('a row of the batch clashed');

/**
 * Rows a store writes into a table through insertMany or insertWithId (bulk loads: seed, import,
 * migrate) before its close brings the table's planner statistics up to date (VACUUM (ANALYZE)): a load
 * read straight after by a server would otherwise be planned from the statistics of an empty table.
 */
export const ANALYZE_AFTER_ROWS = 1000;

/**
 * The store operations as statements on an executor (see pg-types.ts): reads on the pool or in a
 * transaction, writes always in a transaction (pg-store.ts), so a read-modify-write is atomic.
 */
export class Operations {
  /** Rows loaded per table since the last ANALYZE (ANALYZE_AFTER_ROWS). */
  readonly loaded = new Map<string, number>();

  constructor(readonly tables: PgTables) {}

  table(collection: string): PgTable {
    const table = this.tables.get(collection);
    if (!table) throw new Error(`unknown collection ${JSON.stringify(collection)}`);
    return table;
  }

  async get<T extends Doc>(db: Executor, collection: string, id: string): Promise<T | null> {
    const row = await this.#row(db, this.table(collection), id);
    return row ? decodeRow<T>(row) : null;
  }

  /** In a transaction that set the collection's sequence, the id is the next one above it. */
  async insert<T extends Doc>(db: TransactionExecutor, collection: string, doc: Record<string, unknown>): Promise<T> {
    const table = this.table(collection);
    if (table.id === 'text') return this.#insert<T>(db, table, doc, textId(collection, doc.id));
    const pending = db.sequences.get(table.sequence!);
    if (pending === undefined) return this.#insert<T>(db, table, doc, undefined);
    db.sequences.set(table.sequence!, pending + 1);
    return this.#insert<T>(db, table, doc, String(pending + 1));
  }

  /**
   * Every document in one statement (pg-insert-many.ts), with the ids `insert` would give them one
   * by one, in order; undefined, having written nothing, when one clashes with a stored row or
   * another of the batch: inserting them one by one then names the key (and writes those before it).
   */
  async insertMany(db: TransactionExecutor, collection: string, docs: readonly Record<string, unknown>[]): Promise<string[] | undefined> {
    const table = this.table(collection);
    if (docs.length === 0) return [];
    const pending = table.id === 'auto' ? db.sequences.get(table.sequence!) : undefined;
    const ids = table.id === 'text' ? docs.map((doc) => textId(collection, doc.id)) : pending === undefined ? undefined : docs.map((_, i) => String(pending + 1 + i));
    const rows = docs.map((doc) => {
      const { doc: saved, json } = encodeDoc(doc);
      return { json, values: columnValues(table, saved) };
    });
    const { sql, params } = compileInsertMany(table, rows, ids?.map((id) => idKey(table, id)));
    try {
      const returned = await db.contained(async () => {
        const result = (await db.query<{ id: string }>(sql, params)).rows;
        if (result.length < docs.length) throw CLASHED;
        return result;
      });
      if (pending !== undefined) db.sequences.set(table.sequence!, pending + docs.length);
      this.#load(table, docs.length);
      // The identity hands out rising ids in the rows' order, whatever order RETURNING lists them in.
      return ids ?? returned.map((r) => BigInt(r.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
    } catch (error) {
      if (error === CLASHED) return undefined;
      throw error;
    }
  }

  /** The tables loaded past ANALYZE_AFTER_ROWS since they were last analyzed, forgetting them. */
  takeLoaded(): PgTable[] {
    const loaded = [...this.loaded].filter(([, rows]) => rows >= ANALYZE_AFTER_ROWS).map(([name]) => this.table(name));
    this.loaded.clear();
    return loaded;
  }

  #load(table: PgTable, rows: number): void {
    this.loaded.set(table.name, (this.loaded.get(table.name) ?? 0) + rows);
  }

  /** Raises the sequence past a restored id (when the transaction commits), so later inserts never hand it out again. */
  async insertWithId<T extends Doc>(db: TransactionExecutor, collection: string, doc: Doc): Promise<T> {
    const table = this.table(collection);
    if (table.id === 'text') return this.#insert<T>(db, table, doc, textId(collection, doc.id));
    const id = autoIdNumber(collection, doc.id);
    const inserted = await this.#insert<T>(db, table, doc, String(id));
    this.#load(table, 1);
    db.sequences.set(table.sequence!, Math.max(id, await this.sequence(db, collection)));
    return inserted;
  }

  async sequence(db: Executor, collection: string): Promise<number> {
    const table = this.table(collection);
    assertSequenced(collection, table.id);
    const pending = db.sequences?.get(table.sequence!);
    if (pending !== undefined) return pending;
    const { rows } = await db.query<{ n: string }>(`SELECT ${lastValue('$1')} AS n`, [table.sequence]);
    return Number(rows[0].n);
  }

  async setSequence(db: TransactionExecutor, collection: string, value: number): Promise<void> {
    const table = this.table(collection);
    assertSequenced(collection, table.id);
    const { rows } = await db.query<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM ${table.sql}`);
    db.sequences.set(table.sequence!, checkSequence(collection, value, Number(rows[0].n)));
  }

  async update<T extends Doc>(db: TransactionExecutor, collection: string, id: string, patch: Record<string, unknown>): Promise<T | null> {
    const table = this.table(collection);
    const row = await this.#row(db, table, id);
    return row ? this.#save<T>(db, table, row, mergePatch(row.doc, patch)) : null;
  }

  async increment<T extends Doc>(db: TransactionExecutor, collection: string, id: string, field: string, by: number): Promise<T | null> {
    const table = this.table(collection);
    if (typeof by !== 'number' || !Number.isFinite(by)) throw new TypeError(`increment ${collection}.${field}: by must be a finite number`);
    const row = await this.#row(db, table, id);
    if (!row) return null;
    const current = row.doc[field] ?? 0;
    if (typeof current !== 'number') throw new TypeError(`increment ${collection}.${field}: the field holds a ${typeof current}, not a number`);
    // Read-modify-write keeps JS number semantics exactly; it runs in a serializable transaction.
    return this.#save<T>(db, table, row, { ...row.doc, [field]: current + by });
  }

  async delete(db: TransactionExecutor, collection: string, id: string): Promise<boolean> {
    const table = this.table(collection);
    const key = idKey(table, id);
    if (key === INCOMPARABLE) return false;
    return ((await db.query(`DELETE FROM ${table.sql} WHERE id = $1`, [key])).rowCount ?? 0) > 0;
  }

  async deleteWhere(db: TransactionExecutor, collection: string, where: Filter): Promise<number> {
    const { sql, params } = compileDeleteWhere(this.tables, this.table(collection), where);
    return (await db.query(sql, params)).rowCount ?? 0;
  }

  async count(db: Executor, collection: string, given?: Filter): Promise<number> {
    const table = this.table(collection);
    const where = await wholeWordsOf(db, this.tables, table, given);
    return this.#nearOnNothing(db, table, where, (db, near) => this.#count(db, table, where, near), (n) => n === 0);
  }

  async countBy(db: Executor, collection: string, field: string, given?: Filter, distinct?: string): Promise<Map<string, number>> {
    const table = this.table(collection);
    const where = await wholeWordsOf(db, this.tables, table, given);
    const grouped = async (db: Executor, near?: Near) => {
      const { sql, params } = compileCountBy(this.tables, table, field, where, distinct, near);
      return groupCounts((await db.query<GroupRow>(sql, params)).rows);
    };
    return this.#nearOnNothing(db, table, where, grouped, (counts) => counts.size === 0);
  }

  async sumBy(db: Executor, collection: string, by: readonly string[], sums: readonly string[], where?: Filter): Promise<SumRow[]> {
    const { sql, params } = compileSumBy(this.tables, this.table(collection), by, sums, where);
    return sumRows((await db.query<Record<string, unknown>>(sql, params)).rows, sums);
  }

  /** The total is counted apart only for an empty page past the start, which carries no row to read it from. */
  async find<T extends Doc>(db: Executor, collection: string, options: FindOptions = {}): Promise<FindResult<T>> {
    const offset = checkCount('offset', options.offset) ?? 0;
    const limit = checkCount('limit', options.limit);
    const table = this.table(collection);
    const where = await wholeWordsOf(db, this.tables, table, options.where);
    return this.#nearOnNothing(
      db,
      table,
      where,
      async (db, near) => {
        const read: FindRead = { ...options, where, offset, limit };
        const walk = walkOf(table, read, near);
        if (walk) {
          const walked = await db.snapshot((db) => this.#walk<T>(db, table, read, walk));
          if (walked) return walked;
        }
        return this.#page<T>(db, table, read, near);
      },
      (found) => found.total === 0,
    );
  }

  async lockNext<T extends Doc>(db: Executor, collection: string, where: Filter, orderBy: OrderBy[], limit: number): Promise<T[]> {
    const { sql, params } = compileLockNext(this.tables, this.table(collection), where, orderBy, limit);
    return (await db.query<Row>(sql, params)).rows.map((row) => decodeRow<T>(row));
  }

  async findOne<T extends Doc>(db: Executor, collection: string, given: Filter, orderBy?: OrderBy[]): Promise<T | null> {
    const table = this.table(collection);
    const where = (await wholeWordsOf(db, this.tables, table, given))!;
    const first = async (db: Executor, near?: Near) => {
      const { sql, params } = compileFindOne(this.tables, table, where, orderBy, near);
      const { rows } = await db.query<Row>(sql, params);
      return rows.length ? decodeRow<T>(rows[0]) : null;
    };
    return this.#nearOnNothing(db, table, where, first, (found) => found === null);
  }

  /**
   * A read that, when its search finds nothing and may fall back to near matches (pg-near.ts),
   * runs once more for those (after setting their threshold): both on one snapshot, so the second
   * answers for the same state of the database as the first. A read with nothing to fall back to
   * runs once, as it is.
   */
  async #nearOnNothing<R>(db: Executor, table: PgTable, where: Filter | undefined, read: (db: Executor, near?: Near) => Promise<R>, nothing: (result: R) => boolean): Promise<R> {
    const near = nearSearch(this.tables, table, where);
    if (!near) return read(db);
    return db.snapshot(async (db) => {
      const result = await read(db);
      if (!nothing(result) || !where) return result;
      const words = nearWordsKnown(near) ? near.words : await this.#unfound(db, table, where, near);
      // Words that each find something as written, only never together: nothing is near.
      if (words.length === 0) return result;
      await db.query(NEAR_SETTING);
      return read(db, { ...near, words });
    });
  }

  /**
   * The bare words of `near`'s search that find nothing as written under the list's conditions,
   * each asked alone for its first match (a GIN lookup): only those are read as near. A word found
   * as written stays as written, so a search of real words found apart costs no trigram read
   * (at 300,000 videos, two such words cost 600 ms and more in the near look).
   */
  async #unfound(db: Executor, table: PgTable, where: Filter, near: Near): Promise<SearchTerm[]> {
    const unfound: SearchTerm[] = [];
    for (const word of near.words) {
      const { sql, params } = compileExists(this.tables, table, wordAlone(where, near, word));
      if ((await db.query(sql, params)).rows.length === 0) unfound.push(word);
    }
    return unfound;
  }

  /**
   * A page of a search walked in a window's order (compileWalk) when the planner's estimate of
   * its matches says the walk is short; undefined when it is not, or when it ran out before
   * filling the page, for the page to be read from every match. The estimate alone decides, so a
   * search of few matches (two or three words, most often) costs no count before its plain page;
   * a walk that fills the page is right whatever the estimate said, and carries its total.
   */
  async #walk<T extends Doc>(db: Executor, table: PgTable, read: FindRead, walk: Walk): Promise<FindResult<T> | undefined> {
    const estimated = await this.#estimate(db, table, read.where, undefined, 1);
    const sizing = compileSize(table);
    const { size } = (await db.query<{ size: number }>(sizing.sql, sizing.params)).rows[0];
    const budget = Math.ceil((WALK_SLACK * (read.offset + read.limit!) * Math.max(size, estimated)) / estimated);
    if (budget > WALK_MOST) return undefined;
    const { sql, params } = compileWalk(this.tables, table, read, walk, budget);
    const { rows } = await db.query<Row & { total: string }>(sql, params);
    if (rows.length !== read.limit) return undefined;
    const counted = Number(rows[0].total);
    return { items: rows.map((row) => decodeRow<T>(row)), total: counted <= (read.exactTotal ?? SEARCH_EXACT_TOTAL) ? counted : Math.max(counted, estimated) };
  }

  /** The planner's estimate of a search's matches, once `counted` (one past exactTotal) says they are more than exactTotal. */
  async #estimate(db: Executor, table: PgTable, where: Filter | undefined, near: Near | undefined, counted: number): Promise<number> {
    const estimate = compileEstimate(this.tables, table, where, near);
    const [plan] = (await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(estimate.sql, estimate.params)).rows[0]['QUERY PLAN'];
    return Math.max(counted, Math.round(plan.Plan['Plan Rows']));
  }

  /** A page and its total (compileFind); a search's total past exactTotal is the planner's estimate, never less than one past it. */
  async #page<T extends Doc>(db: Executor, table: PgTable, read: FindRead, near: Near | undefined): Promise<FindResult<T>> {
    const { sql, params } = compileFind(this.tables, table, read, near);
    const { rows } = await db.query<Row & { total: string }>(sql, params);
    const items = rows.map((row) => decodeRow<T>(row));
    if (read.countTotal === false && !searches(read.where)) return { items, total: read.offset + items.length };
    if (rows.length === 0) return { items, total: read.offset === 0 && read.limit !== 0 ? 0 : await this.#count(db, table, read.where, near) };
    const counted = Number(rows[0].total);
    if (!searches(read.where) || counted <= (read.exactTotal ?? SEARCH_EXACT_TOTAL)) return { items, total: counted };
    return { items, total: await this.#estimate(db, table, read.where, near, counted) };
  }

  async #count(db: Executor, table: PgTable, where: Filter | undefined, near?: Near): Promise<number> {
    const { sql, params } = compileCount(this.tables, table, where, near);
    return Number((await db.query<{ n: string }>(sql, params)).rows[0].n);
  }

  /**
   * Inserts with `id` in the id column, or lets the identity assign one when it is undefined. A
   * clash writes nothing (ON CONFLICT DO NOTHING keeps the transaction usable) and is attributed
   * to the key that holds the values. An identity that handed out a taken id (its sequence fell
   * behind the rows, say after a crash between a restore's commit and its sequence write) is moved
   * past them and the insert tried once more.
   */
  async #insert<T extends Doc>(db: TransactionExecutor, table: PgTable, doc: Record<string, unknown>, id: string | undefined): Promise<T> {
    const { doc: saved, json } = encodeDoc<T>(doc);
    const cols = [DOC_COLUMN, ...table.columns.map(quote)];
    const values: unknown[] = [json, ...columnValues(table, saved)];
    if (id !== undefined) {
      cols.unshift('id');
      values.unshift(idKey(table, id));
    }
    const sql = `INSERT INTO ${table.sql} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT DO NOTHING RETURNING id`;
    let { rows } = await db.query<{ id: string }>(sql, values);
    if (rows.length === 0) {
      const key = await this.#clashingKey(db, table, saved, { id });
      if (key || id !== undefined || table.id !== 'auto') throw new StoreConflictError(table.name, key ?? ['id']);
      await db.query(`SELECT setval($1, max(id)) FROM ${table.sql} HAVING max(id) > ${lastValue('$1')}`, [table.sequence]);
      ({ rows } = await db.query<{ id: string }>(sql, values));
      if (rows.length === 0) throw new StoreConflictError(table.name, (await this.#clashingKey(db, table, saved, {})) ?? ['id']);
    }
    saved.id = String(rows[0].id);
    return saved;
  }

  /**
   * The key behind a clash: the id when the caller gave one and it is taken, else the first unique
   * key whose values another document holds (`except` is the document being updated); undefined
   * when none is (the clashing row is gone already, deleted by a transaction that committed since).
   */
  async #clashingKey(db: Executor, table: PgTable, body: Body, clash: { id?: string; except?: string }): Promise<readonly string[] | undefined> {
    if (clash.id !== undefined && (await db.query(`SELECT 1 FROM ${table.sql} WHERE id = $1`, [idKey(table, clash.id)])).rows.length) {
      return ['id'];
    }
    for (const key of table.unique) {
      const bound = key.map((field) => (field === 'id' ? clash.id : columnValue(table.fields[field], body[field])));
      if (bound.includes(null) || bound.includes(undefined)) continue;
      const match = key.map((field, i) => `${field === 'id' ? 'id' : quote(field)} = $${i + 1}`);
      if (clash.except !== undefined) match.push(`id <> $${bound.push(clash.except)}`);
      if ((await db.query(`SELECT 1 FROM ${table.sql} WHERE ${match.join(' AND ')} LIMIT 1`, bound)).rows.length) return key;
    }
    return undefined;
  }

  async #row(db: Executor, table: PgTable, id: string): Promise<Row | undefined> {
    const key = idKey(table, id);
    if (key === INCOMPARABLE) return undefined;
    return (await db.query<Row>(`SELECT id, ${DOC_COLUMN} FROM ${table.sql} WHERE id = $1`, [key])).rows[0];
  }

  /** Writes a document back; an update that changes a unique key runs contained, so a clash leaves the transaction usable. */
  async #save<T extends Doc>(db: TransactionExecutor, table: PgTable, row: Row, doc: Body): Promise<T> {
    const { doc: saved, json } = encodeDoc<T>(doc);
    const values = [json, ...columnValues(table, saved)];
    const sets = [DOC_COLUMN, ...table.columns.map(quote)].map((col, i) => `${col} = $${i + 1}`).join(', ');
    const write = () => db.query(`UPDATE ${table.sql} SET ${sets} WHERE id = $${values.length + 1}`, [...values, row.id]);
    const rekeyed = table.unique.some((key) => key.some((field) => field !== 'id' && !sameValue(row.doc[field], saved[field])));
    if (!rekeyed) await write();
    else {
      await db.contained(write).catch(async (error: unknown) => {
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
        throw new StoreConflictError(table.name, (await this.#clashingKey(db, table, saved, { except: row.id })) ?? table.unique[0]);
      });
    }
    saved.id = String(row.id);
    return saved;
  }
}

/** The last id a sequence handed out, 0 before the first. */
const lastValue = (sequence: string): string => `coalesce(pg_sequence_last_value(${sequence}::regclass), 0)`;

const idKey = (table: PgTable, id: string): unknown => filterValue(table, 'id', id);

const UNIQUE_VIOLATION = '23505';

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function textId(collection: string, id: unknown): string {
  if (typeof id !== 'string' || id === '') throw new TypeError(`insert into ${collection}: a text-id collection needs a string id`);
  return id;
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return value;
}
