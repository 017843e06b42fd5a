import { availableParallelism } from 'node:os';
import type { Connection } from './sqlite-connection';

/**
 * Runs `fn`, which creates indexes over tables that may hold millions of rows, with the settings
 * that halve such a build. SQLite's sorter cuts its input into runs of the page cache's size: runs
 * of a few MiB sort within the CPU caches, and worker threads (`threads`) sort them side by side,
 * where one run of a 256 MiB cache is sorted on one core out of memory. The runs go to temporary
 * files: the in-memory temporary store connect() sets (for statement journals) made the same build
 * more than twice as slow. Every setting is restored after.
 */
export function withIndexSorting<T>(conn: Connection, fn: () => T): T {
  const cache = conn.db.pragma('cache_size', { simple: true }) as number;
  const temp = conn.db.pragma('temp_store', { simple: true }) as number;
  conn.db.pragma('cache_size = -8192');
  conn.db.pragma('temp_store = FILE');
  conn.db.pragma(`threads = ${Math.min(8, availableParallelism())}`);
  try {
    return fn();
  } finally {
    conn.db.pragma('threads = 0');
    conn.db.pragma(`temp_store = ${temp}`);
    conn.db.pragma(`cache_size = ${cache}`);
  }
}
