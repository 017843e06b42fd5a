import { object } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { ok, operation, type Context } from '../engine/operation';
import { eq } from '../store/filters';
import { findById } from '../domain/lookup';
import { loadVisiblePage } from '../domain/ondemand-pages';
import type { SeasonRecord, VideoKind } from '../records/ondemand';
import { pageVideoSorts, videoKinds, type PageVideoSort } from '../domain/ondemand-videos';
import { listPageVideos } from './represent-ondemand';
import { representContext } from './represent-context';
import { representSeason } from '../representations/ondemand-season';

const kind = 'ondemand.season';

/** The season the path names, of the page the path names (404 for either). */
async function loadSeason(ctx: Context<unknown>): Promise<SeasonRecord> {
  const page = await loadVisiblePage(ctx);
  const season = await findById<SeasonRecord>(ctx.store, 'ondemand_seasons', ctx.path.season_id);
  if (!season || season.page_id !== page.id) throw notFound('season');
  return season;
}

export const listSeasons = operation({
  id: 'ondemand.pages.seasons.list',
  summary: 'List the seasons of a series page, in order',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/seasons'],
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const page = await loadVisiblePage(ctx);
    const p = pageOf(ctx.params);
    const result = await ctx.store.find<SeasonRecord>('ondemand_seasons', { where: eq('page_id', page.id), orderBy: by('number', 'asc'), offset: p.offset, limit: p.limit });
    const rc = representContext(ctx);
    return listReply(ctx, p, result.total, result.items.map((s) => representSeason(s, rc)), kind);
  },
});

export const getSeason = operation({
  id: 'ondemand.pages.seasons.get',
  summary: 'Get a season of a series page',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/seasons/{season_id}'],
  async handle(ctx) {
    return ok(representSeason(await loadSeason(ctx), representContext(ctx)), kind);
  },
});

export const listSeasonVideos = operation({
  id: 'ondemand.pages.seasons.videos.list',
  summary: 'List the episodes of a season that the caller may see, in order',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/seasons/{season_id}/videos'],
  params: object(listParams({ sort: Object.keys(pageVideoSorts) as PageVideoSort[], filter: videoKinds })),
  async handle(ctx) {
    const season = await loadSeason(ctx);
    return listPageVideos(ctx, eq('season_id', season.id), ctx.params as ListParams<PageVideoSort, VideoKind>);
  },
});

export const ondemandSeasonOperations = [listSeasons, getSeason, listSeasonVideos];
