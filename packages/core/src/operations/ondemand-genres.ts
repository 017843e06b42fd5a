import { object, optional, size, string } from 'superstruct';
import { genres, type Genre } from '../catalog/genres';
import { findCountry } from '../catalog/countries';
import { badRequest, invalidField, notFound } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation, type Context } from '../engine/operation';
import { and, where } from '../store/filters';
import { inGenre, loadGenre, regionOf, soldIn } from '../domain/ondemand-catalog';
import { publishDuePages } from '../domain/ondemand-lifecycle';
import { loadOwnedPage, loadVisiblePage, visiblePages } from '../domain/ondemand-pages';
import type { OndemandPageRecord, PageGenreRecord } from '../records/ondemand';
import { representPages } from './represent-ondemand';
import { representContext } from './represent-context';
import { isoTime } from '../support/time';
import { representGenre } from '../representations/ondemand-genre';
import { pageUri } from '../representations/ondemand-page';

const kind = 'ondemand.genre';

export const listGenres = operation({
  id: 'ondemand.genres.list',
  summary: 'List the On Demand genres',
  method: 'GET',
  paths: ['/ondemand/genres'],
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const page = pageOf(ctx.params);
    const all = [...genres.values()];
    const rc = representContext(ctx);
    return listReply(ctx, page, all.length, all.slice(page.offset, page.offset + page.limit).map((g) => representGenre(g, rc)), kind);
  },
});

export const getGenre = operation({
  id: 'ondemand.genres.get',
  summary: 'Get an On Demand genre',
  method: 'GET',
  paths: ['/ondemand/genres/{genre_id}'],
  async handle(ctx) {
    return ok(representGenre(loadGenre(ctx.path.genre_id), representContext(ctx)), kind);
  },
});

const sorts = { name: by('name', 'asc'), 'publish.time': by('publish_time', 'desc'), videos: by('videos_total', 'desc') };
type Sort = keyof typeof sorts;
type RegionFilter = 'country' | 'my_region';

export const listGenrePages = operation({
  id: 'ondemand.genres.pages.list',
  summary: 'List the On Demand pages of a genre; filter=country (with `country`) or my_region keeps those sold there',
  method: 'GET',
  paths: ['/ondemand/genres/{genre_id}/pages'],
  params: object({
    ...listParams({ sort: Object.keys(sorts) as Sort[], filter: ['country', 'my_region'] }),
    /** The ISO code or English name of the country `filter=country` selects. */
    country: optional(size(string(), 1, 64)),
  }),
  async handle(ctx) {
    const genre = loadGenre(ctx.path.genre_id);
    const p = ctx.params as ListParams<Sort, RegionFilter> & { country?: string };
    let region = null;
    if (p.filter === 'country') {
      if (p.country === undefined) throw invalidField('country', 'is required when filter is country');
      region = findCountry(p.country);
      if (!region) throw invalidField('country', 'must be an ISO 3166 country code or an English country name');
    } else if (p.filter === 'my_region') {
      region = regionOf(ctx.principal.user);
      if (!region) throw invalidField('filter', "my_region needs a signed-in user whose location names a country (e.g. 'Berlin, Germany')");
    }
    await publishDuePages(ctx);
    const page = pageOf(p);
    const result = await ctx.store.find<OndemandPageRecord>('ondemand_pages', {
      where: and(inGenre(genre), visiblePages(ctx.principal.user), region ? soldIn(region) : undefined),
      orderBy: orderOf(sorts, p.sort ?? 'publish.time', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representPages(ctx, result.items), 'ondemand.page');
  },
});

/** Genres of a page: at least one once it has any, at most two (SPEC.md, Limits). */
const maxGenres = 2;

/** A genre as a page shows it (with its `interactions.page`). */
const onPage = (ctx: Context<unknown>, page: OndemandPageRecord, genre: Genre) =>
  representGenre(genre, representContext(ctx), { pageUri: pageUri(page.id), isOwner: page.user_id === ctx.principal.user?.id });

export const listPageGenres = operation({
  id: 'ondemand.pages.genres.list',
  summary: 'List the genres of an On Demand page, in the order they were added',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/genres'],
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const page = await loadVisiblePage(ctx);
    const p = pageOf(ctx.params);
    const all = page.genres.flatMap((id) => genres.get(id) ?? []);
    return listReply(ctx, p, all.length, all.slice(p.offset, p.offset + p.limit).map((g) => onPage(ctx, page, g)), kind);
  },
});

export const getPageGenre = operation({
  id: 'ondemand.pages.genres.get',
  summary: 'Check that an On Demand page is filed under a genre: 200 with the genre, 404 when it is not',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/genres/{genre_id}'],
  async handle(ctx) {
    const page = await loadVisiblePage(ctx);
    const genre = loadGenre(ctx.path.genre_id);
    if (!page.genres.includes(genre.id)) throw notFound('genre of the page');
    return ok(onPage(ctx, page, genre), kind);
  },
});

export const addPageGenre = operation({
  id: 'ondemand.pages.genres.add',
  summary: 'File an On Demand page under a genre (two at most)',
  method: 'PUT',
  paths: ['/ondemand/pages/{ondemand_id}/genres/{genre_id}'],
  scope: 'edit',
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'change the genres of the page');
    const genre = loadGenre(ctx.path.genre_id);
    if (!page.genres.includes(genre.id)) {
      if (page.genres.length >= maxGenres) throw badRequest(`An On Demand page has at most ${maxGenres} genres; remove one first.`);
      const now = isoTime(ctx.now());
      await ctx.store.insert<PageGenreRecord>('ondemand_page_genres', { page_id: page.id, genre: genre.id, created_time: now });
      await ctx.store.update<OndemandPageRecord>('ondemand_pages', page.id, { genres: [...page.genres, genre.id], modified_time: now });
    }
    return created(onPage(ctx, page, genre), kind);
  },
});

export const removePageGenre = operation({
  id: 'ondemand.pages.genres.delete',
  summary: 'Take an On Demand page out of a genre (it keeps one at least)',
  method: 'DELETE',
  paths: ['/ondemand/pages/{ondemand_id}/genres/{genre_id}'],
  scope: 'edit',
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'change the genres of the page');
    const genre = loadGenre(ctx.path.genre_id);
    if (!page.genres.includes(genre.id)) throw notFound('genre');
    if (page.genres.length === 1) throw badRequest('An On Demand page must keep at least one genre; add another before removing this one.');
    await ctx.store.deleteWhere('ondemand_page_genres', where({ page_id: page.id, genre: genre.id }));
    const rest = page.genres.filter((g) => g !== genre.id);
    await ctx.store.update<OndemandPageRecord>('ondemand_pages', page.id, { genres: rest, modified_time: isoTime(ctx.now()) });
    return noContent();
  },
});

export const ondemandGenreOperations = [listGenres, getGenre, listGenrePages, listPageGenres, getPageGenre, addPageGenre, removePageGenre];
