import { randomBytes } from 'node:crypto';
import { boolean, enums, integer, max, min, object, optional, pattern, size, string, type Infer } from 'superstruct';
import { streamPeriods } from '../catalog/ondemand-prices';
import { ApiError, codes, invalidField, notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { since } from '../engine/versions';
import { where } from '../store/filters';
import { type Store, StoreConflictError } from '../store/store';
import { isoTime } from '../support/time';
import { readDateTime } from './date-time';
import { findById } from './lookup';
import type { OndemandPageRecord, PromoCodeRecord, PromotionRecord } from '../records/ondemand';

export const productTypes = ['any', 'buy', 'buy_episode', 'rent', 'rent_episode', 'subscribe'] as const;

/** A batch makes one code per promotion it holds; more than this is a job for several batches. */
export const maxBatch = 1000;

/** SPEC.md's field table of POST /ondemand/pages/{id}/promotions; the rules between fields are in newPromotion. */
export const promotionFields = object({
  type: enums(['batch', 'single']),
  total: max(min(integer(), 1), 1_000_000),
  download: boolean(),
  stream_period: enums(streamPeriods),
  access_type: optional(enums(['default', 'vip'])),
  code: optional(pattern(size(string(), 1, 50), /^[A-Za-z0-9_-]+$/)),
  label: optional(size(string(), 0, 255)),
  discount_type: optional(enums(['free', 'percent'])),
  percent_off: optional(max(min(integer(), 1), 100)),
  product_type: optional(enums(productTypes)),
  start_time: optional(size(string(), 1, 64)),
  end_time: optional(size(string(), 1, 64)),
});
export type PromotionInput = Infer<typeof promotionFields>;

/**
 * The promotion a request describes, after the table's cross-field rules, each a 400 naming the
 * field: vip access is a free batch for buying or renting; percent discounts need their percent;
 * episode products need a series; the end comes after the start. A code belongs to single
 * promotions and a label to batches: each is ignored on the other type.
 */
export function newPromotion(page: OndemandPageRecord, input: PromotionInput, now: Date): Omit<PromotionRecord, 'id'> {
  const vip = input.access_type === 'vip';
  if (vip && input.type !== 'batch') throw invalidField('type', 'must be batch when access_type is vip');
  if (vip && input.discount_type && input.discount_type !== 'free') throw invalidField('discount_type', 'must be free when access_type is vip');
  if (vip && input.product_type && input.product_type !== 'buy' && input.product_type !== 'rent') {
    throw invalidField('product_type', 'must be buy or rent when access_type is vip');
  }
  if (input.product_type?.endsWith('_episode') && page.type !== 'series') throw invalidField('product_type', 'episode products exist on series pages only');
  const discount = input.discount_type ?? 'free';
  if (discount === 'percent' && input.percent_off === undefined) throw invalidField('percent_off', 'is required when discount_type is percent');
  if (input.type === 'batch' && input.total > maxBatch) throw invalidField('total', `a batch makes at most ${maxBatch} codes`);
  const start = input.start_time !== undefined ? readDateTime(input.start_time, 'start_time') : now;
  const end = input.end_time !== undefined ? readDateTime(input.end_time, 'end_time') : null;
  if (end && end <= start) throw invalidField('end_time', 'must be after start_time');
  const single = input.type === 'single';
  return {
    page_id: page.id,
    type: input.type,
    total: input.total,
    download: input.download,
    stream_period: input.stream_period,
    access_type: vip ? 'vip' : 'default',
    code: single ? (input.code ?? newCode()).toUpperCase() : null,
    label: single ? null : (input.label ?? null),
    discount_type: discount,
    percent_off: discount === 'percent' ? input.percent_off! : null,
    product_type: input.product_type ?? (vip ? 'rent' : 'any'),
    start_time: isoTime(start),
    end_time: end && isoTime(end),
    uses: 0,
    created_time: isoTime(now),
  };
}

/** A code nobody will guess: ten upper-case letters and digits. */
function newCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Stores a promotion with its codes: the single code used up to `total` times, or `total` one-use batch codes. */
export async function insertPromotion(store: Store, record: Omit<PromotionRecord, 'id'>): Promise<PromotionRecord> {
  const promotion = await store.insert<PromotionRecord>('ondemand_promotions', record);
  const code = (value: string, maxUses: number) =>
    store.insert<PromoCodeRecord>('ondemand_promo_codes', {
      page_id: promotion.page_id,
      promotion_id: promotion.id,
      code: value,
      max_uses: maxUses,
      uses: 0,
      created_time: promotion.created_time,
    });
  try {
    if (promotion.code) await code(promotion.code, promotion.total);
    else for (let i = 0; i < promotion.total; i++) await code(newCode(), 1);
  } catch (e) {
    if (e instanceof StoreConflictError) throw invalidField('code', 'promo code already exists on this page');
    throw e;
  }
  await store.increment<OndemandPageRecord>('ondemand_pages', promotion.page_id, 'promotions_total', 1);
  return promotion;
}

/**
 * SPEC.md: creating and deleting promotions needs `promo_codes` "and create (delete) in a later
 * form". The later form is the current one, 3.4, as for page creation ("200 in an earlier form");
 * a 403 naming the scope as the table's own check does.
 */
export function assertLaterFormScope(ctx: Context<unknown>, scope: 'create' | 'delete'): void {
  if (!since(ctx.version, 'ondemandCurrentForm') || ctx.principal.scopes.has(scope)) return;
  throw new ApiError(
    403,
    codes.notPermitted,
    'Your access token does not have the scope this needs.',
    `From version 3.4 this operation needs the "${scope}" scope as well as "promo_codes", which the access token lacks.`,
  );
}

/** The promotion of `page` the path names (404 when missing or another page's). */
export async function loadPromotion(ctx: Context<unknown>, page: OndemandPageRecord): Promise<PromotionRecord> {
  const promotion = await findById<PromotionRecord>(ctx.store, 'ondemand_promotions', ctx.path.promotion_id);
  if (!promotion || promotion.page_id !== page.id) throw notFound('promotion');
  return promotion;
}

/** Deletes a promotion and its codes; purchases made with it keep what they paid. */
export async function deletePromotion(store: Store, promotion: PromotionRecord): Promise<void> {
  await store.deleteWhere('ondemand_promo_codes', where({ promotion_id: promotion.id }));
  await store.delete('ondemand_promotions', promotion.id);
  await store.increment<OndemandPageRecord>('ondemand_pages', promotion.page_id, 'promotions_total', -1);
}
