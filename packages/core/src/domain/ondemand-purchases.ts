import { enums, object, optional, size, string, type Infer } from 'superstruct';
import { currencies, periodEnd, subscriptionPeriod } from '../catalog/ondemand-prices';
import { forbidden, invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';
import { by } from '../engine/list';
import { where } from '../store/filters';
import type { Store } from '../store/store';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { noMainVideo, offerOf, unsoldReason } from '../records/ondemand-offers';
import type { LibraryRecord, OndemandPageRecord, PromoCodeRecord, PromotionRecord, PurchaseRecord, PurchaseType } from '../records/ondemand';

/** The body of POST /ondemand/pages/{id}/purchases (a documented extension: SPEC.md does not say how buying happens). */
export const purchaseFields = object({
  type: enums(['buy', 'rent', 'subscribe']),
  currency: optional(enums(currencies)),
  promo_code: optional(size(string(), 1, 50)),
});
export type PurchaseInput = Infer<typeof purchaseFields>;

/** A promotion applies to the products it names; `any` to every one. */
const applies = (promotion: PromotionRecord, type: PurchaseType): boolean => promotion.product_type === 'any' || promotion.product_type === type;

/** The promotion a code redeems for this purchase, with its code row; 400 naming promo_code when it cannot be used. */
async function redeemable(store: Store, page: OndemandPageRecord, code: string, type: PurchaseType, now: string) {
  const row = await store.findOne<PromoCodeRecord>('ondemand_promo_codes', where({ page_id: page.id, code: code.trim().toUpperCase() }));
  const promotion = row && (await store.get<PromotionRecord>('ondemand_promotions', row.promotion_id));
  if (!row || !promotion) throw invalidField('promo_code', 'is not a promo code of this page');
  if (now < promotion.start_time) throw invalidField('promo_code', 'is not valid yet');
  if (promotion.end_time && now >= promotion.end_time) throw invalidField('promo_code', 'has expired');
  if (row.uses >= row.max_uses) throw invalidField('promo_code', 'has been used up');
  if (!applies(promotion, type)) throw invalidField('promo_code', `applies to ${promotion.product_type} only`);
  return { row, promotion };
}

/**
 * Records a purchase: no payment is taken. The price is the page's for the kind and currency,
 * less a promotion's discount; a rental runs for the page's rental period, a subscription for a
 * month, and access by promotion for its stream period. A vip promotion grants free access even
 * to what the page does not sell, or does not sell yet; but a page without a main video has
 * nothing to give access to, so nobody buys anything of it, vip or not.
 */
export async function recordPurchase(ctx: Context<unknown>, page: OndemandPageRecord, input: PurchaseInput): Promise<PurchaseRecord> {
  const { store } = ctx;
  const buyer = ctx.principal.user as UserRecord;
  if (page.user_id === buyer.id) throw forbidden('The owner of an On Demand page cannot buy it.');
  const at = ctx.now();
  const now = isoTime(at);
  const { type } = input;
  const promo = input.promo_code === undefined ? null : await redeemable(store, page, input.promo_code, type, now);
  const vip = promo?.promotion.access_type === 'vip';
  if (page.main_total === 0) throw invalidField('type', noMainVideo);
  const unsold = unsoldReason(page, type);
  if (!vip && unsold) throw invalidField('type', unsold);
  const offer = offerOf(page, type);
  const currency = input.currency ?? 'USD';
  const listPrice = offer.price[currency];
  if (!vip && (!page.accepted_currencies.includes(currency) || listPrice === undefined)) {
    throw invalidField('currency', `the page has no ${type} price in ${currency}`);
  }
  const running = await store.findOne<PurchaseRecord>('ondemand_purchases', where({ user_id: buyer.id, page_id: page.id, type }), by('purchase_time', 'desc'));
  if (running && (running.expires_time === null || running.expires_time > now)) throw invalidField('type', `you already hold a ${type} of this page`);
  let price = listPrice ?? 0;
  let expires: Date | null;
  let download: boolean;
  if (promo) {
    const { row, promotion } = promo;
    price = promotion.discount_type === 'free' ? 0 : Math.round(price * (100 - promotion.percent_off!)) / 100;
    expires = periodEnd(at, promotion.stream_period);
    download = promotion.download;
    await store.increment<PromoCodeRecord>('ondemand_promo_codes', row.id, 'uses', 1);
    await store.increment<PromotionRecord>('ondemand_promotions', promotion.id, 'uses', 1);
  } else {
    // Without a promotion the page offers this kind, so a rental has its period.
    expires = type === 'rent' ? periodEnd(at, page.rent.period!) : type === 'subscribe' ? periodEnd(at, subscriptionPeriod) : null;
    download = type === 'buy' && page.buy.download;
  }
  const purchase = await store.insert<PurchaseRecord>('ondemand_purchases', {
    user_id: buyer.id,
    page_id: page.id,
    type,
    price,
    currency,
    download,
    promotion_id: promo?.promotion.id ?? null,
    promo_code: promo?.row.code ?? null,
    purchase_time: now,
    expires_time: expires && isoTime(expires),
  });
  const entry = await store.findOne<LibraryRecord>('ondemand_library', where({ user_id: buyer.id, page_id: page.id }));
  if (entry) await store.update<LibraryRecord>('ondemand_library', entry.id, { purchase_time: now });
  else await store.insert<LibraryRecord>('ondemand_library', { user_id: buyer.id, page_id: page.id, purchase_time: now });
  return purchase;
}
