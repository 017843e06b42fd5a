import type { Store } from '../store/store';
import { where } from '../store/filters';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import type { ChannelRecord, ChannelUserRecord } from '../records/channel';

/** The channel↔user memberships and the channel counter each keeps exact. */
const counters = {
  channel_followers: 'followers_total',
  channel_moderators: 'moderators_total',
  channel_access: 'privacy_users_total',
} as const;

export type ChannelMembership = keyof typeof counters;

export async function isMember(store: Store, membership: ChannelMembership, channel: ChannelRecord, userId: string): Promise<boolean> {
  return !!(await store.findOne<ChannelUserRecord>(membership, where({ channel_id: channel.id, user_id: userId })));
}

/**
 * Puts a user in a membership of a channel once, keeping the channel's counter (and, for
 * followers, the user's `channels_total`) exact; false when they were in it already.
 */
export async function addMember(store: Store, membership: ChannelMembership, channel: ChannelRecord, user: UserRecord, now: Date): Promise<boolean> {
  if (await isMember(store, membership, channel, user.id)) return false;
  await store.insert<ChannelUserRecord>(membership, { channel_id: channel.id, user_id: user.id, created_time: isoTime(now) });
  await count(store, membership, channel, user.id, 1);
  return true;
}

/** Takes a user out of a membership of a channel; false when they were not in it. */
export async function removeMember(store: Store, membership: ChannelMembership, channel: ChannelRecord, userId: string): Promise<boolean> {
  const removed = await store.deleteWhere(membership, where({ channel_id: channel.id, user_id: userId }));
  if (removed) await count(store, membership, channel, userId, -removed);
  return removed > 0;
}

async function count(store: Store, membership: ChannelMembership, channel: ChannelRecord, userId: string, by: number): Promise<void> {
  await store.increment('channels', channel.id, counters[membership], by);
  if (membership === 'channel_followers') await store.increment('users', userId, 'channels_total', by);
}
