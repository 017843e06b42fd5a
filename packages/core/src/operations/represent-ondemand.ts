import { countries, type Country } from '../catalog/countries';
import { and, eq, isIn } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import type { Context, Reply } from '../engine/operation';
import { since } from '../engine/versions';
import { by, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { isoTime } from '../support/time';
import { representPage } from '../representations/ondemand-page';
import { pageTotals, viewableRows } from '../domain/ondemand-page-lists';
import type { OndemandPageRecord, PageRegionRecord, PageVideoRecord, SeasonRecord, VideoKind } from '../records/ondemand';
import { purchasesOf } from '../domain/clip-ondemand';
import type { Filter } from '../store/store';
import { pageVideoKind, representPageVideo } from '../representations/ondemand-video';
import { inOrderOf } from '../domain/memberships';
import { pageVideoSorts, type PageVideoSort } from '../domain/ondemand-videos';
import { representContext } from './represent-context';
import { representVideos } from './represent-videos';

/**
 * Page representations for a list of pages: owners, the viewer's purchases and (before 3.3)
 * regions in one query each; from 3.3 the trailers the viewer may see (one query, and their
 * representations', for the pages that have one) and each page's totals (pageTotals).
 */
export async function representPages(ctx: Context<unknown>, pages: OndemandPageRecord[]): Promise<Record<string, unknown>[]> {
  if (pages.length === 0) return [];
  const ids = pages.map((p) => p.id);
  const viewer = ctx.principal.user;
  const current = since(ctx.version, 'ondemandFields');
  const [owners, bought, regionRows, trailers, totals] = await Promise.all([
    ctx.store.find<UserRecord>('users', { where: isIn('id', [...new Set(pages.map((p) => p.user_id))]) }),
    viewer && current ? purchasesOf(ctx.store, ids, viewer) : null,
    current ? null : ctx.store.find<PageRegionRecord>('ondemand_regions', { where: isIn('page_id', ids), orderBy: by('country', 'asc') }),
    current ? pageTrailers(ctx, pages) : null,
    current ? Promise.all(pages.map((page) => pageTotals(ctx, page))) : null,
  ]);
  const ownerById = new Map(owners.items.map((u) => [u.id, u]));
  const now = isoTime(ctx.now());
  const regions = new Map<string, Country[]>();
  for (const r of regionRows?.items ?? []) regions.set(r.page_id, [...(regions.get(r.page_id) ?? []), countries.get(r.country)!]);
  const rc = representContext(ctx);
  return pages.map((page, i) =>
    representPage(
      page,
      {
        owner: ownerById.get(page.user_id)!,
        purchases: { now, latest: bought?.get(page.id) ?? {} },
        regions: current ? undefined : (regions.get(page.id) ?? []),
        ondemandFields: totals ? { trailer: trailers?.get(page.id) ?? null, totals: totals[i] } : undefined,
      },
      rc,
    ),
  );
}

/** The trailers of the pages that have one, as `viewer` may see them, by page id. */
async function pageTrailers(ctx: Context<unknown>, pages: OndemandPageRecord[]): Promise<Map<string, Record<string, unknown>>> {
  const ids = pages.filter((p) => p.trailer_total > 0).map((p) => p.id);
  if (ids.length === 0) return new Map();
  const { items } = await ctx.store.find<PageVideoRecord>('ondemand_videos', { where: viewableRows(ctx.principal.user, and(isIn('page_id', ids), eq('type', 'trailer'))) });
  // viewableRows keeps only rows whose video exists, so every row is represented, in order.
  const represented = await representPageVideos(ctx, items);
  return new Map(items.map((row, i) => [row.page_id, represented[i]]));
}

export async function representOnePage(ctx: Context<unknown>, page: OndemandPageRecord): Promise<Record<string, unknown>> {
  return (await representPages(ctx, [page]))[0];
}

/** Page-video representations for rows of one page: Clips (one query per kind of data) and their seasons. */
export async function representPageVideos(ctx: Context<unknown>, rows: PageVideoRecord[]): Promise<Record<string, unknown>[]> {
  const videos = await inOrderOf<VideoRecord>(ctx.store, 'videos', rows.map((r) => r.video_id));
  const clips = new Map((await representVideos(ctx, videos)).map((clip, i) => [videos[i].id, clip]));
  const seasonIds = [...new Set(rows.flatMap((r) => (r.season_id ? [r.season_id] : [])))];
  const seasons = seasonIds.length ? (await ctx.store.find<SeasonRecord>('ondemand_seasons', { where: isIn('id', seasonIds) })).items : [];
  const seasonById = new Map(seasons.map((s) => [s.id, s]));
  const rc = representContext(ctx);
  return rows.flatMap((row) => {
    const clip = clips.get(row.video_id);
    return clip ? [representPageVideo(row, row.season_id ? (seasonById.get(row.season_id) ?? null) : null, clip, rc)] : [];
  });
}

/**
 * A page of the videos on a page (or in a season) that the caller may see, in the page's order or
 * newest first; `filter` keeps one type. Membership, type and the visibility rule all filter in the store.
 */
export async function listPageVideos(ctx: Context<unknown>, rows: Filter, params: ListParams<PageVideoSort, VideoKind>): Promise<Reply> {
  const page = pageOf(params);
  const result = await ctx.store.find<PageVideoRecord>('ondemand_videos', {
    where: viewableRows(ctx.principal.user, and(rows, params.filter ? eq('type', params.filter) : undefined)),
    orderBy: orderOf(pageVideoSorts, params.sort ?? 'default', params.direction),
    offset: page.offset,
    limit: page.limit,
  });
  return listReply(ctx, page, result.total, await representPageVideos(ctx, result.items), pageVideoKind(representContext(ctx)));
}
