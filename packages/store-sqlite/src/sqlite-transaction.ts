import type { Doc, Filter, FindOptions, FindResult, OrderBy, Store, SumRow } from '@reelbase/core';
import { Mutex, type Holder } from '@reelbase/core/sql';
import type { Operations } from './sqlite-operations';
import { runInLevel, savepoint, type Level } from './transaction-level';

// Sibling transactions are serialised, so one savepoint name per depth never clashes.
const nestedLevel = (depth: number): Level => savepoint(`rb_sp_${depth}`);

/**
 * Runs `fn(tx)` in `level`, undoing everything on a throw, and closes `tx` after. The caller holds
 * the mutex that serialises this level.
 */
export async function runTransaction<R>(tx: SqliteTransaction, level: Level, fn: (tx: Store) => Promise<R>): Promise<R> {
  try {
    return await runInLevel(tx.operations.conn.db, level, () => fn(tx));
  } finally {
    tx.finish();
  }
}

/**
 * The store handed to a transaction callback: every call runs at once on the writer connection
 * inside the open transaction. Nested transactions become savepoints, serialised per level.
 */
export class SqliteTransaction implements Store, Holder {
  #open = true;
  readonly #children = new Mutex();

  constructor(
    readonly operations: Operations,
    readonly parent: Holder | undefined,
    readonly depth: number,
  ) {}

  finish(): void {
    this.#open = false;
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    return this.#ops().get<T>(collection, id);
  }

  async insert<T extends Doc = Doc>(collection: string, doc: Omit<T, 'id'> & { id?: string }): Promise<T> {
    return this.#ops().insert<T>(collection, doc);
  }

  async insertMany<T extends Doc = Doc>(collection: string, docs: readonly (Omit<T, 'id'> & { id?: string })[]): Promise<string[]> {
    const ops = this.#ops();
    return ops.conn.atomic(() => ops.insertMany(collection, docs));
  }

  async update<T extends Doc = Doc>(collection: string, id: string, patch: Partial<Omit<T, 'id'>>): Promise<T | null> {
    return this.#ops().update<T>(collection, id, patch);
  }

  async delete(collection: string, id: string): Promise<boolean> {
    return this.#ops().delete(collection, id);
  }

  async find<T extends Doc = Doc>(collection: string, options?: FindOptions): Promise<FindResult<T>> {
    return this.#ops().find<T>(collection, options);
  }

  async findOne<T extends Doc = Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): Promise<T | null> {
    return this.#ops().findOne<T>(collection, where, orderBy);
  }

  async count(collection: string, where?: Filter): Promise<number> {
    return this.#ops().count(collection, where);
  }

  async countBy(collection: string, field: string, where?: Filter, distinct?: string): Promise<Map<string, number>> {
    return this.#ops().countBy(collection, field, where, distinct);
  }

  async sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): Promise<SumRow[]> {
    return this.#ops().sumBy(collection, by, sums, where);
  }

  async deleteWhere(collection: string, where: Filter): Promise<number> {
    return this.#ops().deleteWhere(collection, where);
  }

  async increment<T extends Doc = Doc>(collection: string, id: string, field: string, by: number): Promise<T | null> {
    return this.#ops().increment<T>(collection, id, field, by);
  }

  async insertWithId<T extends Doc = Doc>(collection: string, doc: T): Promise<T> {
    return this.#ops().insertWithId<T>(collection, doc);
  }

  async sequence(collection: string): Promise<number> {
    return this.#ops().sequence(collection);
  }

  async setSequence(collection: string, value: number): Promise<void> {
    this.#ops().setSequence(collection, value);
  }

  async transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    this.#ops();
    if (this.#children.heldByCaller()) {
      throw new Error('transaction() called on an outer transaction from inside a nested one would wait forever; use the innermost tx');
    }
    const child = new SqliteTransaction(this.operations, this, this.depth + 1);
    return this.#children.run(child, () => {
      this.#ops();
      return runTransaction(child, nestedLevel(child.depth), fn);
    });
  }

  /** A transaction's store closes with the transaction; closing the database is the root store's job. */
  async close(): Promise<void> {}

  #ops(): Operations {
    if (!this.#open) throw new Error('this transaction has already finished; use the store passed to the current transaction');
    return this.operations;
  }
}
