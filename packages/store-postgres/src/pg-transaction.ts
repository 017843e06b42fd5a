import type { Doc, Filter, FindOptions, FindResult, OrderBy, Store, SumRow } from '@reelbase/core';
import { Mutex, type Holder } from '@reelbase/core/sql';
import type { PoolClient, QueryResultRow } from 'pg';
import type { Operations } from './pg-operations';
import { isRetryable, type TransactionExecutor } from './pg-types';

/**
 * The connection of one transaction attempt and what happened on it. PostgreSQL refuses every
 * statement after an error until a rollback, so an error the callback catches still dooms the
 * attempt: `aborted` remembers it, `retryable` remembers a serialization failure or deadlock.
 */
export class TransactionState implements TransactionExecutor {
  aborted: unknown;
  retryable: unknown;
  readonly sequences = new Map<string, number>();
  /** Statements go one at a time, so nothing slips into a contained statement's savepoint. */
  readonly #statements = new Mutex();
  readonly #holder: Holder = {};

  constructor(readonly client: PoolClient) {}

  /** Runs a statement, or refuses it with the error that aborted the transaction (PostgreSQL would refuse it anyway). */
  async query<R extends QueryResultRow>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }> {
    const run = () => {
      if (this.aborted) throw abortedBy(this.aborted);
      return this.#run<R>(sql, params);
    };
    return this.#statements.heldByCaller() ? run() : this.#statements.run(this.#holder, run);
  }

  /** A transaction reads one snapshot already (REPEATABLE READ and above). */
  snapshot<R>(fn: (db: TransactionState) => Promise<R>): Promise<R> {
    return fn(this);
  }

  /** Ends the transaction without keeping anything. */
  async rollback(): Promise<void> {
    await this.#statements.run(this.#holder, () => this.#run('ROLLBACK'));
  }

  contained<R>(fn: () => Promise<R>): Promise<R> {
    return this.#statements.run(this.#holder, async () => {
      if (this.aborted) throw abortedBy(this.aborted);
      await this.#run('SAVEPOINT rb_statement');
      try {
        const result = await fn();
        await this.#run('RELEASE SAVEPOINT rb_statement');
        return result;
      } catch (error) {
        await this.#run('ROLLBACK TO SAVEPOINT rb_statement');
        this.aborted = undefined;
        throw error;
      }
    });
  }

  /** Opens a savepoint level for a nested transaction; a rollback to it forgets the errors and sequences set inside. */
  async nested<R>(depth: number, fn: () => Promise<R>): Promise<R> {
    const name = `rb_nested_${depth}`;
    await this.query(`SAVEPOINT ${name}`);
    const sequences = new Map(this.sequences);
    try {
      const result = await fn();
      await this.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await this.#statements.run(this.#holder, () => this.#run(`ROLLBACK TO SAVEPOINT ${name}`));
      this.aborted = undefined;
      this.sequences.clear();
      for (const [sequence, value] of sequences) this.sequences.set(sequence, value);
      throw error;
    }
  }

  async #run<R extends QueryResultRow>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await this.client.query<R>(sql, params);
    } catch (error) {
      this.aborted ??= error;
      if (isRetryable(error)) this.retryable ??= error;
      throw error;
    }
  }
}

/** The error for a transaction whose callback caught a database error and went on. */
export const abortedBy = (cause: unknown): Error =>
  new Error(`the transaction was aborted by an earlier database error that its callback caught: ${(cause as Error)?.message ?? String(cause)}`, { cause });

/**
 * The store handed to a transaction callback: every call runs on the transaction's connection.
 * Nested transactions become savepoints, serialised per level.
 */
export class PgTransaction implements Store, Holder {
  #open = true;
  readonly #children = new Mutex();

  constructor(
    readonly operations: Operations,
    readonly state: TransactionState,
    readonly parent: Holder,
    readonly depth: number,
  ) {}

  finish(): void {
    this.#open = false;
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    return this.#ops().get<T>(this.state, collection, id);
  }

  async insert<T extends Doc = Doc>(collection: string, doc: Omit<T, 'id'> & { id?: string }): Promise<T> {
    return this.#ops().insert<T>(this.state, collection, doc);
  }

  /**
   * One statement for the batch (Operations.insertMany); when a row clashes, a savepoint around
   * the inserts one by one, all or none, so the error names the key as a lone insert's would.
   */
  async insertMany<T extends Doc = Doc>(collection: string, docs: readonly (Omit<T, 'id'> & { id?: string })[]): Promise<string[]> {
    const ids = await this.#ops().insertMany(this.state, collection, docs);
    if (ids) return ids;
    return this.transaction(async (tx) => {
      const ids: string[] = [];
      for (const doc of docs) ids.push((await tx.insert<T>(collection, doc)).id);
      return ids;
    });
  }

  async update<T extends Doc = Doc>(collection: string, id: string, patch: Partial<Omit<T, 'id'>>): Promise<T | null> {
    return this.#ops().update<T>(this.state, collection, id, patch);
  }

  async delete(collection: string, id: string): Promise<boolean> {
    return this.#ops().delete(this.state, collection, id);
  }

  async find<T extends Doc = Doc>(collection: string, options?: FindOptions): Promise<FindResult<T>> {
    return this.#ops().find<T>(this.state, collection, options);
  }

  async lockNext<T extends Doc = Doc>(collection: string, where: Filter, orderBy: OrderBy[], limit: number): Promise<T[]> {
    return this.#ops().lockNext<T>(this.state, collection, where, orderBy, limit);
  }

  async findOne<T extends Doc = Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): Promise<T | null> {
    return this.#ops().findOne<T>(this.state, collection, where, orderBy);
  }

  async count(collection: string, where?: Filter): Promise<number> {
    return this.#ops().count(this.state, collection, where);
  }

  async countBy(collection: string, field: string, where?: Filter, distinct?: string): Promise<Map<string, number>> {
    return this.#ops().countBy(this.state, collection, field, where, distinct);
  }

  async sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): Promise<SumRow[]> {
    return this.#ops().sumBy(this.state, collection, by, sums, where);
  }

  async deleteWhere(collection: string, where: Filter): Promise<number> {
    return this.#ops().deleteWhere(this.state, collection, where);
  }

  async increment<T extends Doc = Doc>(collection: string, id: string, field: string, by: number): Promise<T | null> {
    return this.#ops().increment<T>(this.state, collection, id, field, by);
  }

  async insertWithId<T extends Doc = Doc>(collection: string, doc: T): Promise<T> {
    return this.#ops().insertWithId<T>(this.state, collection, doc);
  }

  async sequence(collection: string): Promise<number> {
    return this.#ops().sequence(this.state, collection);
  }

  async setSequence(collection: string, value: number): Promise<void> {
    return this.#ops().setSequence(this.state, collection, value);
  }

  async transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    this.#ops();
    if (this.#children.heldByCaller()) {
      throw new Error('transaction() called on an outer transaction from inside a nested one would wait forever; use the innermost tx');
    }
    const child = new PgTransaction(this.operations, this.state, this, this.depth + 1);
    return this.#children.run(child, async () => {
      this.#ops();
      try {
        return await this.state.nested(child.depth, () => fn(child));
      } finally {
        child.finish();
      }
    });
  }

  /** A transaction's store closes with the transaction; closing the pool is the root store's job. */
  async close(): Promise<void> {}

  #ops(): Operations {
    if (!this.#open) throw new Error('this transaction has already finished; use the store passed to the current transaction');
    return this.operations;
  }
}
