import { genres } from '../catalog/genres';
import type { Country } from '../catalog/countries';
import type { OndemandPageRecord, PurchaseRecord, PurchaseType } from '../domain/ondemand-records';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representGenre } from './ondemand-genre';
import { representRegion } from './ondemand-region';
import { representPicture } from './picture';
import { representUserSummary } from './user';

export const pageUri = (id: string): string => `/ondemand/pages/${id}`;

/** What the viewer bought of a page: their latest purchase of each kind, and the time "now" to tell what still runs. */
export interface PagePurchases {
  now: string;
  latest: Partial<Record<PurchaseType, PurchaseRecord>>;
}

/** What representPage needs besides the page: its owner, the viewer's purchases, and (before 3.3) its regions. */
export interface PageExtras {
  owner: UserRecord;
  purchases: PagePurchases | null;
  regions?: Country[];
}

/** An interaction to buy, rent or subscribe: whether the page offers it and whether the viewer holds it now. */
function offer(uri: string, offered: boolean, purchase: PurchaseRecord | undefined, now: string) {
  const running = !!purchase && (purchase.expires_time === null || purchase.expires_time > now);
  return {
    uri: `${uri}/purchases`,
    options: offered ? ['POST'] : [],
    active: offered,
    purchased: running,
    purchase_time: purchase?.purchase_time ?? null,
    expires_time: purchase?.expires_time ?? null,
    download: running && purchase!.download,
    price: purchase?.price ?? null,
    currency: purchase?.currency ?? null,
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
    link: `${ctx.baseUrl}/ondemand/${page.link ?? page.id}`,
    domain_link: page.domain_link ? `https://${page.domain_link}` : null,
    content_rating: page.content_rating,
    genres: page.genres.flatMap((id) => {
      const genre = genres.get(id);
      return genre ? [representGenre(genre, ctx)] : [];
    }),
    accepted_currencies: page.accepted_currencies,
    buy: film ? page.buy : { active: page.buy.active, price: page.buy.price },
    rent: page.rent,
    subscription: page.subscription,
    published: { enabled: page.status === 'published', time: page.publish_time },
    preorder: { active: page.status === 'preorder', publish_time: page.preorder_time },
    publish_when_ready: page.publish_when_ready,
    user: representUserSummary(extras.owner, ctx),
    pictures: poster ? representPicture(poster, `${uri}/pictures/${poster.id}`, ctx) : placeholderPicture(ctx, 'thumbnail'),
    background: background ? representPicture(background, `${uri}/backgrounds/${background.id}`, ctx) : null,
    created_time: page.created_time,
    modified_time: page.modified_time,
    resource_key: resourceKey('ondemand.page', page.id),
  };
  if (page.episodes) {
    // Before 3.3 the per-episode purchase offer was `episodes.purchase` (SPEC.md, Versioning 3.3).
    const { buy, rent } = page.episodes;
    out.episodes = current ? { buy, rent } : { purchase: { active: buy.active, price: buy.price }, rent };
  }
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
    if (current) {
      // SPEC.md names the video counts by type at this (doubled) path.
      const videos = { ...connection(`${uri}/videos`, page.videos_total), main_total: page.main_total, extra_total: page.extra_total };
      connections.metadata = { connections: { videos } };
    }
    const metadata: Record<string, unknown> = { connections };
    if (current) {
      const bought = extras.purchases;
      metadata.interactions =
        bought && !isOwner
          ? {
              buy: offer(uri, page.buy.active, bought.latest.buy, bought.now),
              rent: offer(uri, page.rent.active && page.status === 'published', bought.latest.rent, bought.now),
              subscribe: offer(uri, page.subscription.monthly.active && page.status === 'published', bought.latest.subscribe, bought.now),
            }
          : {};
    }
    out.metadata = metadata;
  }
  return out;
}
