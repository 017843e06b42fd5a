import type { Doc, Filter, FindOptions, FindResult, OrderBy, Store } from '@reelbase/core';
import { Mutex, type Holder } from '@reelbase/core/sql';
import { ReadSnapshot } from './read-snapshot';
import type { Operations } from './sqlite-operations';
import { runTransaction, SqliteTransaction, TOP_LEVEL } from './sqlite-transaction';

/** The holder of the writer mutex for a one-statement write of the root store. */
const ROOT_WRITE: Holder = {};

/**
 * The root store. Transactions are serialised by a mutex around the one writer connection, and
 * the root store never joins one: its writes queue behind the mutex as their own small
 * transactions, and its reads use a second, read-only connection that sees the last committed
 * state (WAL), one read transaction per turn of the event loop (read-snapshot.ts). An in-memory database has no second connection, so its reads queue too.
 */
export class SqliteStore implements Store {
  readonly #mutex = new Mutex();
  readonly #snapshot: ReadSnapshot | undefined;
  #closed = false;

  constructor(
    readonly writer: Operations,
    /** Undefined for ':memory:'. */
    readonly reader: Operations | undefined,
  ) {
    this.#snapshot = reader && new ReadSnapshot(reader.conn);
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    return this.#read((ops) => ops.get<T>(collection, id));
  }

  async insert<T extends Doc = Doc>(collection: string, doc: Omit<T, 'id'> & { id?: string }): Promise<T> {
    return this.#write((ops) => ops.insert<T>(collection, doc));
  }

  async update<T extends Doc = Doc>(collection: string, id: string, patch: Partial<Omit<T, 'id'>>): Promise<T | null> {
    return this.#write((ops) => ops.update<T>(collection, id, patch));
  }

  async delete(collection: string, id: string): Promise<boolean> {
    return this.#write((ops) => ops.delete(collection, id));
  }

  async find<T extends Doc = Doc>(collection: string, options?: FindOptions): Promise<FindResult<T>> {
    return this.#read((ops) => ops.find<T>(collection, options));
  }

  async findOne<T extends Doc = Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): Promise<T | null> {
    return this.#read((ops) => ops.findOne<T>(collection, where, orderBy));
  }

  async count(collection: string, where?: Filter): Promise<number> {
    return this.#read((ops) => ops.count(collection, where));
  }

  async deleteWhere(collection: string, where: Filter): Promise<number> {
    return this.#write((ops) => ops.deleteWhere(collection, where));
  }

  async increment<T extends Doc = Doc>(collection: string, id: string, field: string, by: number): Promise<T | null> {
    return this.#write((ops) => ops.increment<T>(collection, id, field, by));
  }

  async insertWithId<T extends Doc = Doc>(collection: string, doc: T): Promise<T> {
    return this.#write((ops) => ops.insertWithId<T>(collection, doc));
  }

  async sequence(collection: string): Promise<number> {
    return this.#read((ops) => ops.sequence(collection));
  }

  async setSequence(collection: string, value: number): Promise<void> {
    return this.#write((ops) => ops.setSequence(collection, value));
  }

  async transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    const tx = new SqliteTransaction(this.writer, undefined, 0);
    // The commit is acknowledged to the caller only after reads moved past it.
    return this.#exclusive(tx, () => runTransaction(tx, TOP_LEVEL, fn).finally(() => this.#snapshot?.end()));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#checkNotInTransaction();
    this.#closed = true;
    // Let queued transactions and writes finish; the writer closes last so it checkpoints the WAL.
    await this.#mutex.run(ROOT_WRITE, () => {
      this.#snapshot?.end();
      this.reader?.conn.close();
      this.writer.conn.close();
    });
  }

  #read<R>(fn: (ops: Operations) => R): R | Promise<R> {
    if (!this.reader) return this.#exclusive(ROOT_WRITE, () => fn(this.writer));
    this.#checkOpen();
    this.#snapshot!.enter();
    return fn(this.reader);
  }

  #write<R>(fn: (ops: Operations) => R): Promise<R> {
    return this.#exclusive(ROOT_WRITE, () => {
      const result = this.writer.conn.immediate(() => fn(this.writer));
      this.#snapshot?.end();
      return result;
    });
  }

  #exclusive<R>(holder: Holder, fn: () => R | Promise<R>): Promise<R> {
    this.#checkOpen();
    this.#checkNotInTransaction();
    // Calls queued before close() still run: close() queues behind them.
    return this.#mutex.run(holder, fn);
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error('the sqlite store is closed');
  }

  #checkNotInTransaction(): void {
    // Waiting for the transaction we are running inside would never end.
    if (this.#mutex.heldByCaller()) {
      throw new Error(
        'the root store was called from inside its own transaction, which would wait forever: use the tx passed to the callback' +
          (this.reader ? '' : ' (an in-memory database serialises root reads too)'),
      );
    }
  }
}
