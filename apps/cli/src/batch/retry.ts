/** When to try a request again: the server's `Retry-After`, else exponential back-off. */

const firstBackoffMs = 500;
const maxBackoffMs = 30_000;

/** 500 ms, 1 s, 2 s… capped at 30 s, for the `attempt`-th retry (1-based). */
export const backoffMs = (attempt: number): number => Math.min(maxBackoffMs, firstBackoffMs * 2 ** (attempt - 1));

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds or an HTTP date
 * (RFC 9110 §10.2.3). Undefined when absent or unreadable; never negative.
 */
export function retryAfterMs(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const value = headers['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
