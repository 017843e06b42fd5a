import type { ClipOndemand, ClipPurchases } from '../records/ondemand';
import { offerOf, unsoldReason } from '../records/ondemand-offers';
import { resourceKey, type RepresentContext } from './common';

/** The Clip's `ondemand`, `season` and `trailer` connections: null for a video on no page the viewer may see. */
export function ondemandConnections(od: ClipOndemand | null): Record<string, unknown> {
  if (!od) return { ondemand: null, season: null, trailer: null };
  const page = `/ondemand/pages/${od.page.id}`;
  return {
    ondemand: { uri: page, options: ['GET'], resource_key: resourceKey('ondemand', od.page.id) },
    season: od.season ? { uri: `${page}/seasons/${od.season.id}`, options: ['GET'], name: `Season ${od.season.number}` } : null,
    trailer: od.trailer ? { uri: `${page}/videos/${od.trailer.video_id}`, options: ['GET'], resource_key: resourceKey('video', od.trailer.video_id) } : null,
  };
}

/**
 * The Clip's `buy` and `rent` interactions: null where the page does not offer that kind, else
 * its price for this video (the video's own, else the page's; reelbase prices in USD, its one
 * currency everywhere), and this viewer's access from their latest purchase of the page (purchases
 * are of whole pages). Nothing is DRM-protected.
 */
export function ondemandInteractions(od: ClipOndemand | null, purchases: ClipPurchases, ctx: RepresentContext): { buy: unknown; rent: unknown } {
  if (!od) return { buy: null, rent: null };
  const now = ctx.now.toISOString();
  const link = `${ctx.baseUrl}/ondemand/pages/${od.page.link ?? od.page.id}`;
  const offer = (type: 'buy' | 'rent') => {
    if (!offerOf(od.page, type).active) return null;
    const purchase = purchases[type];
    const running = runningAt(purchase, now);
    const sold = unsoldReason(od.page, type) === null;
    const price = (type === 'buy' ? od.row.buy_price : od.row.rent_price)?.USD ?? offerOf(od.page, type).price.USD ?? null;
    return {
      uri: `/ondemand/pages/${od.page.id}/purchases`,
      // As the page's own offer: a signed-in caller other than the owner may buy what is sold.
      options: sold && ctx.viewer && ctx.viewer.id !== od.page.user_id ? ['POST'] : [],
      link,
      price,
      display_price: price === null ? null : price.toFixed(2),
      currency: price === null ? null : 'USD',
      drm: false,
      purchase_time: purchase?.purchase_time ?? null,
      stream: running ? 'purchased' : sold ? 'available' : 'unavailable',
      ...(type === 'buy'
        ? { download: running ? (purchase!.download ? 'purchased' : 'restricted') : sold && od.page.buy.download ? 'available' : 'unavailable' }
        : { expires_time: purchase?.expires_time ?? null }),
    };
  };
  return { buy: offer('buy'), rent: offer('rent') };
}

/** Whether a purchase gives access at `now` (an ISO time): bought, or rented and not yet expired. */
export const runningAt = (purchase: ClipPurchases[keyof ClipPurchases], now: string): boolean =>
  !!purchase && (purchase.expires_time === null || new Date(purchase.expires_time).toISOString() > now);
