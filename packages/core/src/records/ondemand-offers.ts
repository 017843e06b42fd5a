import type { OndemandPageRecord, PriceList, PurchaseType } from './ondemand';

/**
 * What an On Demand page sells now. SPEC.md lets a page be published or pre-ordered without a
 * main video (its state table: "allowed"); such a page is on show but has nothing to sell, and
 * its representation says so (`metadata.interactions.<buy|rent|subscribe>.reason`) rather than
 * the publication being refused (issue 22, item 4).
 */

/** What the page asks for a kind of purchase: whether it offers it and its prices (a subscription is priced in USD only). */
export function offerOf(page: OndemandPageRecord, type: PurchaseType): { active: boolean; price: PriceList } {
  return type === 'subscribe' ? page.subscription.monthly : page[type];
}

/** The reason a page without a main video gives for not selling anything. */
export const noMainVideo = 'the page has no main video';

/**
 * Why the page does not sell `type` now, or null when it does; the same for every caller. In
 * order: the page does not offer it at all, it has no main video, it is a draft, or it is up for
 * pre-order (which sells purchases only).
 */
export function unsoldReason(page: OndemandPageRecord, type: PurchaseType): string | null {
  if (!offerOf(page, type).active) return `the page does not offer ${type}`;
  if (page.main_total === 0) return noMainVideo;
  if (page.status === 'draft') return 'the page is a draft: it sells once published or up for pre-order';
  if (page.status === 'preorder' && type !== 'buy') return 'a page up for pre-order can only be bought';
  return null;
}
