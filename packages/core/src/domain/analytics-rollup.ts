import { rollupMetrics } from '../schema/analytics';
import type { AnalyticsEventRecord } from './analytics-events';

/** The dimensions a report groups by besides the video (which every row carries). */
export const rollupDimensions = ['total', 'embed_domain', 'device_type', 'country'] as const;
export type RollupDimension = (typeof rollupDimensions)[number];

export type Metric = (typeof rollupMetrics)[number];

/** One video's day for one value of one dimension (`total` has the value null). */
export type RollupRecord = {
  id: string;
  user_id: string;
  video_id: string;
  dimension: RollupDimension;
  value: string | null;
  day: string;
  /** The Monday of the ISO week, the first of the month and of the year the day falls in: what longer intervals group by. */
  week: string;
  month: string;
  year: string;
} & Record<Metric, number>;

/** The Monday of `day`'s ISO week, `YYYY-MM-DD`. */
export function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/** The periods a day belongs to, as rollup rows hold them. */
export const periodsOf = (day: string) => ({ day, week: weekOf(day), month: `${day.slice(0, 7)}-01`, year: `${day.slice(0, 4)}-01-01` });

/** The last day of the month that starts on `month` (`YYYY-MM-01`). */
export function monthEnd(month: string): string {
  const next = new Date(`${month}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1, 0);
  return next.toISOString().slice(0, 10);
}

/** The metrics of a group of one video-day's events: counts, distinct viewers, seconds. */
function metricsOf(events: readonly AnalyticsEventRecord[]): Record<Metric, number> {
  const viewers = (type: string) => new Set(events.filter((e) => e.type === type).map((e) => e.viewer)).size;
  const count = (type: string) => events.filter((e) => e.type === type).length;
  const views = events.filter((e) => e.type === 'view');
  return {
    views: views.length,
    impressions: count('impression'),
    unique_impressions: viewers('impression'),
    unique_viewers: viewers('view'),
    finishes: count('finish'),
    downloads: count('download'),
    time_watched: events.reduce((sum, e) => sum + (e.type === 'progress' ? e.seconds : 0), 0),
    // What the views could have watched in all: the share watched is time_watched over this.
    duration_watchable: views.reduce((sum, e) => sum + e.duration, 0),
  };
}

/**
 * The rollup rows of one video's day (its events all given): one for the total and one per value
 * of each other dimension. Pure, so folding a day again gives the same rows.
 */
export function rollupsOf(videoId: string, userId: string, day: string, events: readonly AnalyticsEventRecord[]): Omit<RollupRecord, 'id'>[] {
  const rows: Omit<RollupRecord, 'id'>[] = [];
  const periods = periodsOf(day);
  for (const dimension of rollupDimensions) {
    const groups = new Map<string | null, AnalyticsEventRecord[]>();
    for (const event of events) {
      const value = dimension === 'total' ? null : event[dimension];
      (groups.get(value) ?? groups.set(value, []).get(value)!).push(event);
    }
    for (const [value, group] of groups) rows.push({ user_id: userId, video_id: videoId, dimension, value, ...periods, ...metricsOf(group) });
  }
  return rows;
}

/** A video's month summed from its days (`analytics_month_rollups`): what a report over whole months reads. */
export type MonthRollupRecord = Omit<RollupRecord, 'day' | 'week'> & { video_number: number };

/**
 * The month rollup rows of one video's month from all of its day rollup rows: one per dimension
 * and value, the days' sums. Pure, so folding a month again gives the same rows.
 */
export function monthRollupsOf(videoId: string, month: string, days: readonly Omit<RollupRecord, 'id'>[]): Omit<MonthRollupRecord, 'id'>[] {
  const rows = new Map<string, Omit<MonthRollupRecord, 'id'>>();
  const { year } = periodsOf(month);
  for (const day of days) {
    const key = JSON.stringify([day.dimension, day.value]);
    const row = rows.get(key);
    if (row) for (const m of rollupMetrics) row[m] += day[m];
    else {
      const sums = Object.fromEntries(rollupMetrics.map((m) => [m, day[m]])) as Record<Metric, number>;
      rows.set(key, { user_id: day.user_id, video_id: videoId, video_number: Number(videoId), dimension: day.dimension, value: day.value, month, year, ...sums });
    }
  }
  return [...rows.values()];
}
