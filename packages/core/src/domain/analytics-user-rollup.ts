import { rollupMetrics } from '../schema/analytics';
import { and, eq } from '../store/filters';
import type { Doc, Store } from '../store/store';
import { periodsOf, rollupDimensions, type Metric, type RollupDimension } from './analytics-rollup';

/** The periods a user's rollups are kept by, each folded from the video rollups of the same period. */
const userRollupSources = {
  day: { videos: 'analytics_rollups', user: 'analytics_user_days' },
  month: { videos: 'analytics_month_rollups', user: 'analytics_user_months' },
} as const;
export type UserPeriod = keyof typeof userRollupSources;

/** A user's videos summed over one period for one value of one dimension, and how many video rows that was. */
export type UserRollupRecord = {
  id: string;
  user_id: string;
  dimension: RollupDimension;
  value: string | null;
  /** Day rows only: the day and its ISO week's Monday. */
  day?: string;
  week?: string;
  month: string;
  year: string;
  rows: number;
} & Record<Metric, number>;

/**
 * Sums a user's day or month (`start`) again from its video rollups and replaces its user rows:
 * like a video's, folding it again gives the same rows. One dimension at a time, so each read is
 * one range of the video rows' `(user_id, dimension, period)` index. A value's `rows` is counted
 * by value; a null value's is what the dimension's count leaves (counts by value skip nulls).
 */
export async function foldUserPeriod(store: Store, userId: string, period: UserPeriod, start: string): Promise<void> {
  const { videos, user } = userRollupSources[period];
  const { day, week, month, year } = periodsOf(start);
  const periods = period === 'day' ? { day, week, month, year } : { month, year };
  await store.transaction(async (tx) => {
    const rows: Omit<UserRollupRecord, 'id'>[] = [];
    for (const dimension of rollupDimensions) {
      const where = and(eq('user_id', userId), eq('dimension', dimension), eq(period, start));
      const [sums, counts, all] = await Promise.all([tx.sumBy(videos, ['value'], rollupMetrics, where), tx.countBy(videos, 'value', where), tx.count(videos, where)]);
      const nulls = all - [...counts.values()].reduce((a, b) => a + b, 0);
      for (const row of sums) {
        const value = row.value === null || row.value === undefined ? null : String(row.value);
        const metrics = Object.fromEntries(rollupMetrics.map((m) => [m, Number(row[m])])) as Record<Metric, number>;
        const count = value === null ? nulls : (counts.get(value) ?? 0);
        if (count) rows.push({ user_id: userId, dimension, value, ...periods, rows: count, ...metrics });
      }
    }
    await tx.deleteWhere(user, and(eq('user_id', userId), eq(period, start)));
    if (rows.length) await tx.insertMany<Doc>(user, rows);
  });
}

/** Folds every period of `period` the user has video rollups for (a backfill, or a bulk load's end). */
export async function foldEveryUserPeriod(store: Store, userId: string, period: UserPeriod): Promise<void> {
  const starts = await store.countBy(userRollupSources[period].videos, period, eq('user_id', userId));
  for (const start of [...starts.keys()].sort()) await foldUserPeriod(store, userId, period, start);
}
