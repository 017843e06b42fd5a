import type { Store } from '../store/store';
import { and, eq, isIn, where } from '../store/filters';
import type { FollowRecord, UserRecord } from '../records';
import { forbidden, invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import { spendFollowAllowance } from './follow-limit';

/** SPEC.md, Errors: the user cannot follow users. */
export const cannotFollow = 3417;
/** SPEC.md, Errors: the follow family answers 401 with 8000. */
export const followInvalidCredentials = 8000;

/** 403/3417 when an administrator took away the user's right to follow. */
export function assertMayFollow(user: UserRecord): void {
  if (!user.can_follow) throw forbidden('This user is not allowed to follow users.', cannotFollow);
}

export const findFollow = (store: Store, userId: string, targetId: string): Promise<FollowRecord | null> =>
  store.findOne<FollowRecord>('follows', where({ user_id: userId, target_id: targetId }));

/**
 * Makes `follower` follow every one of `targets` not followed yet, keeping both users' counters
 * exact. The new follows spend the rate limiter's allowance first (429, nothing written, beyond
 * it); following oneself is a 400 naming `field`.
 */
export async function addFollows(ctx: Context<unknown>, follower: UserRecord, targets: UserRecord[], field: string): Promise<void> {
  if (targets.some((t) => t.id === follower.id)) throw invalidField(field, 'must not name yourself: a user cannot follow themselves');
  const ids = [...new Set(targets.map((t) => t.id))];
  const { items } = await ctx.store.find<FollowRecord>('follows', { where: and(eq('user_id', follower.id), isIn('target_id', ids)) });
  const followed = new Set(items.map((f) => f.target_id));
  const fresh = ids.filter((id) => !followed.has(id));
  if (fresh.length === 0) return;
  await spendFollowAllowance(ctx, follower.id, fresh.length);
  const time = isoTime(ctx.now());
  for (const id of fresh) {
    await ctx.store.insert<FollowRecord>('follows', { user_id: follower.id, target_id: id, created_time: time });
    await ctx.store.increment('users', id, 'followers_total', 1);
  }
  await ctx.store.increment('users', follower.id, 'following_total', fresh.length);
}

/** Ends a follow, keeping both counters exact; false when `userId` did not follow `targetId`. */
export async function removeFollow(store: Store, userId: string, targetId: string): Promise<boolean> {
  if (!(await store.deleteWhere('follows', where({ user_id: userId, target_id: targetId })))) return false;
  await store.increment('users', userId, 'following_total', -1);
  await store.increment('users', targetId, 'followers_total', -1);
  return true;
}
