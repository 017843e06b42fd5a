import type { Filter } from '../store/store';
import { gte, inSelect } from '../store/filters';
import type { Context } from '../engine/operation';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import type { UserActivityRecord } from '../records/people';

/** `filter=online` admits users active within this many seconds. */
const onlineSeconds = 5 * 60;

/**
 * Records that `user` is active now. A user counts as online when they wrote through the people
 * operations (follow, like, watch later, portraits) in the last five minutes; reads leave no
 * trace, so GETs never write.
 */
export async function noteActivity(ctx: Context<unknown>, user: UserRecord): Promise<void> {
  const time = isoTime(ctx.now());
  if (await ctx.store.update<UserActivityRecord>('user_activity', user.id, { last_active_time: time })) return;
  await ctx.store.insert<UserActivityRecord>('user_activity', { id: user.id, last_active_time: time });
}

/** The users active in the last five minutes, as a store filter on users. */
export const onlineUsers = (now: Date): Filter =>
  inSelect('id', 'user_activity', 'id', gte('last_active_time', isoTime(new Date(now.getTime() - onlineSeconds * 1000))));
