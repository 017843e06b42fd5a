import type { Doc, Filter, FindOptions, FindResult, OrderBy, Store, SumRow } from '@reelbase/core';
import type { Operations } from './operations';
import type { UndoJournal } from './undo-journal';

/** One synchronous operation, given the journal its writes are recorded in. */
export type Step<R> = (journal: UndoJournal) => R;

/** Where a handle's operations run: the root store (locked, persisted) or an open transaction. */
export interface Scope {
  run<R>(step: Step<R>): Promise<R>;
  transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/** The Store interface over Operations; the same class serves the root store and `tx` handles. */
export class JsonStoreHandle implements Store {
  constructor(
    private readonly ops: Operations,
    private readonly scope: Scope,
  ) {}

  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    return this.scope.run(() => this.ops.get(collection, id) as T | null);
  }

  insert<T extends Doc = Doc>(collection: string, doc: Omit<T, 'id'> & { id?: string }): Promise<T> {
    return this.scope.run((journal) => this.ops.insert(collection, doc, journal) as T);
  }

  insertMany<T extends Doc = Doc>(collection: string, docs: readonly (Omit<T, 'id'> & { id?: string })[]): Promise<string[]> {
    return this.scope.run((journal) => this.ops.insertMany(collection, docs, journal));
  }

  update<T extends Doc = Doc>(collection: string, id: string, patch: Partial<Omit<T, 'id'>>): Promise<T | null> {
    return this.scope.run((journal) => this.ops.update(collection, id, patch, journal) as T | null);
  }

  delete(collection: string, id: string): Promise<boolean> {
    return this.scope.run((journal) => this.ops.delete(collection, id, journal));
  }

  find<T extends Doc = Doc>(collection: string, options?: FindOptions): Promise<FindResult<T>> {
    return this.scope.run(() => this.ops.find(collection, options) as FindResult<T>);
  }

  findOne<T extends Doc = Doc>(collection: string, where: Filter, orderBy?: OrderBy[]): Promise<T | null> {
    return this.scope.run(() => this.ops.findOne(collection, where, orderBy) as T | null);
  }

  count(collection: string, where?: Filter): Promise<number> {
    return this.scope.run(() => this.ops.count(collection, where));
  }

  countBy(collection: string, field: string, where?: Filter, distinct?: string): Promise<Map<string, number>> {
    return this.scope.run(() => this.ops.countBy(collection, field, where, distinct));
  }

  sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): Promise<SumRow[]> {
    return this.scope.run(() => this.ops.sumBy(collection, by, sums, where));
  }

  deleteWhere(collection: string, where: Filter): Promise<number> {
    return this.scope.run((journal) => this.ops.deleteWhere(collection, where, journal));
  }

  increment<T extends Doc = Doc>(collection: string, id: string, field: string, by: number): Promise<T | null> {
    return this.scope.run((journal) => this.ops.increment(collection, id, field, by, journal) as T | null);
  }

  insertWithId<T extends Doc = Doc>(collection: string, doc: T): Promise<T> {
    return this.scope.run((journal) => this.ops.insertWithId(collection, doc, journal) as T);
  }

  sequence(collection: string): Promise<number> {
    return this.scope.run(() => this.ops.sequence(collection));
  }

  setSequence(collection: string, value: number): Promise<void> {
    return this.scope.run((journal) => this.ops.setSequence(collection, value, journal));
  }

  transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    return this.scope.transaction(fn);
  }

  close(): Promise<void> {
    return this.scope.close();
  }
}
