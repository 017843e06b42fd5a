import { countries, type Country } from '../catalog/countries';
import { and, eq, isIn } from '../store/filters';
import type { UserRecord } from '../records';
import type { Context } from '../engine/operation';
import { since } from '../engine/versions';
import { by } from '../engine/list';
import { isoTime } from '../representations/common';
import { representPage, type PagePurchases } from '../representations/ondemand-page';
import type { OndemandPageRecord, PageRegionRecord, PurchaseRecord } from './ondemand-records';
import { representContext } from './users';

/** Page representations for a list of pages: owners, the viewer's purchases and (before 3.3) regions in one query each. */
export async function representPages(ctx: Context<unknown>, pages: OndemandPageRecord[]): Promise<Record<string, unknown>[]> {
  if (pages.length === 0) return [];
  const ids = pages.map((p) => p.id);
  const viewer = ctx.principal.user;
  const current = since(ctx.version, 'ondemandFields');
  const [owners, bought, regionRows] = await Promise.all([
    ctx.store.find<UserRecord>('users', { where: isIn('id', [...new Set(pages.map((p) => p.user_id))]) }),
    viewer && current
      ? ctx.store.find<PurchaseRecord>('ondemand_purchases', { where: and(eq('user_id', viewer.id), isIn('page_id', ids)), orderBy: by('purchase_time', 'asc') })
      : null,
    current ? null : ctx.store.find<PageRegionRecord>('ondemand_regions', { where: isIn('page_id', ids), orderBy: by('country', 'asc') }),
  ]);
  const ownerById = new Map(owners.items.map((u) => [u.id, u]));
  const now = isoTime(ctx.now());
  const purchases = new Map<string, PagePurchases>();
  // Ascending time: the last one written per kind is the latest.
  for (const p of bought?.items ?? []) {
    const entry = purchases.get(p.page_id) ?? { now, latest: {} };
    entry.latest[p.type] = p;
    purchases.set(p.page_id, entry);
  }
  const regions = new Map<string, Country[]>();
  for (const r of regionRows?.items ?? []) regions.set(r.page_id, [...(regions.get(r.page_id) ?? []), countries.get(r.country)!]);
  const rc = representContext(ctx);
  return pages.map((page) =>
    representPage(
      page,
      {
        owner: ownerById.get(page.user_id)!,
        purchases: purchases.get(page.id) ?? { now, latest: {} },
        regions: current ? undefined : (regions.get(page.id) ?? []),
      },
      rc,
    ),
  );
}

export async function representOnePage(ctx: Context<unknown>, page: OndemandPageRecord): Promise<Record<string, unknown>> {
  return (await representPages(ctx, [page]))[0];
}
