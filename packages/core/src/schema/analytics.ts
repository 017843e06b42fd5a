import type { CollectionSchema, Schema } from '../store/schema-types';

/** The metrics a rollup row sums (domain/analytics-rollup.ts), none of them filtered on. */
export const rollupMetrics = ['views', 'impressions', 'unique_impressions', 'unique_viewers', 'finishes', 'downloads', 'time_watched', 'duration_watchable'] as const;

/** What a report reads of a rollup row besides its keys and periods: its video, value, year and sums. */
const covering = ['video_id', 'value', 'year', ...rollupMetrics];

/** A user's rollups over periods of `periods` (and months and years), a row per dimension, value and period. */
function userRollups(periods: Record<string, 'string'>): CollectionSchema {
  const fields = { user_id: 'string', dimension: 'string', value: 'string', ...periods, month: 'string', year: 'string', rows: 'integer', ...Object.fromEntries(rollupMetrics.map((metric) => [metric, 'number'])) } as const;
  // Few rows a user (a period's values): the one index finds them, none other is worth keeping.
  return { id: 'auto', fields, indexes: [['user_id', 'dimension', Object.keys(periods)[0] ?? 'month']], unindexed: Object.keys(fields) };
}

/**
 * Analytics (issue 49, docs/embedding.md "Analytics"): the player's beacons land in
 * `analytics_events`, an append-only log kept a few weeks; a job folds each video's day of them
 * into `analytics_rollups`, one row per video, day and dimension value, which reports sum.
 */
export const analyticsCollections: Schema = {
  analytics_events: {
    id: 'auto',
    // The fold finds the video-days new events touched by `created_time`, reads a video-day by
    // (video_id, day), and retention drops whole days.
    fields: { video_id: 'string', day: 'string', created_time: 'string' },
    indexes: [['video_id', 'day'], ['created_time'], ['day']],
  },
  analytics_rollups: {
    id: 'auto',
    fields: {
      user_id: 'string',
      video_id: 'string',
      dimension: 'string',
      value: 'string',
      day: 'string',
      week: 'string',
      month: 'string',
      year: 'string',
      ...Object.fromEntries(rollupMetrics.map((metric) => [metric, 'number' as const])),
    },
    // A report reads one user's rows of one dimension over a range of days, every field it sums or
    // groups by from the index alone (`covering`): read from the table, rows folded video by video
    // lie a page apart, and a report over ten thousand videos waited on a disk read for each. A
    // fold replaces a video-day.
    indexes: [['user_id', 'dimension', 'day', 'week', 'month', ...covering], ['video_id', 'day']],
    unindexed: ['dimension', 'value', 'week', 'month', 'year', ...rollupMetrics],
  },
  /**
   * The day rollups of each video's month summed (domain/analytics-rollup-job.ts `foldMonth`),
   * refolded with its days: a report over whole months reads a row per video and month, not one
   * per day. A report by video and month pages them in index order (month, then the video's id
   * as a number), and counts them from the index alone.
   */
  analytics_month_rollups: {
    id: 'auto',
    fields: {
      user_id: 'string',
      video_id: 'string',
      /** The video's id as a number: reports list videos in numeric id order. */
      video_number: 'integer',
      dimension: 'string',
      value: 'string',
      month: 'string',
      year: 'string',
      ...Object.fromEntries(rollupMetrics.map((metric) => [metric, 'number' as const])),
    },
    // The page's order, and its total counted from this narrow index (fewer pages to read than
    // the covering one); sums over months from the covering one, as the day rollups'.
    indexes: [['user_id', 'dimension', 'month', 'video_number', 'id'], ['user_id', 'dimension', 'month', ...covering], ['video_id', 'month']],
    unindexed: ['video_number', 'dimension', 'value', 'month', 'year', ...rollupMetrics],
  },
  /**
   * A user's videos summed by day and by month (domain/analytics-user-rollup.ts), refolded from
   * the video rows of each day and month a fold touched: a report not by video, or a by-video
   * report's total, reads a row per period and value, not one per video. `rows` is how many video
   * rows were summed: a by-video report's rows in that period.
   */
  analytics_user_days: userRollups({ day: 'string', week: 'string' }),
  analytics_user_months: userRollups({}),
  /** Where folding got to (`fold`: the time of the last fold's start). */
  analytics_folds: {
    id: 'text',
    fields: { created_time: 'string' },
  },
};
