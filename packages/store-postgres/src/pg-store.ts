import type { Doc, Filter, FindOptions, FindResult, OrderBy, RateLimit, RateLimiter, Store, SumRow } from '@reelbase/core';
import { Mutex, type Holder } from '@reelbase/core/sql';
import type { Pool, QueryResultRow } from 'pg';
import type { Operations } from './pg-operations';
import { pgRateLimiter } from './pg-rate-limiter';
import { abortedBy, PgTransaction, TransactionState } from './pg-transaction';
import { isRetryable, type Executor } from './pg-types';

/** How a transaction attempt ended: committed with a value, or failed (and whether running it again may succeed). */
type Attempt<R> = { committed: true; value: R } | { committed: false; error: unknown; retry: boolean };

/**
 * The root store over a connection pool. Reads run on any pooled connection and see the last
 * committed state. Every write is a transaction: SERIALIZABLE on one pooled connection, queued
 * behind this store's other transactions (as on SQLite, so a callback runs alone in its process)
 * and run again from the start when PostgreSQL reports a serialization failure or deadlock — what
 * another process sharing the database causes — up to `attempts` times.
 */
export class PgStore implements Store {
  readonly #mutex = new Mutex();
  readonly #reads: Executor;
  #closed = false;

  constructor(
    readonly pool: Pool,
    readonly operations: Operations,
    readonly attempts: number,
    /** Builds what a bulk load deferred (pg-bulk-load.ts), at close. */
    readonly endLoad?: () => Promise<void>,
  ) {
    this.#reads = poolReads(pool);
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    return this.operations.get<T>(this.#read(), collection, id);
  }

  async insert<T extends Doc = Doc>(collection: string, doc: Omit<T, 'id'> & { id?: string }): Promise<T> {
    return this.transaction((tx) => tx.insert<T>(collection, doc));
  }

  async insertMany<T extends Doc = Doc>(collection: string, docs: readonly (Omit<T, 'id'> & { id?: string })[]): Promise<string[]> {
    return this.transaction((tx) => tx.insertMany<T>(collection, docs));
  }

  async update<T extends Doc = Doc>(collection: string, id: string, patch: Partial<Omit<T, 'id'>>): Promise<T | null> {
    return this.transaction((tx) => tx.update<T>(collection, id, patch));
  }

  async delete(collection: string, id: string): Promise<boolean> {
    return this.transaction((tx) => tx.delete(collection, id));
  }

  async find<T extends Doc = Doc>(collection: string, options?: FindOptions): Promise<FindResult<T>> {
    return this.operations.find<T>(this.#read(), collection, options);
  }

  async findOne<T extends Doc = Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): Promise<T | null> {
    return this.operations.findOne<T>(this.#read(), collection, where, orderBy);
  }

  async count(collection: string, where?: Filter): Promise<number> {
    return this.operations.count(this.#read(), collection, where);
  }

  async countBy(collection: string, field: string, where?: Filter, distinct?: string): Promise<Map<string, number>> {
    return this.operations.countBy(this.#read(), collection, field, where, distinct);
  }

  async sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): Promise<SumRow[]> {
    return this.operations.sumBy(this.#read(), collection, by, sums, where);
  }

  async deleteWhere(collection: string, where: Filter): Promise<number> {
    return this.transaction((tx) => tx.deleteWhere(collection, where));
  }

  async increment<T extends Doc = Doc>(collection: string, id: string, field: string, by: number): Promise<T | null> {
    return this.transaction((tx) => tx.increment<T>(collection, id, field, by));
  }

  async insertWithId<T extends Doc = Doc>(collection: string, doc: T): Promise<T> {
    return this.transaction((tx) => tx.insertWithId<T>(collection, doc));
  }

  async sequence(collection: string): Promise<number> {
    return this.operations.sequence(this.#read(), collection);
  }

  async setSequence(collection: string, value: number): Promise<void> {
    return this.transaction((tx) => tx.setSequence(collection, value));
  }

  async transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    this.#checkOpen();
    // Waiting for the transaction we are running inside would never end.
    if (this.#mutex.heldByCaller()) {
      throw new Error('the root store was asked for a write or transaction from inside its own transaction, which would wait forever: use the tx passed to the callback');
    }
    const holder: Holder = {};
    // Calls queued before close() still run: close() queues behind them.
    return this.#mutex.run(holder, async () => {
      for (let attempt = 1; ; attempt++) {
        const outcome = await this.#attempt(holder, fn);
        if (outcome.committed) return outcome.value;
        if (!outcome.retry || attempt >= this.attempts) throw outcome.error;
        await backOff(attempt);
      }
    });
  }

  /** Counts in the database, so that every server on it spends one allowance per caller. */
  sharedRateLimiter(limit: RateLimit): RateLimiter {
    return pgRateLimiter(this.pool, limit);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#mutex.run({}, async () => {
      try {
        // Before VACUUM (ANALYZE), which reads the expression indexes' values too.
        await this.endLoad?.();
        // After a bulk load (ANALYZE_AFTER_ROWS), so the next reader plans with the rows' statistics,
        // and its index-only scans read no table page: a fresh table has no visibility map until
        // VACUUM (an analytics edge read 283 rows from the table: 44 → 1 ms at 1,000 videos; the
        // vacuum added ~3 s to a 4 s close there). Both only speed reads up (autovacuum makes them
        // too): a failure still closes.
        for (const table of this.operations.takeLoaded()) await this.pool.query(`VACUUM (ANALYZE) ${table.sql}`).catch(() => undefined);
      } finally {
        await this.pool.end();
      }
    });
  }

  async #attempt<R>(holder: Holder, fn: (tx: Store) => Promise<R>): Promise<Attempt<R>> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      const state = new TransactionState(client);
      const tx = new PgTransaction(this.operations, state, holder, 0);
      let outcome: Attempt<R>;
      try {
        outcome = { committed: true, value: await fn(tx) };
      } catch (error) {
        outcome = { committed: false, error, retry: isRetryable(error) };
      } finally {
        tx.finish();
      }
      // A serialization failure the callback caught still means its reads were stale: run it again.
      if (state.retryable) outcome = { committed: false, error: state.retryable, retry: true };
      else if (outcome.committed && state.aborted) outcome = { committed: false, error: abortedBy(state.aborted), retry: false };
      if (!outcome.committed) {
        await state.rollback();
        return outcome;
      }
      try {
        await state.query('COMMIT');
      } catch (error) {
        return { committed: false, error, retry: isRetryable(error) };
      }
      // A sequence never holds 0: "nothing handed out yet" is 1, not yet called.
      for (const [sequence, value] of state.sequences) await client.query('SELECT setval($1, $2, $3)', [sequence, Math.max(value, 1), value > 0]);
      return outcome;
    } catch (error) {
      // BEGIN, ROLLBACK or the connection failed: the client is not reusable.
      broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  #read(): Executor {
    this.#checkOpen();
    return this.#reads;
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error('the postgres store is closed');
  }
}

/** Reads on the pool: each statement on whichever connection is free, or several on one snapshot. */
function poolReads(pool: Pool): Executor {
  return {
    query: <R extends QueryResultRow>(sql: string, params?: unknown[]) => pool.query<R>(sql, params),
    async snapshot<R>(fn: (db: Executor) => Promise<R>): Promise<R> {
      const client = await pool.connect();
      let broken: Error | undefined;
      const onSnapshot: Executor = {
        query: <Q extends QueryResultRow>(sql: string, params?: unknown[]) => client.query<Q>(sql, params),
        snapshot: (inner) => inner(onSnapshot),
      };
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const value = await fn(onSnapshot);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        // A connection that cannot even roll back is not reused.
        await client.query('ROLLBACK').catch((failure: Error) => (broken = failure));
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

/** A short randomised pause before attempt `attempt + 1`, growing with each failure, so colliding writers part ways. */
function backOff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(200, 5 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
