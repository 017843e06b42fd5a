import { rateQuota, rateReset, rateWindow, type RateLimit, type RateLimiter } from '@reelbase/core';
import type { Pool } from 'pg';

/** The driver's own table (no collection): one row per caller key and fixed window, holding its request count. */
export const RATE_TABLE = 'rb_rate_windows';

export const createRateTable = `CREATE TABLE IF NOT EXISTS ${RATE_TABLE} (key text COLLATE "C" NOT NULL, window_number bigint NOT NULL, count integer NOT NULL, PRIMARY KEY (key, window_number))`;

const count = `INSERT INTO ${RATE_TABLE} AS r (key, window_number, count) VALUES ($1, $2, 1)
  ON CONFLICT (key, window_number) DO UPDATE SET count = r.count + 1 RETURNING count`;

/**
 * The request limiter every server on the database shares: each request is one atomic upsert that
 * answers the key's count in the current window, run on its own pooled connection outside any
 * transaction, so it never conflicts with a request's serializable work. The first request each
 * process sees in a new window deletes the earlier windows' rows, so the table holds about one
 * window of callers.
 */
export function pgRateLimiter(pool: Pool, limit: RateLimit): RateLimiter {
  let pruned = Number.NEGATIVE_INFINITY;
  return {
    async take(key, now) {
      const window = rateWindow(now, limit.windowSeconds);
      if (window > pruned) {
        pruned = window;
        await pool.query(`DELETE FROM ${RATE_TABLE} WHERE window_number < $1`, [window]);
      }
      const { rows } = await pool.query<{ count: number }>(count, [key, window]);
      return rateQuota(limit, rateReset(window, limit.windowSeconds), rows[0].count);
    },
  };
}
