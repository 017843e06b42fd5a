import type { Doc, Store } from '@reelbase/core';

/**
 * Writes a collection's batches with one insertMany in flight while the caller builds the next:
 * a store writing on another thread (SQLite's bulk load) works meanwhile. A store applies
 * insertMany calls in the order they are made (the Store contract), so ids follow the batches.
 */
export class Batches {
  #last: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly collection: string,
  ) {}

  /** Sends a batch, then waits for the one before; `written` gets the ids, in batch order. */
  async send(docs: Omit<Doc, 'id'>[], written: (ids: string[]) => void): Promise<void> {
    const before = this.#last;
    const next = Promise.all([before, this.store.insertMany(this.collection, docs)]).then(([, ids]) => written(ids));
    // Whoever waits next sees the failure; none is left unhandled when the load stops first.
    next.catch(() => undefined);
    this.#last = next;
    await before;
  }

  /** Waits for every batch sent. */
  flush(): Promise<void> {
    return this.#last;
  }
}
