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

  constructor(readonly conn: Connection) {}

  /** Called before a root read. */
  enter(): void {
    if (this.#open) return;
    // Prepared once (the connection's cache): exec() would parse the statement on every turn.
    this.conn.run('BEGIN');
    this.#open = true;
    setImmediate(() => this.end());
  }

  /**
   * SQLite's data_version as this snapshot sees it: it changes when another connection commits.
   * Read once per snapshot; the pragma starts the read transaction, so it agrees with every read.
   */
  dataVersion(): number {
    this.#dataVersion ??= this.conn.get<{ data_version: number }>('PRAGMA data_version')!.data_version;
    return this.#dataVersion;
  }

  /** Called after every commit of the writer, and before closing. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#dataVersion = undefined;
    if (this.conn.db.inTransaction) this.conn.run('COMMIT');
  }
}
