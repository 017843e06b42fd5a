import { StoreConflictError, type Doc, type Filter, type FindOptions, type FindResult, type OrderBy } from '@reelbase/core';
import { compileFilter } from './compile-filter';
import { compileFind, compileWhere } from './compile-query';
import { columnValues, decodeRow, encodeBody, mergePatch, toSqlId, type Body, type Row } from './row-codec';
import type { Connection } from './sqlite-connection';
import { DOC_COLUMN, quote, type Table, type Tables } from './sqlite-schema';
import type { SqlValue } from './sqlite-types';

/**
 * The store operations as synchronous calls on one connection. Callers decide which connection
 * and which transaction they run in (see sqlite-store.ts); multi-statement writes here assume
 * they are inside one.
 */
export class Operations {
  constructor(
    readonly conn: Connection,
    readonly tables: Tables,
  ) {}

  table(collection: string): Table {
    const table = this.tables.get(collection);
    if (!table) throw new Error(`unknown collection ${JSON.stringify(collection)}`);
    return table;
  }

  get<T extends Doc>(collection: string, id: string): T | null {
    const table = this.table(collection);
    const row = this.#row(table, id);
    return row ? decodeRow<T>(row) : null;
  }

  insert<T extends Doc>(collection: string, doc: Record<string, unknown>): T {
    const table = this.table(collection);
    const { body, json } = encodeBody(doc);
    const cols = [DOC_COLUMN, ...table.columns.map(quote)];
    const values: SqlValue[] = [json, ...columnValues(table, body)];
    if (table.id === 'text') {
      if (typeof doc.id !== 'string' || doc.id === '') throw new TypeError(`insert into ${collection}: a text-id collection needs a string id`);
      cols.unshift('id');
      values.unshift(doc.id);
    }
    const sql = `INSERT INTO ${table.sql} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
    const { lastInsertRowid } = this.#write(table, () => this.conn.run(sql, values));
    const id = table.id === 'text' ? (doc.id as string) : String(lastInsertRowid);
    return { id, ...body } as T;
  }

  update<T extends Doc>(collection: string, id: string, patch: Record<string, unknown>): T | null {
    const table = this.table(collection);
    const row = this.#row(table, id);
    if (!row) return null;
    return this.#save<T>(table, row, mergePatch(JSON.parse(row.doc) as Body, patch));
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
    return this.#save<T>(table, row, { ...body, [field]: current + by });
  }

  delete(collection: string, id: string): boolean {
    const table = this.table(collection);
    return this.conn.run(`DELETE FROM ${table.sql} WHERE id = ?`, [toSqlId(table, id)]).changes > 0;
  }

  deleteWhere(collection: string, where: Filter): number {
    const table = this.table(collection);
    const params: SqlValue[] = [];
    const sql = `DELETE FROM ${table.sql} WHERE ${compileFilter(this.tables, table, where, params)}`;
    return this.conn.run(sql, params).changes;
  }

  count(collection: string, where?: Filter): number {
    const table = this.table(collection);
    const params: SqlValue[] = [];
    const sql = `SELECT count(*) AS n FROM ${table.sql}${compileWhere(this.tables, table, where, params)}`;
    return this.conn.get<{ n: number }>(sql, params)?.n ?? 0;
  }

  find<T extends Doc>(collection: string, options: FindOptions = {}): FindResult<T> {
    const table = this.table(collection);
    const offset = checkCount('offset', options.offset) ?? 0;
    const limit = checkCount('limit', options.limit);
    const { select, count, params } = compileFind(this.tables, table, options);
    return this.conn.snapshot(() => {
      const items = this.conn.all<Row>(select, [...params, limit ?? -1, offset]).map((row) => decodeRow<T>(row));
      // A short page that is non-empty (or starts at 0) tells the total without counting.
      const short = limit === undefined || items.length < limit;
      const total = short && (items.length > 0 || offset === 0) ? offset + items.length : (this.conn.get<{ n: number }>(count, params)?.n ?? 0);
      return { items, total };
    });
  }

  findOne<T extends Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): T | null {
    const { select, params } = compileFind(this.tables, this.table(collection), { where, orderBy });
    const row = this.conn.get<Row>(select, [...params, 1, 0]);
    return row ? decodeRow<T>(row) : null;
  }

  #row(table: Table, id: string): Row | undefined {
    return this.conn.get<Row>(`SELECT id, ${DOC_COLUMN} FROM ${table.sql} WHERE id = ?`, [toSqlId(table, id)]);
  }

  #save<T extends Doc>(table: Table, row: Row, doc: Body): T {
    const { body, json } = encodeBody(doc);
    const sets = [DOC_COLUMN, ...table.columns.map(quote)].map((col) => `${col} = ?`).join(', ');
    this.#write(table, () => this.conn.run(`UPDATE ${table.sql} SET ${sets} WHERE id = ?`, [json, ...columnValues(table, body), row.id]));
    return { id: String(row.id), ...body } as T;
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

function conflict(table: Table, error: unknown): StoreConflictError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new StoreConflictError(table.name, ['id']);
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  // "UNIQUE constraint failed: videos.user_id, videos.slug" — report the declared key in its order.
  const failed = ((error as Error).message.split(': ')[1] ?? '').split(', ').map((c) => c.slice(c.indexOf('.') + 1));
  const key = table.unique.find((k) => k.length === failed.length && k.every((f) => failed.includes(f)));
  return new StoreConflictError(table.name, key ?? failed);
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return value;
}
