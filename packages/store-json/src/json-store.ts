import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ScopeStorage, type Mirror, type Schema, type Store } from '@reelbase/core';
import { Low, Memory } from 'lowdb';
import { DurableFileAdapter } from './durable-file-adapter';
import type { FieldReader } from './evaluate-filter';
import { GroupCommit } from './group-commit';
import { Mutex } from './mutex';
import { Operations } from './operations';
import { JsonStoreHandle, type Scope, type Step } from './store-handle';
import { Table, type CollectionData } from './table';
import { UndoJournal } from './undo-journal';

/** The file layout. Collections the schema no longer names are kept as they are. */
export interface JsonData {
  version: 1;
  collections: Record<string, CollectionData>;
}

export interface JsonStoreOptions {
  schema: Schema;
  /** The JSON file; absent keeps everything in memory (tests, embedding). */
  path?: string;
}

/**
 * Opens a lowdb-backed store: in memory, or a JSON file rewritten durably after committed writes
 * (those committed while a write is in flight share the next one).
 */
export async function openJsonStore(options: JsonStoreOptions): Promise<Store> {
  if (options.path === undefined) return createJsonStore(new Low<JsonData>(new Memory<JsonData>(), emptyData()), options.schema);
  const path = resolve(options.path);
  await mkdir(dirname(path), { recursive: true });
  return createJsonStore(new Low<JsonData>(new DurableFileAdapter<JsonData>(path), emptyData()), options.schema);
}

/** Builds a store over any lowdb instance (tests inject adapters that count or fail writes). */
export async function createJsonStore(db: Low<JsonData>, schema: Schema): Promise<Store> {
  await db.read();
  if (db.data?.version !== 1 || typeof db.data.collections !== 'object') {
    throw new Error(`not a reelbase JSON store (expected version 1, found ${String(db.data?.version)})`);
  }
  const tables = new Map<string, Table>();
  for (const [name, collection] of Object.entries(schema)) {
    tables.set(name, new Table(name, collection, (db.data.collections[name] ??= { seq: 0, rows: [] })));
  }
  for (const [name, { mirror }] of Object.entries(schema)) if (mirror) tables.get(name)!.read = mirrorReader(mirror, tables);
  const ops = new Operations(tables);
  return new JsonStoreHandle(ops, new RootScope(db, ops));
}

const emptyData = (): JsonData => ({ version: 1, collections: {} });

/** Mirrored fields are read through from the source document at query time: nothing to keep in step. */
function mirrorReader(mirror: Mirror, tables: ReadonlyMap<string, Table>): FieldReader {
  const source = tables.get(mirror.collection);
  if (!source) throw new Error(`mirror names unknown collection ${mirror.collection}`);
  return (doc, field) => {
    const from = mirror.fields[field];
    if (from === undefined) return doc[field] ?? null;
    const key = doc[mirror.key];
    return typeof key === 'string' ? (source.get(key)?.[from] ?? null) : null;
  };
}

/**
 * The root store: one operation or transaction at a time (a FIFO mutex), each applied in memory,
 * then acknowledged once a file write holds it (group commit), or undone entirely when it or that
 * write fails.
 */
class RootScope implements Scope {
  readonly #mutex = new Mutex();
  readonly #commits: GroupCommit;
  /** The transaction whose callback is running, to fail fast instead of deadlocking on the mutex. */
  readonly #current = new ScopeStorage<TransactionScope>();
  #closed = false;

  constructor(
    db: Low<JsonData>,
    private readonly ops: Operations,
  ) {
    this.#commits = new GroupCommit(this.#mutex, () => db.adapter.write(db.data));
  }

  run<R>(step: Step<R>): Promise<R> {
    return this.#exclusive(async (journal) => step(journal));
  }

  transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    return this.#exclusive(async (journal) => {
      const scope = new TransactionScope(this.ops, journal);
      try {
        return await this.#current.run(scope, () => fn(new JsonStoreHandle(this.ops, scope)));
      } finally {
        scope.end();
      }
    });
  }

  /** Lets queued operations and pending writes finish (a failed write has failed its writers already). */
  async close(): Promise<void> {
    if (this.#current.getStore()?.open) throw new Error('cannot close a store from inside its own transaction');
    // Wrapped: a promise returned to the mutex would hold it until settled, and the write needs it.
    const pending = await this.#mutex.run(() => {
      this.#closed = true;
      return { durable: this.#commits.durable() };
    });
    await pending.durable?.catch(() => undefined);
  }

  async #exclusive<R>(body: (journal: UndoJournal) => Promise<R>): Promise<R> {
    if (this.#current.getStore()?.open) {
      throw new Error('the root store was used inside its own transaction; use the `tx` handle (this would deadlock)');
    }
    const { result, durable } = await this.#mutex.run(async () => {
      if (this.#closed) throw new Error('store is closed');
      const journal = new UndoJournal();
      try {
        const result = await body(journal);
        if (journal.size > 0) this.#commits.committed(journal);
        return { result, durable: this.#commits.durable() };
      } catch (error) {
        journal.rollbackTo(0);
        throw error;
      }
    });
    await durable;
    return result;
  }
}

/** The `tx` handle's scope: writes go straight to the tables, recorded in the transaction's journal. */
class TransactionScope implements Scope {
  #open = true;

  constructor(
    private readonly ops: Operations,
    private readonly journal: UndoJournal,
  ) {}

  get open(): boolean {
    return this.#open;
  }

  end(): void {
    this.#open = false;
  }

  async run<R>(step: Step<R>): Promise<R> {
    this.#assertOpen();
    return step(this.journal);
  }

  /** A nested transaction is a savepoint: its failure undoes only its own writes. */
  async transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    this.#assertOpen();
    const mark = this.journal.mark();
    try {
      return await fn(new JsonStoreHandle(this.ops, this));
    } catch (error) {
      this.journal.rollbackTo(mark);
      throw error;
    }
  }

  async close(): Promise<void> {
    throw new Error('a transaction handle cannot be closed; close the root store');
  }

  #assertOpen(): void {
    if (!this.#open) throw new Error('transaction already finished; its handle can no longer be used');
  }
}
