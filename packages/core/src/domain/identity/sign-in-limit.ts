import type { Store } from '../../store/store';
import { and, eq, gt, lte } from '../../store/filters';
import type { ServiceConfig } from '../../engine/config';
import { isoTime } from '../../representations/common';
import type { SignInFailureRecord } from './records';
import { normaliseEmail } from './accounts';

/**
 * Failed sign-ins are counted per account (by the email typed, so an address with no account is
 * counted alike and its answers tell nothing) and per client address, as rows in the store: every
 * server on one database sees the same count.
 */
type Limit = ServiceConfig['signInLimit'];

export const failureKeys = (email: string, address: string | undefined): { account: string; address: string | null } => ({
  account: `account:${normaliseEmail(email)}`,
  address: address ? `address:${address}` : null,
});

/** Seconds until another attempt may be made, or null when one may be made now. */
export async function signInWait(store: Store, now: Date, limit: Limit, keys: ReturnType<typeof failureKeys>): Promise<number | null> {
  const since = isoTime(new Date(now.getTime() - limit.windowSeconds * 1000));
  const checks: [string, number][] = [[keys.account, limit.perAccount], ...(keys.address ? [[keys.address, limit.perAddress] as [string, number]] : [])];
  let wait: number | null = null;
  for (const [key, max] of checks) {
    const where = and(eq('key', key), gt('created_time', since));
    if ((await store.count('sign_in_failures', where)) < max) continue;
    const oldest = await store.findOne<SignInFailureRecord>('sign_in_failures', where, [{ field: 'created_time', direction: 'asc' }]);
    const seconds = oldest ? Math.ceil((Date.parse(oldest.created_time) + limit.windowSeconds * 1000 - now.getTime()) / 1000) : limit.windowSeconds;
    wait = Math.max(wait ?? 1, seconds, 1);
  }
  return wait;
}

/** Counts one failure against each key; rows older than the window go (they count no more and have no other owner). */
export async function recordFailure(store: Store, now: Date, limit: Limit, keys: ReturnType<typeof failureKeys>): Promise<void> {
  const list = [keys.account, ...(keys.address ? [keys.address] : [])];
  await store.deleteWhere('sign_in_failures', lte('created_time', isoTime(new Date(now.getTime() - limit.windowSeconds * 1000))));
  await store.insertMany<SignInFailureRecord>('sign_in_failures', list.map((key) => ({ key, created_time: isoTime(now) })));
}
