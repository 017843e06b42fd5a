import { invalidField } from '../engine/errors';
import { rollupMetrics } from '../schema/analytics';
import { and, eq, gte, isIn, lte } from '../store/filters';
import type { Store, SumRow } from '../store/store';
import type { Metric, RollupDimension } from './analytics-rollup';

/** What a report groups by (the hosted API's `dimension`). */
export const reportDimensions = ['total', 'video', 'embed_domain', 'device_type', 'country'] as const;
export type ReportDimension = (typeof reportDimensions)[number];
export const timeIntervals = ['day', 'week', 'month', 'year', 'none'] as const;
export type TimeInterval = (typeof timeIntervals)[number];

/** The dimensions a report may be filtered by besides its videos, with the parameter naming each. */
const filterParams = { embed_domain: 'filter_embed_domains', device_type: 'filter_device_types', country: 'filter_countries' } as const;
type FilterDimension = keyof typeof filterParams;

export interface ReportQuery {
  userId: string;
  /** Days, `YYYY-MM-DD`, both included. */
  from: string;
  to: string;
  dimension: ReportDimension;
  interval: TimeInterval;
  videoIds?: readonly string[];
  filters: Partial<Record<FilterDimension, readonly string[]>>;
}

/** One row of a report: its dates, its dimension's value (a video id for `video`), its sums. */
export interface ReportRow {
  start_date: string;
  end_date: string;
  value: string | null;
  sums: Record<Metric, number>;
}

const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86400_000).toISOString().slice(0, 10);

/** The last day of the period that starts on `start`. */
function periodEnd(interval: TimeInterval, start: string): string {
  if (interval === 'week') return addDays(start, 6);
  if (interval === 'month') {
    const next = new Date(`${start}T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    return addDays(next.toISOString().slice(0, 10), -1);
  }
  if (interval === 'year') return `${start.slice(0, 4)}-12-31`;
  return start;
}

/**
 * The rollup dimension whose rows answer the query. Rollups hold each dimension apart (a video's
 * day by domain, by device, by country), so a report filtered by one dimension is grouped by that
 * one or by none but videos: a filter on another dimension is refused, naming its parameter.
 */
function rollupDimension(q: ReportQuery): RollupDimension {
  const filtered = (Object.keys(filterParams) as FilterDimension[]).filter((d) => q.filters[d]?.length);
  const grouped = q.dimension === 'total' || q.dimension === 'video' ? null : q.dimension;
  const chosen = grouped ?? filtered[0] ?? 'total';
  const other = filtered.find((d) => d !== chosen);
  if (other) {
    throw invalidField(
      filterParams[other],
      grouped ? `cannot narrow a report by ${grouped}: filter by ${grouped} alone, or use dimension ${other}` : `cannot be combined with ${filterParams[chosen as FilterDimension]}: filter by one of them`,
    );
  }
  return chosen;
}

/** The report's rows, one per period and value, summed by the store from the rollups; unsorted. */
export async function analyticsReport(store: Store, q: ReportQuery): Promise<ReportRow[]> {
  const dimension = rollupDimension(q);
  const values = dimension === 'total' ? undefined : q.filters[dimension];
  const by = [
    ...(q.interval === 'none' ? [] : [q.interval]),
    ...(q.dimension === 'video' ? ['video_id'] : q.dimension === 'total' ? [] : ['value']),
  ];
  const where = and(
    eq('user_id', q.userId),
    eq('dimension', dimension),
    gte('day', q.from),
    lte('day', q.to),
    q.videoIds ? isIn('video_id', q.videoIds) : undefined,
    values?.length ? isIn('value', values) : undefined,
  );
  const rows = await store.sumBy('analytics_rollups', by, rollupMetrics, where);
  // Ungrouped sums answer one row even over nothing: a report over nothing has no rows.
  return rows
    .filter((row) => by.length || rollupMetrics.some((m) => Number(row[m])))
    .map((row: SumRow) => {
      const start = q.interval === 'none' ? q.from : String(row[q.interval]);
      const end = q.interval === 'none' ? q.to : periodEnd(q.interval, start);
      const value = q.dimension === 'video' ? row.video_id : q.dimension === 'total' ? null : row.value;
      return {
        start_date: start < q.from ? q.from : start,
        end_date: end > q.to ? q.to : end,
        value: value === null || value === undefined ? null : String(value),
        sums: Object.fromEntries(rollupMetrics.map((m) => [m, Number(row[m])])) as Record<Metric, number>,
      };
    });
}
