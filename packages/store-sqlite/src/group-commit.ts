import { performance } from 'node:perf_hooks';
import { Deferred } from '@reelbase/core';
import type { SqliteDatabase } from './sqlite-types';
import { runInLevel, savepoint, type Level } from './transaction-level';

/** How large a group may grow before it commits, so that the first write's wait stays bounded. */
export interface GroupLimits {
  /** Writes per commit (default 64). */
  maxWrites: number;
  /** Milliseconds from a group's BEGIN after which no further write joins it (default 10). */
  maxMs: number;
}

export const DEFAULT_GROUP_LIMITS: GroupLimits = { maxWrites: 64, maxMs: 10 };

/** The first write of a group owns the whole transaction: its failure rolls all of it back. */
const FIRST: Level = { rollback: ['ROLLBACK'] };
/** A write that joins a group: its failure undoes only its own savepoint. */
const JOINED = savepoint('rb_group');

/** The SQLite transaction that the writes of one group share. */
interface Group {
  readonly commit: Deferred;
  readonly startedAt: number;
  /** Writes whose bodies succeeded and wait for the COMMIT. */
  writes: number;
}

/** What a write's body answered, and the COMMIT to wait for before acknowledging it. */
export interface Committed<R> {
  result: R;
  durable: Promise<void>;
}

/**
 * Group commit on the writer connection (the SQLite counterpart of store-json's GroupCommit). The
 * store's mutex still runs writes one at a time, but when writes are queued behind the one that
 * just ran, its transaction stays open: the next write runs in a savepoint of it (a failure undoes
 * that write alone), and the last one of the group commits them all at once, one fsync for the
 * lot. No write is acknowledged before that COMMIT: each waits on `durable`, which rejects for
 * every write of the group when the COMMIT fails. A group closes once nothing is queued, or at
 * `limits`, so a write waits at most for a bounded number of later ones.
 *
 * A write body must therefore never wait for another top-level write to be acknowledged: that one
 * may be waiting for this group's COMMIT.
 */
export class GroupCommit {
  #group: Group | null = null;
  /** Writes queued on the mutex that have not started yet: the reason to keep a group open. */
  #queued = 0;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly limits: GroupLimits,
    /**
     * Runs right before every COMMIT: ends the root reads' snapshot, so that reads move past the
     * commit and no reader pins the WAL while it commits (an open read snapshot keeps the
     * checkpoint that may follow the commit from copying the newest frames, and the WAL from
     * starting over, so it would grow for as long as reads and writes overlap).
     */
    private readonly beforeCommit: () => void,
  ) {}

  /** Called when a write is queued on the mutex; its `run` must follow. */
  queued(): void {
    this.#queued++;
  }

  /** Under the mutex: runs one queued write's body in the open group, opening one when none is. */
  async run<R>(body: () => R | Promise<R>): Promise<Committed<R>> {
    this.#queued--;
    let group = this.#group;
    if (!group) {
      this.db.exec('BEGIN IMMEDIATE');
      group = this.#group = { commit: new Deferred(), startedAt: performance.now(), writes: 0 };
    }
    try {
      const result = await runInLevel(this.db, group.writes === 0 ? FIRST : JOINED, body);
      group.writes++;
      return { result, durable: group.commit.promise };
    } catch (error) {
      // A failed first write rolled the transaction back; SQLite may also have done so on its own
      // (SQLITE_FULL, SQLITE_IOERR…), taking the writes before it along.
      if (!this.db.inTransaction) this.#abandon(group, error);
      throw error;
    } finally {
      if (this.#group === group && (this.#queued === 0 || this.#full(group))) this.commit();
    }
  }

  /** Under the mutex: commits the open group, if any (before a read or close takes the mutex). */
  commit(): void {
    const group = this.#group;
    if (!group) return;
    this.#group = null;
    this.beforeCommit();
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // The failed COMMIT is the error every write of the group reports.
      }
      this.#abandon(group, error);
      return;
    }
    group.commit.resolve();
  }

  #full(group: Group): boolean {
    return group.writes >= this.limits.maxWrites || performance.now() - group.startedAt >= this.limits.maxMs;
  }

  #abandon(group: Group, error: unknown): void {
    this.#group = null;
    group.commit.reject(error);
  }
}
