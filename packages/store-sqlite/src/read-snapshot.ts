import type { Connection } from './sqlite-connection';

/**
 * Root reads on the read-only connection share one read transaction per turn of the event loop.
 * Outside a transaction every statement takes and drops the WAL read lock (file-lock system calls
 * that cost most of a point read); inside one, a read costs a fraction of that. The snapshot ends
 * with the turn, and at once when this process commits a write, so a read never sees less than
 * what this process had written before it; another process's commit shows from the next turn.
 */
export class ReadSnapshot {
  #open = false;
  #dataVersion: number | undefined;
  #writerVersion: number | undefined;
  #foreign = false;
  /** A foreign commit was seen: the next change the reader sees counts as foreign too (enter says why). */
  #recheck = false;

  constructor(
    readonly conn: Connection,
    /** This process's writer connection: its data_version changes only with another process's commits. */
    private readonly writer: Connection,
  ) {}

  /** Called before a root read. */
  enter(): void {
    if (this.#open) return;
    // Prepared once (the connection's cache): exec() would parse the statement on every turn.
    this.conn.run('BEGIN');
    this.#open = true;
    // The reader's pragma starts the snapshot. Unchanged, nobody committed: the writer's version
    // (which only another process's commits change) is asked only when the reader's changed.
    const reader = version(this.conn);
    if (reader !== this.#dataVersion) {
      const writer = version(this.writer);
      const foreign = this.#writerVersion !== undefined && writer !== this.#writerVersion;
      // A foreign commit made after this snapshot started and before the writer was asked is not in
      // this snapshot, so what is read now may miss it: the next change seen clears again.
      if (foreign || this.#recheck) this.#foreign = true;
      this.#recheck = foreign;
      this.#writerVersion = writer;
      this.#dataVersion = reader;
    }
    setImmediate(() => this.end());
  }

  /** SQLite's data_version as this snapshot sees it: it changes when another connection commits. */
  dataVersion(): number {
    return this.#dataVersion!;
  }

  /** Whether another process committed since the last call (this process's commits are OwnWrites'). */
  takeForeign(): boolean {
    const foreign = this.#foreign;
    this.#foreign = false;
    return foreign;
  }

  /** Called after every commit of the writer, and before closing. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    if (this.conn.db.inTransaction) this.conn.run('COMMIT');
  }
}

const version = (conn: Connection): number => conn.get<{ data_version: number }>('PRAGMA data_version')!.data_version;
