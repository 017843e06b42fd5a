import type { PictureRecord } from '../records';

/** Prices by currency code (`{ USD: 9.99, EUR: 8.99 }`). */
export type PriceList = Record<string, number>;

/** `draft` until published; `preorder` while waiting for `preorder_time`; `published` for good. */
export type PageStatus = 'draft' | 'preorder' | 'published';

/** How episodes of a series are sold one by one. */
export interface EpisodeOffers {
  buy: { active: boolean; download: boolean; price: PriceList };
  rent: { active: boolean; period: string | null; price: PriceList };
}

/** An On Demand page as stored. Counters are kept in step by the operations that change their rows. */
export type OndemandPageRecord = {
  id: string;
  user_id: string;
  name: string;
  description: string;
  type: 'film' | 'series';
  content_rating: string[];
  /** Sort key of `sort=rating`: the strictest content rating of the page (see ratingRank). */
  rating_rank: number;
  /** Custom URL part, lower case, unique when set. */
  link: string | null;
  /** Custom domain, lower case, unique when set. */
  domain_link: string | null;
  accepted_currencies: string[];
  buy: { active: boolean; download: boolean; price: PriceList };
  rent: { active: boolean; period: string | null; price: PriceList };
  /** Series only; null for films. */
  episodes: EpisodeOffers | null;
  subscription: { monthly: { active: boolean; price: PriceList } };
  status: PageStatus;
  publish_time: string | null;
  /** `preorder.publish_time`: when a pre-order page publishes itself. */
  preorder_time: string | null;
  /** `preorder.time`: when the page last went up for pre-order. */
  preorder_start_time: string | null;
  /** `preorder.cancel_time`: when that pre-order was called off (the page back to draft); null while it holds. */
  preorder_cancel_time: string | null;
  publish_when_ready: boolean;
  /** Genre ids, in the order added (their rows live in `ondemand_page_genres`). */
  genres: string[];
  active_poster: PictureRecord | null;
  active_background: PictureRecord | null;
  main_total: number;
  extra_total: number;
  trailer_total: number;
  /** All videos of the page (main + extra + trailer), for `sort=videos`. */
  videos_total: number;
  seasons_total: number;
  posters_total: number;
  backgrounds_total: number;
  promotions_total: number;
  regions_total: number;
  created_time: string;
  modified_time: string;
};

export type PageGenreRecord = { id: string; page_id: string; genre: string; created_time: string };

/** A country a page is sold in; a page without any is sold everywhere. */
export type PageRegionRecord = { id: string; page_id: string; country: string; created_time: string };

export type VideoKind = 'extra' | 'main' | 'trailer';

/** A video on a page; a video is on at most one page. */
export type PageVideoRecord = {
  id: string;
  page_id: string;
  video_id: string;
  type: VideoKind;
  position: number;
  release_year: number | null;
  /** Series main videos belong to a season. */
  season_id: string | null;
  /**
   * The video's own prices, as PUT gave them (`buy.price.<CUR>`, `rent.price.<CUR>`), on any page
   * type; answered back in the video's `ondemand.buy.price` and `ondemand.rent.price`. Purchases
   * (POST …/purchases) are of the whole page, at the page's prices.
   */
  buy_price: PriceList;
  rent_price: PriceList;
  created_time: string;
  modified_time: string;
};

/** A season of a series page; it exists while it has videos. */
export type SeasonRecord = { id: string; page_id: string; number: number; videos_total: number; created_time: string };

export type PromotionRecord = {
  id: string;
  page_id: string;
  type: 'batch' | 'single';
  total: number;
  download: boolean;
  stream_period: string;
  access_type: 'default' | 'vip';
  /** Single promotions: the code; null for batch ones (their codes are rows of `ondemand_promo_codes`). */
  code: string | null;
  /** Batch promotions: a description; null for single ones. */
  label: string | null;
  discount_type: 'free' | 'percent';
  percent_off: number | null;
  product_type: string;
  start_time: string;
  end_time: string | null;
  /** Times any of its codes was redeemed. */
  uses: number;
  created_time: string;
};

/** A redeemable code: one per single promotion (used up to `total` times), `total` per batch one (once each). */
export type PromoCodeRecord = {
  id: string;
  page_id: string;
  promotion_id: string;
  /** Upper case: codes are matched case-insensitively. */
  code: string;
  max_uses: number;
  uses: number;
  created_time: string;
};

export type PurchaseType = 'buy' | 'rent' | 'subscribe';

/** One purchase (no payment is taken: the service records what was bought, for how much and until when). */
export type PurchaseRecord = {
  id: string;
  user_id: string;
  page_id: string;
  type: PurchaseType;
  price: number;
  currency: string;
  download: boolean;
  promotion_id: string | null;
  promo_code: string | null;
  purchase_time: string;
  /** Null when access never ends (a purchase without a promotion). */
  expires_time: string | null;
};

/** A page in a user's library: one row per user and page, touched on every purchase (the list's order). */
export type LibraryRecord = { id: string; user_id: string; page_id: string; purchase_time: string };

/** The totals of a page's doubled `metadata.connections` that depend on the viewer. */
export interface PageTotals {
  /** Videos of the page the viewer may see (GET …/videos). */
  viewable: number;
  /** Users who liked them (GET …/likes). */
  likes: number;
  /** Comments on them (GET …/comments). */
  comments: number;
}

/** What the viewer bought of a page: their latest purchase of each kind, and the time "now" to tell what still runs. */
export interface PagePurchases {
  now: string;
  latest: Partial<Record<PurchaseType, PurchaseRecord>>;
}

/** A video's place on an On Demand page the viewer may see (domain/clip-ondemand.ts). */
export interface ClipOndemand {
  page: OndemandPageRecord;
  row: PageVideoRecord;
  season: SeasonRecord | null;
  /** The page's first trailer the viewer may watch. */
  trailer: PageVideoRecord | null;
}

/** The latest purchase of each kind the viewer made of the video's page (as the page's own representation reads them). */
export type ClipPurchases = PagePurchases['latest'];
