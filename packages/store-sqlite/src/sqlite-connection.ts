import type { BoundInsert, SqliteDatabase, SqliteStatement, SqlValue } from './sqlite-types';

// Statement texts depend only on the shape of a query (values are bound), but `in` lists of many
// lengths still produce distinct texts: keep the cache bounded.
const MAX_CACHED_STATEMENTS = 500;

/** One SQLite connection with a prepared-statement cache keyed by SQL text. */
export class Connection {
  readonly #statements = new Map<string, SqliteStatement>();

  constructor(readonly db: SqliteDatabase) {}

  statement(sql: string): SqliteStatement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) {
        this.#statements.delete(this.#statements.keys().next().value as string);
      }
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  all<T>(sql: string, params: SqlValue[] = []): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  get<T>(sql: string, params: SqlValue[] = []): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  run(sql: string, params: SqlValue[] = []): { changes: number; lastInsertRowid: number | bigint } {
    return this.statement(sql).run(...params);
  }

  /** Runs the INSERTs in order; answers each one's last rowid. */
  insertAll(inserts: readonly BoundInsert[]): number[] {
    return inserts.map(({ sql, values }) => Number(this.run(sql, values).lastInsertRowid));
  }

  /** Runs `fn` in a write transaction taken up front, so it never fails half-way on a lock upgrade. */
  immediate<T>(fn: () => T): T {
    return this.#wrap('BEGIN IMMEDIATE', fn);
  }

  /** Runs `fn` on one read snapshot (several statements agree), unless a transaction is already open. */
  snapshot<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.#wrap('BEGIN', fn);
  }

  /** Runs `fn` all or nothing: in a savepoint of the open transaction, or in a transaction of its own. */
  atomic<T>(fn: () => T): T {
    return this.#wrap('SAVEPOINT rb_atomic', fn, 'RELEASE rb_atomic', ['ROLLBACK TO rb_atomic', 'RELEASE rb_atomic']);
  }

  #wrap<T>(begin: string, fn: () => T, commit = 'COMMIT', rollback = ['ROLLBACK']): T {
    this.db.exec(begin);
    try {
      const result = fn();
      this.db.exec(commit);
      return result;
    } catch (error) {
      // Some errors (SQLITE_FULL, SQLITE_IOERR…) already rolled the transaction back.
      if (this.db.inTransaction) for (const sql of rollback) this.db.exec(sql);
      throw error;
    }
  }

  close(): void {
    this.#statements.clear();
    this.db.close();
  }
}
