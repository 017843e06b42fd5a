/** Currencies On Demand prices are given in (SPEC.md, On Demand). */
export const currencies = ['AUD', 'CAD', 'CHF', 'DKK', 'EUR', 'GBP', 'JPY', 'KRW', 'NOK', 'PLN', 'SEK', 'USD'] as const;
export type Currency = (typeof currencies)[number];

type Unit = 'hour' | 'day' | 'week' | 'month' | 'year';
const rentalSpans: Record<string, [number, Unit]> = {
  '24 hour': [24, 'hour'],
  '48 hour': [48, 'hour'],
  '72 hour': [72, 'hour'],
  '1 week': [1, 'week'],
  '30 day': [30, 'day'],
  '3 month': [3, 'month'],
  '6 month': [6, 'month'],
  '1 year': [1, 'year'],
};

/** Rental periods of pages and videos (`rent.period`). */
export const rentalPeriods = Object.keys(rentalSpans);

/** Promotion stream periods: the rental periods spelled with underscores. */
export const streamPeriods = rentalPeriods.map((p) => p.replace(' ', '_'));

/** What a monthly subscription buys: a calendar month. */
export const subscriptionPeriod = '1 month';

const spans: Record<string, [number, Unit]> = { ...rentalSpans, [subscriptionPeriod]: [1, 'month'] };

/** When access bought at `start` for a rental, stream or subscription period ends; months and years are calendar ones. */
export function periodEnd(start: Date, period: string): Date {
  const [n, unit] = spans[period.replace('_', ' ')];
  const end = new Date(start);
  if (unit === 'hour') end.setUTCHours(end.getUTCHours() + n);
  else if (unit === 'day') end.setUTCDate(end.getUTCDate() + n);
  else if (unit === 'week') end.setUTCDate(end.getUTCDate() + 7 * n);
  else if (unit === 'month') end.setUTCMonth(end.getUTCMonth() + n);
  else end.setUTCFullYear(end.getUTCFullYear() + n);
  return end;
}
