import type { QueryResultRow } from 'pg';

/** What runs a statement: the pool (a connection per statement) or the connection of one transaction. */
export interface Executor {
  query<R extends QueryResultRow>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
  /**
   * Runs `fn` with reads that all see one snapshot: in a read-only REPEATABLE READ transaction of
   * its own on the pool, in the transaction itself inside one.
   */
  snapshot<R>(fn: (db: Executor) => Promise<R>): Promise<R>;
  /** A transaction's sequence changes; undefined outside a transaction. */
  readonly sequences?: ReadonlyMap<string, number>;
}

/** Where writes run: one transaction. */
export interface TransactionExecutor extends Executor {
  /** Runs a statement that may fail (a unique violation) in a savepoint, so that its failure leaves the transaction usable. */
  contained<R>(fn: () => Promise<R>): Promise<R>;
  /**
   * The last id of each sequence this transaction set (setSequence, insertWithId), by sequence.
   * PostgreSQL sequences ignore rollbacks, so they are written only once the transaction commits;
   * until then the transaction hands out ids above them itself.
   */
  readonly sequences: Map<string, number>;
}

/** A row as read back: the id (int8 arrives as a string) and the parsed JSON document. */
export interface Row {
  id: string;
  doc: Record<string, unknown>;
}

/** The SQLSTATEs a transaction is retried on: serialization_failure and deadlock_detected. */
export const RETRYABLE_CODES: readonly string[] = ['40001', '40P01'];

export const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export const isRetryable = (error: unknown): boolean => RETRYABLE_CODES.includes(sqlState(error) ?? '');
