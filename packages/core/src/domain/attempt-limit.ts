import type { Store } from '../store/store';
import { eq, lte } from '../store/filters';
import { isoTime } from '../support/time';
import type { SignInFailureRecord } from './identity/records';

/**
 * Limits on guesses (sign-in, sign-up, video and album passwords), counted as rows in the store so
 * every server on one database shares them. An attempt is reserved in the same transaction that
 * checks the limit, before the slow password hash runs: a burst of concurrent guesses gets no more
 * hashes than the limit, where checking first and recording the failure after the hash let every
 * request of a burst through the check. An attempt that turns out to be allowed (the right
 * password) gives its reservation back.
 */

/** One count an attempt is held against: rows of `key` younger than the window, at most `max`. */
export interface AttemptCount {
  key: string;
  max: number;
}

export type Reservation = { ids: string[] } | { retryAfter: number };

/** Reserves one attempt against every count, or answers the seconds until one may be made (a count is full). */
export function reserveAttempt(store: Store, now: Date, windowSeconds: number, counts: AttemptCount[]): Promise<Reservation> {
  const windowMs = windowSeconds * 1000;
  return store.transaction(async (tx) => {
    // Rows older than the window count no more and have no other owner.
    await tx.deleteWhere('sign_in_failures', lte('created_time', isoTime(new Date(now.getTime() - windowMs))));
    let retryAfter: number | null = null;
    for (const { key, max } of counts) {
      const mine = eq('key', key);
      const used = await tx.count('sign_in_failures', mine);
      if (used < max) continue;
      // The row whose expiry makes room for one more.
      const { items } = await tx.find<SignInFailureRecord>('sign_in_failures', { where: mine, orderBy: [{ field: 'created_time', direction: 'asc' }], offset: used - max, limit: 1 });
      const until = items.length ? Date.parse(items[0].created_time) + windowMs : now.getTime() + windowMs;
      retryAfter = Math.max(retryAfter ?? 1, Math.ceil((until - now.getTime()) / 1000));
    }
    if (retryAfter !== null) return { retryAfter };
    const time = isoTime(now);
    return { ids: await tx.insertMany<SignInFailureRecord>('sign_in_failures', counts.map(({ key }) => ({ key, created_time: time }))) };
  });
}

/** Gives reserved attempts back (all of a reservation's ids, or some): they were allowed and count against nothing. */
export async function releaseAttempts(store: Store, ids: readonly string[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const id of ids) await tx.delete('sign_in_failures', id);
  });
}
