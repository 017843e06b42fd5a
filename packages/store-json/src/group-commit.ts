import { Deferred } from '@reelbase/core';
import type { Mutex } from './mutex';
import type { UndoJournal } from './undo-journal';

/**
 * Group commit for a store that holds its data in memory and persists it whole. A transaction
 * commits in memory under the store's mutex and then waits, outside it, for a file write that
 * includes it: transactions that commit while a write is in flight are written together by the
 * next one, so a burst of writes costs a few file writes rather than one each, and nothing is
 * acknowledged before it is on disk. Each write snapshots the data under the mutex, so it never
 * holds half of a transaction.
 *
 * When a write fails, every transaction not yet on disk (the ones it held and those that
 * committed after it, which may build on them) is undone, newest first, and fails with its error.
 */
export class GroupCommit {
  /** Journals of the transactions committed in memory and not yet snapshotted, oldest first. */
  #unflushed: UndoJournal[] = [];
  /** The write that will hold the commits not yet snapshotted. */
  #next: Deferred | null = null;
  /** The write in progress. */
  #inFlight: Deferred | null = null;
  #writing = false;

  constructor(
    private readonly mutex: Mutex,
    /** Starts writing the whole data; it must serialise it before returning (DurableFileAdapter does). */
    private readonly persist: () => Promise<void>,
  ) {}

  /** Called under the mutex once a transaction's writes are applied in memory. */
  committed(journal: UndoJournal): void {
    this.#unflushed.push(journal);
    if (this.#next) return;
    this.#next = new Deferred();
    if (!this.#writing) void this.#writeLoop();
  }

  /**
   * Called under the mutex: settles once everything visible now is on disk (rejects when its write
   * failed and was undone); null when that is so already. Reads wait for it too, so no answer
   * shows data that a failed write then takes back.
   */
  durable(): Promise<void> | null {
    return (this.#next ?? this.#inFlight)?.promise ?? null;
  }

  async #writeLoop(): Promise<void> {
    this.#writing = true;
    while (this.#next) {
      let flush!: Deferred;
      let journals!: UndoJournal[];
      let write!: Promise<void>;
      await this.mutex.run(() => {
        flush = this.#next!;
        this.#next = null;
        this.#inFlight = flush;
        journals = this.#unflushed.splice(0);
        try {
          write = this.persist();
        } catch (error) {
          write = Promise.reject(error);
        }
      });
      try {
        await write;
      } catch (error) {
        await this.mutex.run(() => this.#undo(journals, flush, error));
        continue;
      }
      this.#inFlight = null;
      flush.resolve();
    }
    this.#writing = false;
  }

  /** Under the mutex: takes back the failed write's transactions and every later one. */
  #undo(journals: UndoJournal[], flush: Deferred, error: unknown): void {
    const undone = [...journals, ...this.#unflushed.splice(0)];
    for (let i = undone.length - 1; i >= 0; i--) undone[i].rollbackTo(0);
    const later = this.#next;
    this.#next = null;
    this.#inFlight = null;
    flush.reject(error);
    later?.reject(error);
  }
}
