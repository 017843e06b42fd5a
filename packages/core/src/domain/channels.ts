import type { Store } from '../store/store';
import { and, eq } from '../store/filters';
import { forbidden, notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import type { ChannelRecord, ChannelUserRecord } from '../records/channel';
import { canViewChannel, isModerator } from './channel-visibility';

/** The record a new channel starts as, with no followers, moderators or videos yet (the caller adds its owner's rows). */
export function newChannel(
  userId: string,
  fields: Pick<ChannelRecord, 'name' | 'description' | 'link' | 'privacy_view'>,
  time: string,
): Omit<ChannelRecord, 'id'> {
  return {
    user_id: userId,
    ...fields,
    featured: false,
    tags: [],
    categories: [],
    followers_total: 0,
    videos_total: 0,
    moderators_total: 0,
    privacy_users_total: 0,
    created_time: time,
    modified_time: time,
  };
}

/** A channel by numeric id or custom `link` alias. */
export async function findChannel(store: Store, idOrLink: string): Promise<ChannelRecord | null> {
  if (/^\d{1,18}$/.test(idOrLink)) return store.get<ChannelRecord>('channels', idOrLink);
  return store.findOne<ChannelRecord>('channels', eq('link', idOrLink));
}

/**
 * The channel `{channel_id}` names (by id or alias) when the caller may see it; null when it is
 * missing or hidden, so hidden channels answer like missing ones.
 */
export async function findVisibleChannel(ctx: Context<unknown>): Promise<ChannelRecord | null> {
  const channel = await findChannel(ctx.store, ctx.path.channel_id);
  return channel && (await canViewChannel(ctx.store, channel, ctx.principal.user)) ? channel : null;
}

/** Like findVisibleChannel, 404 when there is none. */
export async function loadChannel(ctx: Context<unknown>): Promise<ChannelRecord> {
  const channel = await findVisibleChannel(ctx);
  if (!channel) throw notFound('channel');
  return channel;
}

/** 403/3200 unless the caller owns the channel. */
export function assertChannelOwner(ctx: Context<unknown>, channel: ChannelRecord, action: string): void {
  if (channel.user_id !== ctx.principal.user?.id) throw forbidden(`Only the channel's owner may ${action}.`);
}

/** 403/3200 unless the caller moderates the channel (its owner does). */
export async function assertModerator(ctx: Context<unknown>, channel: ChannelRecord, action: string): Promise<void> {
  if (!(await isModerator(ctx.store, channel, ctx.principal.user))) throw forbidden(`Only the channel's owner or moderators may ${action}.`);
}

/** Collections whose rows belong to one channel through `channel_id`; they go when the channel goes. */
const channelOwned = ['channel_moderators', 'channel_access', 'channel_videos', 'channel_categories'];

/** Deletes a channel and everything that belongs to it, keeping followers' `channels_total` exact. */
export async function deleteChannelRecords(store: Store, channel: ChannelRecord): Promise<void> {
  const { items } = await store.find<ChannelUserRecord>('channel_followers', { where: eq('channel_id', channel.id) });
  for (const row of items) await store.increment('users', row.user_id, 'channels_total', -1);
  await store.deleteWhere('channel_followers', eq('channel_id', channel.id));
  for (const collection of channelOwned) await store.deleteWhere(collection, eq('channel_id', channel.id));
  await store.deleteWhere('activities', and(eq('type', 'channel'), eq('subject', channel.id)));
  await store.delete('channels', channel.id);
}
