import { object } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, ok, operation } from '../engine/operation';
import { eq, where } from '../store/filters';
import { memberPage } from '../domain/memberships';
import { publishDuePages } from '../domain/ondemand-lifecycle';
import { loadVisiblePage } from '../domain/ondemand-pages';
import { purchaseFields, recordPurchase } from '../domain/ondemand-purchases';
import type { OndemandPageRecord } from '../records/ondemand';
import { representOnePage, representPages } from './represent-ondemand';
import { actingUser } from '../domain/users';

const kind = 'ondemand.page';

export const purchasePage = operation({
  id: 'ondemand.pages.purchases.create',
  summary:
    'Extension (SPEC.md does not say how a purchase happens): buy, rent or subscribe to an On Demand page, optionally with a promo code (recorded with its price, currency and expiry; no payment is taken)',
  method: 'POST',
  paths: ['/ondemand/pages/{ondemand_id}/purchases'],
  scope: 'purchased',
  params: purchaseFields,
  async handle(ctx) {
    const page = await loadVisiblePage(ctx);
    await recordPurchase(ctx, page, ctx.params);
    return created(await representOnePage(ctx, page), kind);
  },
});

/** `date`: the last purchase first; `alphabetical`: by page name. */
const sorts = { date: by('purchase_time', 'desc'), alphabetical: by('name', 'asc') };
type Sort = keyof typeof sorts;

export const listPurchases = operation({
  id: 'ondemand.purchases.list',
  summary: "List the On Demand pages a user bought, rented or subscribed to (the user themselves only)",
  method: 'GET',
  paths: ['/me/ondemand/purchases', '/users/{user_id}/ondemand/purchases'],
  scope: 'purchased',
  params: object(listParams({ sort: Object.keys(sorts) as Sort[] })),
  async handle(ctx) {
    const user = await actingUser(ctx, 'see their purchases');
    // A pre-ordered page shows as published once its time came, as on every other page read.
    await publishDuePages(ctx);
    const p = ctx.params as ListParams<Sort>;
    const page = pageOf(p);
    const sort = p.sort ?? 'date';
    const result = await memberPage<OndemandPageRecord>(ctx.store, {
      rows: { collection: 'ondemand_library', where: eq('user_id', user.id), memberField: 'page_id' },
      members: { collection: 'ondemand_pages' },
      orderBy: orderOf(sorts, sort, p.direction),
      byRow: sort === 'date',
      page,
    });
    return listReply(ctx, page, result.total, await representPages(ctx, result.items), kind);
  },
});

export const getPurchase = operation({
  id: 'ondemand.purchases.get',
  summary: 'Check that a user bought, rented or subscribed to an On Demand page, and get it (the user themselves only)',
  method: 'GET',
  paths: ['/me/ondemand/purchases/{ondemand_id}', '/users/{user_id}/ondemand/purchases/{ondemand_id}'],
  scope: 'purchased',
  async handle(ctx) {
    const user = await actingUser(ctx, 'see their purchases');
    const page = await loadVisiblePage(ctx);
    if (!(await ctx.store.findOne('ondemand_library', where({ user_id: user.id, page_id: page.id })))) throw notFound('purchase');
    return ok(await representOnePage(ctx, page), kind);
  },
});

export const ondemandPurchaseOperations = [purchasePage, listPurchases, getPurchase];
