import { and, eq, lte } from '../store/filters';
import { ApiError } from '../engine/errors';
import { by } from '../engine/list';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import type { FollowLogRecord } from '../records/people';

/** SPEC.md, Errors: the user is rate-limited from following. */
export const followRateLimited = 9006;

/**
 * Spends `count` new follows of `userId`'s allowance (ServiceConfig.followRateLimit: at most `max`
 * in any `windowSeconds`), or answers 429/9006 with `Retry-After`: the seconds until enough earlier
 * follows leave the window. The log lives in the store, so the caller's transaction takes the
 * spending back when its write fails.
 */
export async function spendFollowAllowance(ctx: Context<unknown>, userId: string, count: number): Promise<void> {
  const { max, windowSeconds } = ctx.config.followRateLimit;
  const now = ctx.now().getTime();
  const windowMs = windowSeconds * 1000;
  const mine = eq('user_id', userId);
  // Follows that left the window no longer count.
  await ctx.store.deleteWhere('follow_log', and(mine, lte('created_time', isoTime(new Date(now - windowMs)))));
  const recent = await ctx.store.count('follow_log', mine);
  const excess = recent + count - max;
  if (excess > 0) {
    // The follow whose expiry makes room; when the request alone is over the limit, a whole window.
    const { items } = await ctx.store.find<FollowLogRecord>('follow_log', { where: mine, orderBy: by('created_time', 'asc'), offset: excess - 1, limit: 1 });
    const until = items.length ? Date.parse(items[0].created_time) + windowMs : now + windowMs;
    const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
    throw new ApiError(
      429,
      followRateLimited,
      "You're following users too quickly. Please try again later.",
      `At most ${max} follows are allowed in ${windowSeconds} seconds; ${recent} were made in the current window and ${count} more were asked for. Retry in ${retryAfter} seconds.`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  }
  const time = isoTime(new Date(now));
  for (let i = 0; i < count; i++) await ctx.store.insert<FollowLogRecord>('follow_log', { user_id: userId, created_time: time });
}
