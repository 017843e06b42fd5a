import { object } from 'superstruct';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { noContent, ok, operation } from '../engine/operation';
import { eq } from '../store/filters';
import { loadOwnedPage } from '../domain/ondemand-pages';
import { assertLaterFormScope, deletePromotion, insertPromotion, loadPromotion, newPromotion, promotionFields } from '../domain/ondemand-promotions';
import type { PromoCodeRecord, PromotionRecord } from '../records/ondemand';
import { representPromotion } from '../representations/ondemand-promotion';

const kind = 'ondemand.promotion';
const action = "manage the page's promotions";

// SPEC.md gives these operations scope promo_codes, "and create (delete) in a later form": the
// table checks promo_codes; POST and DELETE check the later form's second scope themselves.

export const createPromotion = operation({
  id: 'ondemand.pages.promotions.create',
  summary: 'Create a promotion (promo codes) for an On Demand page (from 3.4 the create scope is needed too)',
  method: 'POST',
  paths: ['/ondemand/pages/{ondemand_id}/promotions'],
  scope: 'promo_codes',
  params: promotionFields,
  async handle(ctx) {
    assertLaterFormScope(ctx, 'create');
    const page = await loadOwnedPage(ctx, action);
    const promotion = await insertPromotion(ctx.store, newPromotion(page, ctx.params, ctx.now()));
    return ok(representPromotion(promotion), kind);
  },
});

export const listPromotions = operation({
  id: 'ondemand.pages.promotions.list',
  summary: "List an On Demand page's promotions, newest first (its owner only)",
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/promotions'],
  scope: 'promo_codes',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, action);
    const p = pageOf(ctx.params);
    const result = await ctx.store.find<PromotionRecord>('ondemand_promotions', {
      where: eq('page_id', page.id),
      orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
      offset: p.offset,
      limit: p.limit,
    });
    return listReply(ctx, p, result.total, result.items.map(representPromotion), kind);
  },
});

export const getPromotion = operation({
  id: 'ondemand.pages.promotions.get',
  summary: 'Get a promotion of an On Demand page (its owner only)',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/promotions/{promotion_id}'],
  scope: 'promo_codes',
  async handle(ctx) {
    return ok(representPromotion(await loadPromotion(ctx, await loadOwnedPage(ctx, action))), kind);
  },
});

export const listPromotionCodes = operation({
  id: 'ondemand.pages.promotions.codes.list',
  summary: "List a promotion's codes with how often each was used (its owner only)",
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/promotions/{promotion_id}/codes'],
  scope: 'promo_codes',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const promotion = await loadPromotion(ctx, await loadOwnedPage(ctx, action));
    const p = pageOf(ctx.params);
    const result = await ctx.store.find<PromoCodeRecord>('ondemand_promo_codes', {
      where: eq('promotion_id', promotion.id),
      orderBy: by('created_time', 'asc'),
      offset: p.offset,
      limit: p.limit,
    });
    const codes = result.items.map((c) => ({ code: c.code, uses: c.uses, total: c.max_uses }));
    return listReply(ctx, p, result.total, codes, null);
  },
});

export const removePromotion = operation({
  id: 'ondemand.pages.promotions.delete',
  summary: 'Delete a promotion of an On Demand page and its codes (from 3.4 the delete scope is needed too)',
  method: 'DELETE',
  paths: ['/ondemand/pages/{ondemand_id}/promotions/{promotion_id}'],
  scope: 'promo_codes',
  async handle(ctx) {
    assertLaterFormScope(ctx, 'delete');
    const promotion = await loadPromotion(ctx, await loadOwnedPage(ctx, action));
    await deletePromotion(ctx.store, promotion);
    return noContent();
  },
});

export const ondemandPromotionOperations = [createPromotion, listPromotions, getPromotion, listPromotionCodes, removePromotion];
