import ipaddr from 'ipaddr.js';
import { isoTime } from '../support/time';
import { ApiError } from './errors';
import type { RateLimit, RateQuota, RateLimiter } from '../store/rate-limiter';

/** The number of the fixed window `now` falls in (multiples of `windowSeconds` since the epoch). */
export const rateWindow = (now: Date, windowSeconds: number): number => Math.floor(now.getTime() / (windowSeconds * 1000));

/** When window number `window` ends and every allowance is whole again. */
export const rateReset = (window: number, windowSeconds: number): Date => new Date((window + 1) * windowSeconds * 1000);

/** The quota of the `used`-th request (this one included) of the window ending at `reset`. */
export const rateQuota = ({ max }: RateLimit, reset: Date, used: number): RateQuota => ({
  limit: max,
  remaining: Math.max(0, max - used),
  reset,
  allowed: used <= max,
});

/**
 * Fixed windows aligned on multiples of `windowSeconds` since the epoch, so every key resets at
 * the same instants and a shared store can count in one row per key and window. When a window
 * ends the whole map is dropped: memory holds one window's callers, and nothing is written per request.
 */
export function memoryRateLimiter(limit: RateLimit): RateLimiter {
  let window = Number.NaN;
  let reset = new Date(0);
  let counts = new Map<string, number>();
  return {
    take(key, now) {
      const current = rateWindow(now, limit.windowSeconds);
      if (current !== window) {
        window = current;
        reset = rateReset(current, limit.windowSeconds);
        counts = new Map();
      }
      const used = (counts.get(key) ?? 0) + 1;
      counts.set(key, used);
      return rateQuota(limit, reset, used);
    },
  };
}

/**
 * Whose allowance a request spends: its token's when the token is valid, otherwise its client
 * address's (a refused token spends the address's too, so inventing tokens buys no requests).
 * In-process callers without an address share the key `address:local`.
 */
export const rateKey = (tokenHash: string | null, clientAddress: string | undefined): string =>
  tokenHash ? `token:${tokenHash}` : `address:${clientAddress ? addressGroup(clientAddress) : 'local'}`;

/**
 * An IPv4 address as is (IPv4-mapped IPv6 included); an IPv6 address by its /64 prefix, because
 * one host or home usually holds a whole /64 and could otherwise take a fresh address per request.
 * Anything else (no address to parse) as given.
 */
export function addressGroup(address: string): string {
  const plain = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(plain)) return plain;
  const parsed = ipaddr.process(plain);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/** SPEC.md names codes only for the follow limiter (9006); the general limit takes the family's 9000. */
export const rateLimitedCode = 9000;

/** The X-RateLimit-* headers of a quota (the reset as ISO 8601, CONVENTIONS.md). */
export const quotaHeaders = (quota: RateQuota): Record<string, string> => ({
  'X-RateLimit-Limit': String(quota.limit),
  'X-RateLimit-Remaining': String(quota.remaining),
  'X-RateLimit-Reset': isoTime(quota.reset),
});

/** 429/9000 with Retry-After: the seconds until the window resets. */
export function rateLimited(quota: RateQuota, now: Date): ApiError {
  const retryAfter = Math.max(1, Math.ceil((quota.reset.getTime() - now.getTime()) / 1000));
  return new ApiError(
    429,
    rateLimitedCode,
    "You've made too many requests. Please try again later.",
    `At most ${quota.limit} requests are allowed per window for this access token or address; the window resets at ${isoTime(quota.reset)}. Retry in ${retryAfter} seconds.`,
    undefined,
    { 'Retry-After': String(retryAfter) },
  );
}
