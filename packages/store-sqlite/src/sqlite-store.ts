import type { Doc, Filter, FindOptions, FindResult, OrderBy, Store, SumRow } from '@reelbase/core';
import { Mutex, type Holder } from '@reelbase/core/sql';
import type { BulkWriter } from './bulk-writer';
import { GroupCommit, type GroupLimits } from './group-commit';
import type { OwnWrites } from './own-writes';
import type { ReadSnapshot } from './read-snapshot';
import type { Operations } from './sqlite-operations';
import { SqliteTransaction } from './sqlite-transaction';

/** The holder of the writer mutex for a one-statement call of the root store, and for close. */
const ROOT_WRITE: Holder = {};

/**
 * The root store. Transactions are serialised by a mutex around the one writer connection, and
 * the root store never joins one: its writes queue behind the mutex like transactions of their
 * own, and its reads use a second, read-only connection that sees the last committed
 * state (WAL), one read transaction per turn of the event loop (read-snapshot.ts). An in-memory database has no second connection, so its reads queue too.
 * Writes queued together share one COMMIT (group-commit.ts) and are acknowledged after it.
 */
export class SqliteStore implements Store {
  readonly #mutex = new Mutex();
  readonly #snapshot: ReadSnapshot | undefined;
  readonly #groups: GroupCommit;
  #closed = false;

  /** Undefined for ':memory:'. */
  readonly reader: Operations | undefined;
  /** The read-only connection remembers what it read (read-cache.ts). */
  readonly remembersReads: boolean;

  constructor(
    readonly writer: Operations,
    /** The read-only connection's operations, its per-turn snapshot and what the writer changes for its cache; undefined for ':memory:'. */
    read: { ops: Operations; snapshot: ReadSnapshot; own: OwnWrites } | undefined,
    groupLimits: GroupLimits,
    /** A bulk load's end (bulk-load.ts), run before the connections close, and its writer thread for insertMany. */
    private readonly load?: { end: () => void; writer?: BulkWriter },
  ) {
    this.reader = read?.ops;
    this.remembersReads = read !== undefined;
    this.#snapshot = read?.snapshot;
    const snapshot = read?.snapshot;
    if (snapshot) {
      this.generation = () => {
        this.#checkOpen();
        snapshot.enter();
        return snapshot.dataVersion();
      };
    }
    // Reads move past a commit before it is acknowledged to its writers, and forget what it changed.
    this.#groups = new GroupCommit(writer.conn.db, groupLimits, () => {
      read?.own.committing();
      this.#snapshot?.end();
    });
  }

  /**
   * The read connection's data_version at its current snapshot: SQLite moves it whenever another
   * connection commits, and every write of this store commits on the writer connection (or the
   * bulk writer's), so any commit moves it. Absent for ':memory:', which has no read connection.
   */
  readonly generation?: () => number;

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    return this.#read((ops) => ops.get<T>(collection, id));
  }

  async insert<T extends Doc = Doc>(collection: string, doc: Omit<T, 'id'> & { id?: string }): Promise<T> {
    return this.#write((ops) => ops.insert<T>(collection, doc));
  }

  async insertMany<T extends Doc = Doc>(collection: string, docs: readonly (Omit<T, 'id'> & { id?: string })[]): Promise<string[]> {
    const bulk = this.load?.writer;
    if (bulk) {
      // Bound here and now, while the thread may still be writing the batch before; sent when the
      // writer connection holds no transaction, so the thread's BEGIN never waits on it.
      return this.writer.insertManyVia(collection, docs, (inserts) =>
        this.#exclusive(ROOT_WRITE, async () => {
          this.#groups.commit();
          try {
            return await bulk.run(inserts);
          } finally {
            this.#snapshot?.end();
          }
        }),
      );
    }
    // The write's own level (its group's transaction, or a savepoint in it) makes it all or none. A
    // savepoint of its own inside would keep every page the rows change in the statement journal,
    // which SQLite walks from its start after each statement: a batch of rows landing all over a
    // unique index (likes, a channel's videos) took quadratic time.
    return this.#write((ops) => ops.insertMany(collection, docs));
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

  async countBy(collection: string, field: string, where?: Filter, distinct?: string): Promise<Map<string, number>> {
    return this.#read((ops) => ops.countBy(collection, field, where, distinct));
  }

  async sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): Promise<SumRow[]> {
    return this.#read((ops) => ops.sumBy(collection, by, sums, where));
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
    return this.#grouped(tx, async () => {
      try {
        return await fn(tx);
      } finally {
        tx.finish();
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#checkNotInTransaction();
    this.#closed = true;
    // Let queued transactions and writes finish; the writer closes last so it checkpoints the WAL.
    await this.#mutex.run(ROOT_WRITE, async () => {
      this.#groups.commit();
      this.#snapshot?.end();
      try {
        await this.load?.writer?.close();
        this.load?.end();
      } finally {
        this.reader?.conn.close();
        this.writer.conn.close();
      }
    });
  }

  #read<R>(fn: (ops: Operations) => R): R | Promise<R> {
    if (!this.reader) {
      // Reads never see writes whose COMMIT is still to come.
      return this.#exclusive(ROOT_WRITE, () => (this.#groups.commit(), fn(this.writer)));
    }
    this.#checkOpen();
    this.#snapshot!.enter();
    return fn(this.reader);
  }

  #write<R>(fn: (ops: Operations) => R): Promise<R> {
    return this.#grouped(ROOT_WRITE, () => fn(this.writer));
  }

  /** Runs a write in its turn, grouped with the writes queued behind it; answers after their COMMIT. */
  async #grouped<R>(holder: Holder, body: () => R | Promise<R>): Promise<R> {
    const turn = this.#exclusive(holder, () => this.#groups.run(body));
    this.#groups.queued();
    const { result, durable } = await turn;
    await durable;
    return result;
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
