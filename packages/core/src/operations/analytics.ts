import { array, enums, integer, max, min, number, object, optional, pattern, size, string } from 'superstruct';
import { invalidField, notFound } from '../engine/errors';
import { listReply, pageOf } from '../engine/list';
import { noContent, operation, type Context } from '../engine/operation';
import { beaconTypes, doNotTrack, recordEvent } from '../domain/analytics-events';
import { analyticsPage, reportDimensions, reportSorts, timeIntervals, type ReportRow } from '../domain/analytics-report';
import { findById } from '../domain/lookup';
import { inOrderOf } from '../domain/memberships';
import { actingUser } from '../domain/users';
import type { VideoRecord } from '../records';
import { representAnalyticsRow } from '../representations/analytics';
import { videoUri } from '../representations/video';

/**
 * Analytics (docs/embedding.md "Analytics"): the player's beacons and the creator's reports.
 *
 * The ingest is an operation-table row, not a transport route: it needs the video (its owner and
 * duration) and the play window, both core's. It stays cheap: a read of the video, the day's salt
 * (a point read) and one insert; a view also asks the play window (domain/plays.ts), as it counts
 * `stats.plays`. Folding into rollups is a job's (domain/analytics-rollup-job.ts).
 */
export const postBeacon = operation({
  id: 'videos.beacons.create',
  summary:
    "The player's analytics beacon (navigator.sendBeacon, form-encoded): `type` impression, view, progress (with `seconds` watched since the last) or finish, and `embed_domain`; 204, and nothing kept under dnt=1, DNT: 1 or Sec-GPC: 1",
  method: 'POST',
  paths: ['/videos/{video_id}/beacons'],
  params: object({
    type: enums(beaconTypes),
    seconds: optional(max(min(number(), 0), 3600)),
    embed_domain: optional(size(string(), 0, 300)),
  }),
  // Its transactions are its own: most beacons need none, and the day's salt may be made by a racing server.
  ownTransaction: true,
  async handle(ctx) {
    if (doNotTrack(ctx)) return noContent();
    const video = await findById<VideoRecord>(ctx.store, 'videos', ctx.path.video_id);
    if (!video) throw notFound('video');
    await recordEvent(ctx, video, { type: ctx.params.type, seconds: ctx.params.seconds, embedDomain: ctx.params.embed_domain });
    return noContent();
  },
});

const day = pattern(string(), /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/);
const list = optional(array(size(string(), 1, 300)));

/** A report spans at most this many days (ten years): longer ones are refused rather than summed. */
const maxReportDays = 3660;

/** `from`/`to` as days; a time given with one counts for its UTC day. */
function daysOf(ctx: Context<{ from: string; to: string }>): { from: string; to: string } {
  const [from, to] = [ctx.params.from, ctx.params.to].map((d) => new Date(d.length === 10 ? `${d}T00:00:00Z` : d));
  for (const [name, date] of [['from', from], ['to', to]] as const) if (Number.isNaN(date.getTime())) throw invalidField(name, 'is not a date (YYYY-MM-DD)');
  if (to < from) throw invalidField('to', 'is before from');
  if (to.getTime() - from.getTime() > maxReportDays * 86400_000) throw invalidField('to', `is more than ${maxReportDays} days after from`);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

/** The video ids of `filter_content`: video URIs (`/videos/1`) or bare ids. */
function videoIdsOf(uris: readonly string[] | undefined): string[] | undefined {
  return uris?.map((uri) => {
    const id = /^(?:\/videos\/)?(\d{1,18})$/.exec(uri.trim())?.[1];
    if (!id) throw invalidField('filter_content', `${JSON.stringify(uri)} is not a video URI (/videos/{video_id})`);
    return id;
  });
}

export const getAnalytics = operation({
  id: 'users.analytics.get',
  summary:
    "The user's analytics from real plays: views, impressions, finishes, downloads and time watched of their videos from `from` to `to`, by `dimension` (total, video, embed_domain, device_type, country) and `time_interval` (day, week, month, year, none); only the user themselves",
  method: 'GET',
  paths: ['/me/analytics', '/users/{user_id}/analytics'],
  scope: 'stats',
  params: object({
    page: optional(max(min(integer(), 1), 1_000_000)),
    // Up to 1000 rows a page, as the hosted API allows a report (other lists stop at 100).
    per_page: optional(max(min(integer(), 1), 1000)),
    sort: optional(enums(reportSorts)),
    direction: optional(enums(['asc', 'desc'] as const)),
    from: day,
    to: day,
    dimension: enums(reportDimensions),
    time_interval: optional(enums(timeIntervals)),
    filter_content: list,
    filter_embed_domains: list,
    filter_device_types: list,
    filter_countries: list,
  }),
  async handle(ctx) {
    const user = await actingUser(ctx, 'see their analytics');
    const p = ctx.params;
    const page = pageOf(p);
    const report = await analyticsPage(
      ctx.store,
      {
        userId: user.id,
        ...daysOf(ctx),
        dimension: p.dimension,
        interval: p.time_interval ?? 'none',
        videoIds: videoIdsOf(p.filter_content),
        filters: { embed_domain: p.filter_embed_domains?.map((d) => d.toLowerCase()), device_type: p.filter_device_types, country: p.filter_countries?.map((c) => c.toUpperCase()) },
      },
      { sort: p.sort ?? 'date', direction: p.direction },
      page,
    );
    const shown = report.rows;
    const names = new Map(
      p.dimension === 'video' ? (await inOrderOf<VideoRecord>(ctx.store, 'videos', shown.map((r) => r.value!))).map((v) => [v.id, v.name] as const) : [],
    );
    const dimensionOf = (row: ReportRow) =>
      p.dimension === 'total' ? undefined : { name: p.dimension, value: p.dimension === 'video' ? { uri: videoUri(row.value!), name: names.get(row.value!) ?? null } : row.value };
    return listReply(ctx, page, report.total, shown.map((row) => representAnalyticsRow({ ...row, dimension: dimensionOf(row) })), null);
  },
});

export const analyticsOperations = [postBeacon, getAnalytics];
