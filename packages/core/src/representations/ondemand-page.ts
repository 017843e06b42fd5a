import { genres } from '../catalog/genres';
import type { Country } from '../catalog/countries';
import { unsoldReason } from '../records/ondemand-offers';
import type { PageTotals, EpisodeOffers, OndemandPageRecord, PurchaseType, PagePurchases } from '../records/ondemand';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representGenre } from './ondemand-genre';
import { representRegion } from './ondemand-region';
import { representPicture } from './picture';
import { representUserSummary } from './user';

export const pageUri = (id: string): string => `/ondemand/pages/${id}`;

/**
 * What representPage needs besides the page: its owner, the viewer's purchases (none for
 * anonymous callers and the owner), before 3.3 its regions, and from 3.3 (`ondemandFields`, SPEC.md's On Demand fields) its trailer
 * as the viewer may see it and the totals of its lists that depend on the viewer.
 */
export interface PageExtras {
  owner: UserRecord;
  purchases: PagePurchases;
  regions?: Country[];
  ondemandFields?: { trailer: Record<string, unknown> | null; totals: PageTotals };
}

/** A series' episode offers as a film shows them: it sells no episodes. */
const noEpisodes: EpisodeOffers = { buy: { active: false, download: false, price: {} }, rent: { active: false, period: null, price: {} } };

/**
 * An interaction to buy, rent or subscribe, present for every caller. `active`: the page sells it
 * now; `reason`: null when it does, else why not, the same for every caller (the page does not
 * offer it, has no main video, is a draft, or is up for pre-order and sells purchases only; see
 * unsoldReason). `options` is what this caller may do: POST when it is sold and the caller is
 * signed in and not the owner. The rest is the caller's own latest purchase of that kind.
 */
function offer(uri: string, type: PurchaseType, page: OndemandPageRecord, mayBuy: boolean, purchases: PagePurchases) {
  const reason = unsoldReason(page, type);
  const purchase = purchases.latest[type];
  const running = !!purchase && (purchase.expires_time === null || purchase.expires_time > purchases.now);
  return {
    uri: `${uri}/purchases`,
    options: reason === null && mayBuy ? ['POST'] : [],
    active: reason === null,
    reason,
    purchased: running,
    purchase_time: purchase?.purchase_time ?? null,
    expires_time: purchase?.expires_time ?? null,
    download: running && purchase!.download,
    price: purchase?.price ?? null,
    currency: purchase?.currency ?? null,
  };
}

/**
 * The page's fields added with the other On Demand fields in 3.3 (SPEC.md, Versioning), beyond
 * those SPEC.md names: the pre-order's times, the subscription as the hosted API describes it,
 * the trailer, and the empty forms of what reelbase has no
 * feature for: no page theme or colours (reelbase draws no On Demand page), no ratings by
 * viewers, no thumbnail besides the posters.
 */
function addedFields(page: OndemandPageRecord, trailer: Record<string, unknown> | null, link: string): Record<string, unknown> {
  const { monthly } = page.subscription;
  return {
    preorder: { active: page.status === 'preorder', publish_time: page.preorder_time, time: page.preorder_start_time, cancel_time: page.preorder_cancel_time },
    // The page is where the subscription is sold (its `metadata.interactions.subscribe`).
    subscription: { ...page.subscription, active: monthly.active, price: monthly.price, link: monthly.active ? link : null },
    trailer,
    thumbnail: null,
    colors: { primary: null, secondary: null },
    theme: null,
    rating: null,
  };
}

/** The On Demand Page representation. */
export function representPage(page: OndemandPageRecord, extras: PageExtras, ctx: RepresentContext): Record<string, unknown> {
  const uri = pageUri(page.id);
  const isOwner = ctx.viewer?.id === page.user_id;
  const film = page.type === 'film';
  const poster = page.active_poster;
  const background = page.active_background;
  const current = since(ctx.version, 'ondemandFields');
  const out: Record<string, unknown> = {
    uri,
    name: page.name,
    description: page.description,
    type: page.type,
    // The page's address on this server, by its custom link where it has one (issue 22: a link must answer).
    link: `${ctx.baseUrl}/ondemand/pages/${page.link ?? page.id}`,
    domain_link: page.domain_link ? `https://${page.domain_link}` : null,
    content_rating: page.content_rating,
    genres: page.genres.flatMap((id) => {
      const genre = genres.get(id);
      return genre ? [representGenre(genre, ctx, { pageUri: uri, isOwner })] : [];
    }),
    accepted_currencies: page.accepted_currencies,
    buy: film ? page.buy : { active: page.buy.active, price: page.buy.price },
    rent: page.rent,
    subscription: page.subscription,
    published: { enabled: page.status === 'published', time: page.publish_time },
    preorder: { active: page.status === 'preorder', publish_time: page.preorder_time },
    publish_when_ready: page.publish_when_ready,
    user: representUserSummary(extras.owner, ctx),
    pictures: poster ? representPicture(poster, `${uri}/pictures/${poster.id}`, ctx, page.user_id) : placeholderPicture(ctx, 'thumbnail'),
    background: background ? representPicture(background, `${uri}/backgrounds/${background.id}`, ctx, page.user_id) : null,
    created_time: page.created_time,
    modified_time: page.modified_time,
    resource_key: resourceKey('ondemand.page', page.id),
  };
  // A film sells no episodes; from 3.3 it says so with empty offers.
  const episodes = page.episodes ?? (current ? noEpisodes : null);
  if (episodes) {
    // Before 3.3 the per-episode purchase offer was `episodes.purchase` (SPEC.md, Versioning 3.3).
    const { buy, rent } = episodes;
    out.episodes = current ? { buy, rent } : { purchase: { active: buy.active, price: buy.price }, rent };
  }
  const added = extras.ondemandFields;
  if (added) Object.assign(out, addedFields(page, added.trailer, out.link as string));
  if (!current && extras.regions) out.regions = extras.regions.map(representRegion);
  if (since(ctx.version, 'connections')) {
    const connections: Record<string, unknown> = {
      videos: connection(`${uri}/videos`, page.videos_total),
      likes: { uri: `${uri}/likes`, options: ['GET'] },
      pictures: connection(`${uri}/pictures`, page.posters_total, isOwner ? ['GET', 'POST'] : ['GET']),
      backgrounds: connection(`${uri}/backgrounds`, page.backgrounds_total, isOwner ? ['GET', 'POST'] : ['GET']),
      regions: connection(`${uri}/regions`, page.regions_total, isOwner ? ['GET', 'DELETE'] : ['GET']),
    };
    if (!film) connections.seasons = connection(`${uri}/seasons`, page.seasons_total);
    if (isOwner) connections.promotions = connection(`${uri}/promotions`, page.promotions_total, ['GET', 'POST']);
    if (added) {
      // SPEC.md names the video counts by type at this (doubled) path; the hosted API puts the page's other lists beside them.
      const { totals } = added;
      connections.metadata = {
        connections: {
          videos: { ...connection(`${uri}/videos`, page.videos_total), main_total: page.main_total, extra_total: page.extra_total, viewable_total: totals.viewable },
          genres: connection(`${uri}/genres`, page.genres.length),
          likes: connection(`${uri}/likes`, totals.likes),
          comments: connection(`${uri}/comments`, totals.comments),
          pictures: connection(`${uri}/pictures`, page.posters_total, isOwner ? ['GET', 'POST'] : ['GET']),
          seasons: connection(`${uri}/seasons`, page.seasons_total),
        },
      };
    }
    const metadata: Record<string, unknown> = { connections };
    if (current) {
      const mayBuy = !!ctx.viewer && !isOwner;
      metadata.interactions = {
        buy: offer(uri, 'buy', page, mayBuy, extras.purchases),
        rent: offer(uri, 'rent', page, mayBuy, extras.purchases),
        subscribe: offer(uri, 'subscribe', page, mayBuy, extras.purchases),
      };
    }
    out.metadata = metadata;
  }
  return out;
}
