import Database from 'better-sqlite3';

/** One word's count in the index alone: how many documents hold it, and the median time of a count. */
export interface FloorCount {
  word: string;
  matches: number;
  ms: number;
}

/**
 * Counts each word's matches in a SQLite store's video index alone (FTS5, no row looked up), as
 * a search of it would match it (`"word"*`): the least an exact `total` of that word can cost,
 * before its visibility is checked and its page read (docs/search.md). Median of `runs`, warm.
 */
export function videoIndexCounts(path: string, words: readonly string[], runs = 5): FloorCount[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const count = db.prepare(`SELECT count(*) FROM rb_search_videos WHERE rb_search_videos MATCH ?`).pluck();
    return words.map((word) => {
      const query = `"${word}"*`;
      let matches = 0;
      const times: number[] = [];
      for (let i = 0; i <= runs; i++) {
        const started = performance.now();
        matches = count.get(query) as number;
        // The first run reads the pages in; the rest are timed.
        if (i > 0) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      return { word, matches, ms: times[Math.floor(times.length / 2)] };
    });
  } finally {
    db.close();
  }
}
