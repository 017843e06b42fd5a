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
  #dataVersion = 0;
  #writerVersion: number | undefined;
  #foreign = false;

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
    // The writer's version is read before the snapshot starts (the reader's pragma starts it): a
    // commit of another process seen by neither is seen at the next turn's check, never missed.
    const writer = version(this.writer);
    if (this.#writerVersion !== undefined && writer !== this.#writerVersion) this.#foreign = true;
    this.#writerVersion = writer;
    this.#dataVersion = version(this.conn);
    setImmediate(() => this.end());
  }

  /** SQLite's data_version as this snapshot sees it: it changes when another connection commits. */
  dataVersion(): number {
    return this.#dataVersion;
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
