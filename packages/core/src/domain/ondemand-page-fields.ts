import { array, boolean, enums, max, min, number, object, optional, pattern, refine, size, string, type, type Infer } from 'superstruct';
import { contentRatings } from '../catalog/content';
import { currencies, rentalPeriods } from '../catalog/ondemand-prices';
import { invalidField } from '../engine/errors';
import { isoTime } from '../support/time';
import type { OndemandPageRecord, PriceList } from '../records/ondemand';

const bool = () => optional(boolean());
/** A price: more than nothing, less than absurd. */
export const price = () => optional(max(min(number(), 0, { exclusive: true }), 100_000));
/**
 * `price.<CUR>` for each of `list`. A price in any other currency is a 400 naming it rather than
 * dropped like an unknown field: `type` keeps the other keys for the refinement to see.
 */
const pricesIn = (list: readonly string[]) =>
  optional(
    refine(type(Object.fromEntries(list.map((c) => [c, price()]))), 'currency', (value, ctx) =>
      Object.keys(value)
        .filter((c) => !list.includes(c))
        .map((c) => ({ path: [...ctx.path, c], message: `is not a price in a listed currency (${list.join(', ')})` })),
    ),
  );
/** `price.<CUR>` for every currency of the list. */
export const priceList = () => pricesIn(currencies);
const usdOnly = () => pricesIn(['USD']);
const period = () => optional(enums(rentalPeriods));

/** A custom URL part: letters, digits, `-` and `_`, not all digits (so it never reads as an id). */
export const pageLink = pattern(size(string(), 1, 64), /^(?!\d+$)[A-Za-z0-9_-]+$/);

/** SPEC.md's creation table of On Demand pages; the rules between fields are in checkPageRules. */
export const pageFields = object({
  name: size(string(), 1, 128),
  description: size(string(), 1, 5000),
  type: enums(['film', 'series']),
  content_rating: size(array(enums(contentRatings)), 1, contentRatings.length),
  link: optional(pageLink),
  domain_link: optional(pattern(size(string(), 3, 253), /^(?=.*\.)[A-Za-z0-9.-]+$/)),
  accepted_currencies: optional(size(array(enums(currencies)), 1, currencies.length)),
  buy: optional(object({ active: bool(), download: bool(), price: priceList() })),
  rent: optional(object({ active: bool(), period: period(), price: priceList() })),
  episodes: optional(
    object({
      buy: optional(object({ active: bool(), download: bool(), price: usdOnly() })),
      rent: optional(object({ active: bool(), period: period(), price: usdOnly() })),
    }),
  ),
  subscription: optional(object({ monthly: optional(object({ active: bool(), price: usdOnly() })) })),
});
export type PageInput = Infer<typeof pageFields>;
type GivenPrices = Record<string, number | undefined>;

/** Dot paths of the leaves given under `value` (`episodes.buy.active`…), in request order. */
function givenLeaves(value: unknown, prefix: string): string[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => givenLeaves(v, `${prefix}.${k}`));
}

/**
 * The rules of the creation table that tie fields together, each a 400 naming the field:
 * one way to pay at least, a USD price and a period for each active way, downloads and episode
 * offers only for the page type they fit, and prices only in the accepted currencies.
 */
export function checkPageRules(input: PageInput): void {
  const { buy, rent, episodes, subscription } = input;
  const series = input.type === 'series';
  if (buy?.download && series) throw invalidField('buy.download', 'only film pages offer the film for download; series use episodes.buy.download');
  if (!series) {
    const episodeField = givenLeaves(episodes, 'episodes')[0];
    if (episodeField) throw invalidField(episodeField, 'episode offers are for series pages only');
  }
  const monthly = subscription?.monthly;
  if (!buy?.active && !rent?.active && !monthly?.active) {
    if (buy?.active === undefined) throw invalidField('buy.active', 'is required when rent.active is false: the page needs a way to pay');
    if (rent?.active === undefined) throw invalidField('rent.active', 'is required when buy.active is false: the page needs a way to pay');
    throw invalidField('subscription.monthly.active', 'must be true when buy.active and rent.active are false: the page needs a way to pay');
  }
  if (buy?.active && buy.price?.USD === undefined) throw invalidField('buy.price.USD', 'is required when buy.active is true');
  if (rent?.active && !rent.period) throw invalidField('rent.period', 'is required when rent.active is true');
  if (rent?.active && rent.price?.USD === undefined) throw invalidField('rent.price.USD', 'is required when rent.active is true');
  if (episodes?.buy?.active && episodes.buy.price?.USD === undefined) {
    throw invalidField('episodes.buy.price.USD', 'is required when episodes.buy.active is true');
  }
  if (episodes?.rent?.active && !episodes.rent.period) throw invalidField('episodes.rent.period', 'is required when episodes.rent.active is true');
  if (episodes?.rent?.active && episodes.rent.price?.USD === undefined) {
    throw invalidField('episodes.rent.price.USD', 'is required when episodes.rent.active is true');
  }
  if (monthly?.active && monthly.price?.USD === undefined) {
    throw invalidField('subscription.monthly.price.USD', 'is required when subscription.monthly.active is true');
  }
  const accepted = input.accepted_currencies;
  if (accepted) {
    const prices: [string, GivenPrices | undefined][] = [
      ['buy.price', buy?.price],
      ['rent.price', rent?.price],
      ['episodes.buy.price', episodes?.buy?.price],
      ['episodes.rent.price', episodes?.rent?.price],
      ['subscription.monthly.price', monthly?.price],
    ];
    for (const [field, list] of prices) {
      const stray = Object.keys(list ?? {}).find((c) => !accepted.includes(c as (typeof accepted)[number]));
      if (stray) throw invalidField(`${field}.${stray}`, `${stray} is not among accepted_currencies`);
    }
  }
}

/** How strict a content rating is, for `sort=rating`: family-friendly first, unrated last. */
const ratingOrder = ['safe', 'language', 'drugs', 'violence', 'nudity', 'unrated'];
export const ratingRank = (ratings: readonly string[]): number => Math.max(...ratings.map((r) => ratingOrder.indexOf(r)));

/** Prices as validated (absent currencies may read as undefined) → the stored list. */
const prices = (list: GivenPrices | undefined): PriceList =>
  Object.fromEntries(Object.entries(list ?? {}).filter((e): e is [string, number] => e[1] !== undefined));

/** The record a new page starts as: a draft with the request's offers. */
export function newPage(ownerId: string, input: PageInput, now: Date): Omit<OndemandPageRecord, 'id'> {
  const time = isoTime(now);
  const { buy, rent, episodes, subscription } = input;
  const priced = [...Object.keys(buy?.price ?? {}), ...Object.keys(rent?.price ?? {}), 'USD'];
  return {
    user_id: ownerId,
    name: input.name,
    description: input.description,
    type: input.type,
    content_rating: [...new Set(input.content_rating)],
    rating_rank: ratingRank(input.content_rating),
    link: input.link?.toLowerCase() ?? null,
    domain_link: input.domain_link?.toLowerCase() ?? null,
    // Without a list, a page accepts the currencies it has prices in.
    accepted_currencies: [...new Set(input.accepted_currencies ?? currencies.filter((c) => priced.includes(c)))],
    buy: { active: buy?.active ?? false, download: buy?.download ?? false, price: prices(buy?.price) },
    rent: { active: rent?.active ?? false, period: rent?.period ?? null, price: prices(rent?.price) },
    episodes:
      input.type === 'series'
        ? {
            buy: { active: episodes?.buy?.active ?? false, download: episodes?.buy?.download ?? false, price: prices(episodes?.buy?.price) },
            rent: { active: episodes?.rent?.active ?? false, period: episodes?.rent?.period ?? null, price: prices(episodes?.rent?.price) },
          }
        : null,
    subscription: { monthly: { active: subscription?.monthly?.active ?? false, price: prices(subscription?.monthly?.price) } },
    status: 'draft',
    publish_time: null,
    preorder_time: null,
    preorder_start_time: null,
    preorder_cancel_time: null,
    publish_when_ready: false,
    genres: [],
    active_poster: null,
    active_background: null,
    main_total: 0,
    extra_total: 0,
    trailer_total: 0,
    videos_total: 0,
    seasons_total: 0,
    posters_total: 0,
    backgrounds_total: 0,
    promotions_total: 0,
    regions_total: 0,
    created_time: time,
    modified_time: time,
  };
}
