import { isoTime } from '../support/time';

const DAY = 86_400_000;
const days = new Map<number, string>();
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * isoTime of a time in milliseconds, as a seed writes millions of them (every record and feed
 * event has one): the date part is formatted once per day, the time of day by arithmetic. The
 * same text as isoTime(new Date(ms)) at a fifth of the cost.
 */
export function isoFromMs(ms: number): string {
  const day = Math.floor(ms / DAY);
  let date = days.get(day);
  if (date === undefined) days.set(day, (date = isoTime(new Date(day * DAY)).slice(0, 11)));
  const seconds = Math.floor((ms - day * DAY) / 1000);
  return `${date}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}+00:00`;
}
