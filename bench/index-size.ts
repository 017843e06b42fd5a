import Database from 'better-sqlite3';

/**
 * The bytes of a SQLite store's search indexes (the FTS5 tables `rb_search_*` and their shadow
 * tables) beside the whole file's, read with the dbstat table: issue 38 asks for the index's size.
 */
export function searchIndexSize(path: string): { search: number; file: number } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'rb\\_search\\_%' ESCAPE '\\' AND type = 'table'`).pluck().all() as string[];
    const size = db.prepare(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = ? AND aggregate = TRUE`).pluck();
    const search = names.reduce((sum, name) => sum + (size.get(name) as number), 0);
    const file = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    return { search, file };
  } finally {
    db.close();
  }
}
