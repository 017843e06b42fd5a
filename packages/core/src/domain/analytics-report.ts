import { invalidField } from '../engine/errors';
import { rollupMetrics } from '../schema/analytics';
import { and, eq, gte, isIn, lte } from '../store/filters';
import type { Doc, Filter, Store, SumRow } from '../store/store';
import { monthEnd, periodsOf, type Metric, type RollupDimension } from './analytics-rollup';

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
  if (interval === 'month') return monthEnd(start);
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

/**
 * Where a report's days are summed from: day rollups, or month rollups for whole months (which
 * `day` and `week` cannot use); a user's rollups (a row per period and value) unless the report
 * is by video or of some videos only.
 */
interface Span {
  collection: 'analytics_rollups' | 'analytics_month_rollups' | 'analytics_user_days' | 'analytics_user_months';
  /** The field the span's bounds compare with, and its bounds (both included). */
  field: 'day' | 'month';
  from: string;
  to: string;
}

/**
 * The report's days as spans: the whole months from month rollups, the days before and after
 * them from day rollups; the user's own rows where `users` (they have been folded) allows.
 */
function spansOf(q: ReportQuery, users: boolean): Span[] {
  const videos = q.dimension === 'video' || q.videoIds !== undefined || !users;
  const days = (from: string, to: string): Span => ({ collection: videos ? 'analytics_rollups' : 'analytics_user_days', field: 'day', from, to });
  const firstMonth = q.from.endsWith('-01') ? q.from : addDays(monthEnd(periodsOf(q.from).month), 1);
  const toMonth = periodsOf(q.to).month;
  const lastMonth = q.to === monthEnd(toMonth) ? toMonth : periodsOf(addDays(toMonth, -1)).month;
  if (q.interval === 'day' || q.interval === 'week' || lastMonth < firstMonth) return [days(q.from, q.to)];
  return [
    ...(q.from < firstMonth ? [days(q.from, addDays(firstMonth, -1))] : []),
    { collection: videos ? 'analytics_month_rollups' : 'analytics_user_months', field: 'month', from: firstMonth, to: lastMonth },
    ...(q.to > monthEnd(lastMonth) ? [days(addDays(monthEnd(lastMonth), 1), q.to)] : []),
  ];
}

/** The filter of a span's rollup rows: the user's, of the dimension, in the span, of the videos and values asked for. */
function spanFilter(q: ReportQuery, span: Span, dimension: RollupDimension): Filter {
  const values = dimension === 'total' ? undefined : q.filters[dimension];
  return and(
    eq('user_id', q.userId),
    eq('dimension', dimension),
    gte(span.field, span.from),
    lte(span.field, span.to),
    q.videoIds ? isIn('video_id', q.videoIds) : undefined,
    values?.length ? isIn('value', values) : undefined,
  );
}

/** A report row from rollup sums (or a month rollup row) grouped by the query's period and value. */
function reportRow(q: ReportQuery, row: SumRow): ReportRow {
  const start = q.interval === 'none' ? q.from : String(row[q.interval]);
  const end = q.interval === 'none' ? q.to : periodEnd(q.interval, start);
  const value = q.dimension === 'video' ? row.video_id : q.dimension === 'total' ? null : row.value;
  return {
    start_date: start < q.from ? q.from : start,
    end_date: end > q.to ? q.to : end,
    value: value === null || value === undefined ? null : String(value),
    sums: Object.fromEntries(rollupMetrics.map((m) => [m, Number(row[m])])) as Record<Metric, number>,
  };
}

/** The report's rows, one per period and value, summed by the store from the rollups of each span; unsorted. */
async function analyticsReport(store: Store, q: ReportQuery, users: boolean): Promise<ReportRow[]> {
  const dimension = rollupDimension(q);
  const by = [
    ...(q.interval === 'none' ? [] : [q.interval]),
    ...(q.dimension === 'video' ? ['video_id'] : q.dimension === 'total' ? [] : ['value']),
  ];
  // A period and value spanning two spans (a year, or the whole report) adds up their sums.
  const groups = new Map<string, SumRow>();
  for (const span of spansOf(q, users)) {
    for (const row of await store.sumBy(span.collection, by, rollupMetrics, spanFilter(q, span, dimension))) {
      const key = JSON.stringify(by.map((field) => row[field]));
      const known = groups.get(key);
      if (!known) groups.set(key, row);
      else for (const m of rollupMetrics) known[m] = Number(known[m]) + Number(row[m]);
    }
  }
  // Ungrouped sums answer one row even over nothing: a report over nothing has no rows.
  return [...groups.values()].filter((row) => by.length || rollupMetrics.some((m) => Number(row[m]))).map((row) => reportRow(q, row));
}

/** How a report is ordered: by date (then value), or by a metric, largest first unless asked otherwise. */
export const reportSorts = ['date', 'views', 'impressions', 'unique_impressions', 'unique_viewers', 'finishes', 'downloads', 'total_time_watched', 'average_time_watched', 'average_percent_watched'] as const;
export type ReportSort = (typeof reportSorts)[number];

const derived: Partial<Record<ReportSort, (s: ReportRow['sums']) => number>> = {
  total_time_watched: (s) => s.time_watched,
  average_time_watched: (s) => (s.views ? s.time_watched / s.views : 0),
  average_percent_watched: (s) => (s.duration_watchable ? s.time_watched / s.duration_watchable : 0),
};

/** Values in numeric order where they are numbers (video ids); one collator, as `localeCompare` with options makes one a call. */
const valueOrder = new Intl.Collator('en', { numeric: true });

/** Date order (then the dimension's value) unless a metric is asked for, largest first by default. */
function sortRows(rows: ReportRow[], sort: ReportSort, direction: 'asc' | 'desc' | undefined): ReportRow[] {
  const sign = (direction ?? (sort === 'date' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  const metric = sort === 'date' ? null : (derived[sort] ?? ((s: ReportRow['sums']) => s[sort as Metric]));
  const byDate = (a: ReportRow, b: ReportRow) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : valueOrder.compare(a.value ?? '', b.value ?? ''));
  return rows.sort((a, b) => (metric ? sign * (metric(a.sums) - metric(b.sums)) || byDate(a, b) : sign * byDate(a, b)));
}

export interface ReportOrder {
  sort: ReportSort;
  direction?: 'asc' | 'desc';
}

/** A page of a report and how many rows it has in all. */
export interface ReportPage {
  total: number;
  rows: ReportRow[];
}

/**
 * By video and month in date order, each month rollup row of the total is a report row: the
 * store pages them in the index's order, and the user's month rows count them, however many
 * videos (10,000 videos over a year is 120,000 rows). The partial months at the edges, a period
 * each, come before and after them (edgeOf). Null for any other report or one with no whole month.
 */
async function videoMonthsPage(store: Store, q: ReportQuery, users: boolean, order: ReportOrder, page: { offset: number; limit: number }): Promise<ReportPage | null> {
  const spans = spansOf(q, users);
  const months = spans.find((span) => span.field === 'month');
  if (!months || q.dimension !== 'video' || q.interval !== 'month' || order.sort !== 'date' || rollupDimension(q) !== 'total') return null;
  const direction = order.direction ?? 'asc';
  const edge = (span: Span) => edgeOf(store, q, span === months ? undefined : span, direction);
  const [before, after] = await Promise.all([edge(spans[0]), edge(spans[spans.length - 1])]);
  const [first, last] = direction === 'asc' ? [before, after] : [after, before];
  // The page's rows from the edge that comes first, then whole months, then the other edge.
  const wanted = Math.max(0, page.offset + page.limit - Math.max(first.videos, page.offset));
  const where = spanFilter(q, months, 'total');
  const orderBy = [{ field: 'month', direction }, { field: 'video_number', direction }] as const;
  const [firstRows, items, total] = await Promise.all([
    first.rows(page.offset, page.limit),
    wanted ? store.find<Doc & SumRow>(months.collection, { where, orderBy: [...orderBy], offset: Math.max(0, page.offset - first.videos), limit: wanted, countTotal: false }).then((found) => found.items) : [],
    wholeMonthRows(store, q, months, users),
  ]);
  const rows = [...firstRows, ...items.map((row) => reportRow(q, row))];
  rows.push(...(await last.rows(Math.max(0, page.offset - first.videos - total), page.limit - rows.length)));
  return { total: first.videos + total + last.videos, rows };
}

/** A partial month at an edge of a by-video report: a row per video it has days of, in video order. */
interface Edge {
  videos: number;
  rows(offset: number, limit: number): Promise<ReportRow[]>;
}

/**
 * The edge's videos are counted by the store and ordered here (ids, not sums); only the page's
 * videos' days are summed. Summing every video's days for each page, then sorting their rows,
 * cost 98 ms a page at 10,000 videos (SQLite, idle).
 */
async function edgeOf(store: Store, q: ReportQuery, span: Span | undefined, direction: 'asc' | 'desc'): Promise<Edge> {
  if (!span) return { videos: 0, rows: async () => [] };
  const where = spanFilter(q, span, 'total');
  const sign = direction === 'asc' ? 1 : -1;
  const videos = [...(await store.countBy(span.collection, 'video_id', where)).keys()].sort((a, b) => sign * (Number(a) - Number(b)));
  return {
    videos: videos.length,
    async rows(offset, limit) {
      const ids = videos.slice(offset, offset + Math.max(0, limit));
      if (!ids.length) return [];
      const sums = await store.sumBy(span.collection, ['month', 'video_id'], rollupMetrics, and(where, isIn('video_id', ids)));
      return sortRows(sums.map((row) => reportRow(q, row)), 'date', direction);
    },
  };
}

/**
 * How many video×month rows the whole months of a by-video report have: the sum of the user's
 * month rows' `rows`, a read per month (counting the video rows took a read per video), or, for
 * some videos only or before the user's rows are folded, the video rows counted.
 */
async function wholeMonthRows(store: Store, q: ReportQuery, months: Span, users: boolean): Promise<number> {
  if (q.videoIds || !users) return store.count(months.collection, spanFilter(q, months, 'total'));
  const [sum] = await store.sumBy('analytics_user_months', [], ['rows'], spanFilter(q, { ...months, collection: 'analytics_user_months' }, 'total'));
  return Number(sum.rows);
}

/** One page of a report in the order asked for. */
export async function analyticsPage(store: Store, q: ReportQuery, order: ReportOrder, page: { offset: number; limit: number }): Promise<ReportPage> {
  // Until the first fold since user rollups came (its `users` mark), reports read their videos' rows.
  const users = (await store.get('analytics_folds', 'users')) !== null;
  const paged = await videoMonthsPage(store, q, users, order, page);
  if (paged) return paged;
  const rows = sortRows(await analyticsReport(store, q, users), order.sort, order.direction);
  return { total: rows.length, rows: rows.slice(page.offset, page.offset + page.limit) };
}
