import { enums, integer, max, min, number, object, optional, type Infer } from 'superstruct';
import { eq, where } from '../store/filters';
import type { VideoRecord } from '../records';
import { badRequest, invalidField, notFound } from '../engine/errors';
import { by } from '../engine/list';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import { announceLatePublication } from './ondemand-lifecycle';
import { priceList } from './ondemand-page-fields';
import type { OndemandPageRecord, PageVideoRecord, SeasonRecord, VideoKind } from '../records/ondemand';
import { countOnPage, seasonFor } from './ondemand-video-rows';
import { loadVideo } from './videos';

export const videoKinds: VideoKind[] = ['extra', 'main', 'trailer'];

/** The body of PUT /ondemand/pages/{id}/videos/{video_id}. */
export const pageVideoFields = object({
  type: enums(videoKinds),
  position: optional(max(min(number(), 0), 1_000_000)),
  release_year: optional(max(min(integer(), 1850), 2200)),
  /** The season of a series episode (main video); 1 when not given. */
  season: optional(max(min(integer(), 1), 1000)),
  buy: optional(object({ price: priceList() })),
  rent: optional(object({ price: priceList() })),
});
export type PageVideoInput = Infer<typeof pageVideoFields>;

/** The row that puts the video on the page (404 when it is not on it). */
export async function loadPageVideo(ctx: Context<unknown>, page: OndemandPageRecord): Promise<PageVideoRecord> {
  const row = /^\d{1,18}$/.test(ctx.path.video_id)
    ? await ctx.store.findOne<PageVideoRecord>('ondemand_videos', where({ page_id: page.id, video_id: ctx.path.video_id }))
    : null;
  if (!row) throw notFound('video');
  return row;
}

const definedPrices = (list: Record<string, number | undefined> | undefined) =>
  list && Object.fromEntries(Object.entries(list).filter((e): e is [string, number] => e[1] !== undefined));

/**
 * The rules of adding a video that depend on the page, the video and what is already on the page.
 * Prices (SPEC.md: `buy.price.<CUR>` and `rent.price.<CUR>`, "USD required when buy.active or
 * rent.active is true") are taken for every video on every page type. An episode (a main video of
 * a series) is sold by the page's episode offers, so while `episodes.buy.active` or
 * `episodes.rent.active` holds it needs a USD price of that kind; any other video (a film, an
 * extra, a trailer) may go on unpriced, but prices it has need USD while the page's `buy.active`
 * or `rent.active` holds.
 */
function checkPageVideo(page: OndemandPageRecord, input: PageVideoInput, existing: PageVideoRecord | null): void {
  const episode = page.type === 'series' && input.type === 'main';
  if (input.season !== undefined && !episode) throw invalidField('season', 'only main videos (episodes) of series pages belong to a season');
  const already = (kind: VideoKind) => page[`${kind}_total`] - (existing?.type === kind ? 1 : 0);
  if (input.type === 'trailer' && already('trailer') > 0) throw invalidField('type', 'the page already has a trailer');
  if (page.type === 'film' && input.type === 'main' && already('main') > 0) throw invalidField('type', 'a film page has one main video');
  for (const kind of ['buy', 'rent'] as const) {
    const prices = definedPrices(input[kind]?.price) ?? existing?.[`${kind}_price`] ?? {};
    if (prices.USD !== undefined) continue;
    if (episode && page.episodes?.[kind].active) {
      throw invalidField(`${kind}.price.USD`, `is required when the page ${kind === 'buy' ? 'sells' : 'rents'} episodes (episodes.${kind}.active)`);
    }
    if (!episode && page[kind].active && Object.keys(prices).length > 0) {
      throw invalidField(`${kind}.price.USD`, `is required among the video's prices when the page's ${kind}.active is true`);
    }
  }
}

/**
 * Puts one of the owner's videos on the page, or changes how it is there (type, place, season,
 * prices), keeping the page's and seasons' counters exact.
 */
export async function putPageVideo(ctx: Context<unknown>, page: OndemandPageRecord, input: PageVideoInput): Promise<PageVideoRecord> {
  const { store } = ctx;
  const video = await loadVideo(store, ctx.path.video_id);
  if (video.user_id !== page.user_id) throw badRequest("The video cannot be added: only the page owner's own videos can go on the page.");
  const existing = await store.findOne<PageVideoRecord>('ondemand_videos', eq('video_id', video.id));
  if (existing && existing.page_id !== page.id) throw badRequest('The video cannot be added: it is already on another On Demand page.');
  checkPageVideo(page, input, existing);
  const now = isoTime(ctx.now());
  let seasonId: string | null = null;
  if (page.type === 'series' && input.type === 'main') {
    const current = existing?.season_id ? await store.get<SeasonRecord>('ondemand_seasons', existing.season_id) : null;
    seasonId = (await seasonFor(store, page.id, input.season ?? current?.number ?? 1, now)).id;
  }
  const last = existing ? null : await store.findOne<PageVideoRecord>('ondemand_videos', eq('page_id', page.id), by('position', 'desc'));
  const fields = {
    type: input.type,
    position: input.position ?? existing?.position ?? (last?.position ?? 0) + 1,
    release_year: input.release_year ?? existing?.release_year ?? null,
    season_id: seasonId,
    buy_price: definedPrices(input.buy?.price) ?? existing?.buy_price ?? {},
    rent_price: definedPrices(input.rent?.price) ?? existing?.rent_price ?? {},
    modified_time: now,
  };
  const row = existing
    ? (await store.update<PageVideoRecord>('ondemand_videos', existing.id, fields))!
    : await store.insert<PageVideoRecord>('ondemand_videos', { page_id: page.id, video_id: video.id, created_time: now, ...fields });
  if (!existing) await store.update<VideoRecord>('videos', video.id, { ondemand_page_id: page.id });
  // Count in before counting out, so a season the video stays in is never left empty on the way.
  await countOnPage(store, row, 1);
  if (existing) await countOnPage(store, existing, -1);
  await store.update<OndemandPageRecord>('ondemand_pages', page.id, { modified_time: now });
  await announceLatePublication(store, page, row.type, ctx.now());
  return row;
}

export const pageVideoSorts = { default: by('position', 'asc'), date: by('created_time', 'desc') };
export type PageVideoSort = keyof typeof pageVideoSorts;
