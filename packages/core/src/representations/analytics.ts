/** One row of `GET /me/analytics` (the hosted API's analytics row): what a report's sums mean to a reader. */

export interface AnalyticsRowInput {
  start_date: string;
  end_date: string;
  /** The dimension and its value's representation (`video`: its uri and name), or none for `total`. */
  dimension?: { name: string; value: unknown };
  sums: {
    views: number;
    impressions: number;
    unique_impressions: number;
    unique_viewers: number;
    finishes: number;
    downloads: number;
    time_watched: number;
    duration_watchable: number;
  };
}

const rounded = (n: number): number => Math.round(n * 100) / 100;

export function representAnalyticsRow(row: AnalyticsRowInput): Record<string, unknown> {
  const s = row.sums;
  return {
    ...(row.dimension ? { [row.dimension.name]: row.dimension.value } : {}),
    start_date: row.start_date,
    end_date: row.end_date,
    views: s.views,
    impressions: s.impressions,
    unique_impressions: s.unique_impressions,
    unique_viewers: s.unique_viewers,
    finishes: s.finishes,
    downloads: s.downloads,
    total_time_watched: rounded(s.time_watched),
    average_time_watched: s.views ? rounded(s.time_watched / s.views) : 0,
    // Time watched over what the views could have watched, at most 100 (a viewer seeking back watches more).
    average_percent_watched: s.duration_watchable ? rounded(Math.min(100, (s.time_watched / s.duration_watchable) * 100)) : 0,
  };
}
