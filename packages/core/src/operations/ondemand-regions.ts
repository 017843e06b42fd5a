import { array, object, size, string } from 'superstruct';
import { countries } from '../catalog/countries';
import { invalidField, notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { created, noContent, ok, operation } from '../engine/operation';
import type { Store } from '../store/store';
import { and, eq, isIn, where } from '../store/filters';
import { loadCountry } from '../domain/ondemand-catalog';
import { loadOwnedPage, loadVisiblePage } from '../domain/ondemand-pages';
import type { OndemandPageRecord, PageRegionRecord } from '../records/ondemand';
import { isoTime } from '../support/time';
import { representRegion } from '../representations/ondemand-region';

const kind = 'ondemand.region';

export const listRegions = operation({
  id: 'ondemand.regions.list',
  summary: 'List the regions (ISO 3166 countries) On Demand pages can be sold in',
  method: 'GET',
  paths: ['/ondemand/regions'],
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const page = pageOf(ctx.params);
    const all = [...countries.values()];
    return listReply(ctx, page, all.length, all.slice(page.offset, page.offset + page.limit).map(representRegion), kind);
  },
});

export const getRegion = operation({
  id: 'ondemand.regions.get',
  summary: 'Get a region by its ISO 3166 country code',
  method: 'GET',
  paths: ['/ondemand/regions/{country}'],
  async handle(ctx) {
    return ok(representRegion(loadCountry(ctx.path.country)), kind);
  },
});

export const listPageRegions = operation({
  id: 'ondemand.pages.regions.list',
  summary: 'List the regions an On Demand page is limited to (none: it is sold everywhere)',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/regions'],
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const onPage = await loadVisiblePage(ctx);
    const page = pageOf(ctx.params);
    const rows = await ctx.store.find<PageRegionRecord>('ondemand_regions', {
      where: eq('page_id', onPage.id),
      orderBy: by('country', 'asc'),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, rows.total, rows.items.map((r) => representRegion(countries.get(r.country)!)), kind);
  },
});

/** Recounts a page's regions after rows came or went. */
async function recount(store: Store, page: OndemandPageRecord, now: string): Promise<void> {
  await store.update<OndemandPageRecord>('ondemand_pages', page.id, { regions_total: await store.count('ondemand_regions', eq('page_id', page.id)), modified_time: now });
}

export const addPageRegion = operation({
  id: 'ondemand.pages.regions.add',
  summary: 'Sell an On Demand page in a country (limiting it to its regions)',
  method: 'PUT',
  paths: ['/ondemand/pages/{ondemand_id}/regions/{country}'],
  scope: 'edit',
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'change the regions of the page');
    const country = loadCountry(ctx.path.country);
    if (!(await ctx.store.findOne('ondemand_regions', where({ page_id: page.id, country: country.code })))) {
      const now = isoTime(ctx.now());
      await ctx.store.insert<PageRegionRecord>('ondemand_regions', { page_id: page.id, country: country.code, created_time: now });
      await recount(ctx.store, page, now);
    }
    return created(representRegion(country), kind);
  },
});

export const removePageRegion = operation({
  id: 'ondemand.pages.regions.delete',
  summary: 'Stop selling an On Demand page in a country',
  method: 'DELETE',
  paths: ['/ondemand/pages/{ondemand_id}/regions/{country}'],
  scope: 'edit',
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'change the regions of the page');
    const country = loadCountry(ctx.path.country);
    if (!(await ctx.store.deleteWhere('ondemand_regions', where({ page_id: page.id, country: country.code })))) throw notFound('region');
    await recount(ctx.store, page, isoTime(ctx.now()));
    return noContent();
  },
});

export const removePageRegions = operation({
  id: 'ondemand.pages.regions.delete_many',
  summary: "Stop selling an On Demand page in several countries; answers the page's remaining regions",
  method: 'DELETE',
  paths: ['/ondemand/pages/{ondemand_id}/regions'],
  scope: 'edit',
  params: object({ countries: size(array(size(string(), 1, 64)), 1, countries.size) }),
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'change the regions of the page');
    const codes = ctx.params.countries.map((c) => c.trim().toUpperCase());
    const unknown = codes.find((c) => !countries.has(c));
    if (unknown !== undefined) throw invalidField('countries', `"${unknown}" is not an ISO 3166 country code`);
    // Countries the page was not limited to are already not in its regions: nothing to do for them.
    await ctx.store.deleteWhere('ondemand_regions', and(eq('page_id', page.id), isIn('country', codes)));
    await recount(ctx.store, page, isoTime(ctx.now()));
    const rest = await ctx.store.find<PageRegionRecord>('ondemand_regions', { where: eq('page_id', page.id), orderBy: by('country', 'asc') });
    return ok(rest.items.map((r) => representRegion(countries.get(r.country)!)), kind);
  },
});

export const ondemandRegionOperations = [listRegions, getRegion, listPageRegions, addPageRegion, removePageRegion, removePageRegions];
