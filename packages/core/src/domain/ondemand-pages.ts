import type { Filter, Store } from '../store/store';
import { and, eq, ne, or } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { forbidden, notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { publishDuePages } from './ondemand-lifecycle';
import type { OndemandPageRecord, PageVideoRecord } from '../records/ondemand';

/** Pages `viewer` may see: every page but other users' drafts. */
export function visiblePages(viewer: UserRecord | null): Filter {
  const released = ne('status', 'draft');
  return viewer ? or(released, eq('user_id', viewer.id)) : released;
}

/** A page by numeric id or custom `link`; null when there is none. */
async function findPage(store: Store, idOrLink: string): Promise<OndemandPageRecord | null> {
  if (/^\d{1,18}$/.test(idOrLink)) return store.get<OndemandPageRecord>('ondemand_pages', idOrLink);
  return store.findOne<OndemandPageRecord>('ondemand_pages', eq('link', idOrLink.toLowerCase()));
}

const isOwner = (ctx: Context<unknown>, page: OndemandPageRecord): boolean => page.user_id === ctx.principal.user?.id;

/** The page the path names, as the caller may see it: 404 when missing or another user's draft. */
export async function loadVisiblePage(ctx: Context<unknown>): Promise<OndemandPageRecord> {
  await publishDuePages(ctx);
  const page = await findPage(ctx.store, ctx.path.ondemand_id);
  if (!page || (page.status === 'draft' && !isOwner(ctx, page))) throw notFound('On Demand page');
  return page;
}

/** The page the path names, for an action only its owner may take: 404 as loadVisiblePage, 403 for others. */
export async function loadOwnedPage(ctx: Context<unknown>, action: string): Promise<OndemandPageRecord> {
  const page = await loadVisiblePage(ctx);
  if (!isOwner(ctx, page)) throw forbidden(`Only the page's owner may ${action}.`);
  return page;
}

/** Collections whose rows belong to one page through `page_id`; they go when the page goes. */
const pageOwned = [
  'ondemand_page_genres',
  'ondemand_regions',
  'ondemand_videos',
  'ondemand_seasons',
  'ondemand_promotions',
  'ondemand_promo_codes',
  'ondemand_purchases',
  'ondemand_library',
];

/** Deletes a page and everything that belongs to it (the caller's transaction makes it all-or-nothing). */
export async function deletePageRecords(store: Store, pageId: string): Promise<void> {
  const { items: rows } = await store.find<PageVideoRecord>('ondemand_videos', { where: eq('page_id', pageId) });
  for (const row of rows) await store.update<VideoRecord>('videos', row.video_id, { ondemand_page_id: null });
  for (const collection of pageOwned) await store.deleteWhere(collection, eq('page_id', pageId));
  for (const kind of ['ondemand_poster', 'ondemand_background']) {
    await store.deleteWhere('pictures', and(eq('owner_kind', kind), eq('owner_id', pageId)));
  }
  await store.delete('ondemand_pages', pageId);
}
