import type { Filter, OrderBy } from '../store/store';
import { and, eq, isIn } from '../store/filters';
import type { UserRecord } from '../records';
import { listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import type { Context, Reply } from '../engine/operation';
import { representChannel } from '../representations/channel';
import type { ChannelRecord, ChannelUserRecord, ChannelVideoRecord } from '../records/channel';
import { channelListFilter } from '../domain/channel-lists';
import { representContext } from './represent-context';

/** A video the channels are listed for (GET /videos/{id}/available_channels), and whether the viewer may add it to them. */
export interface AddToChannels {
  videoId: string;
  addable: boolean;
}

/**
 * Channel representations for a page of channels: owners, the viewer's subscriptions and
 * moderations (and with `addTo`, which of the channels hold that video) in one query each.
 */
export async function representChannels(ctx: Context<unknown>, channels: ChannelRecord[], addTo?: AddToChannels): Promise<Record<string, unknown>[]> {
  if (channels.length === 0) return [];
  const viewer = ctx.principal.user;
  const ids = channels.map((c) => c.id);
  const ofViewer = viewer && and(eq('user_id', viewer.id), isIn('channel_id', ids));
  const [owners, follows, moderated, holding] = await Promise.all([
    ctx.store.find<UserRecord>('users', { where: isIn('id', [...new Set(channels.map((c) => c.user_id))]) }),
    ofViewer ? ctx.store.find<ChannelUserRecord>('channel_followers', { where: ofViewer }) : null,
    ofViewer ? ctx.store.find<ChannelUserRecord>('channel_moderators', { where: ofViewer }) : null,
    addTo ? ctx.store.find<ChannelVideoRecord>('channel_videos', { where: and(eq('video_id', addTo.videoId), isIn('channel_id', ids)) }) : null,
  ]);
  const ownerOf = new Map(owners.items.map((u) => [u.id, u]));
  const followed = new Map(follows?.items.map((f) => [f.channel_id, f.created_time]));
  const moderates = new Set(moderated?.items.map((m) => m.channel_id));
  const held = new Set(holding?.items.map((row) => row.channel_id));
  const rc = representContext(ctx);
  return channels.map((c) =>
    representChannel(c, ownerOf.get(c.user_id)!, rc, {
      followed: followed.get(c.id) ?? null,
      // The owner always moderates (isModerator), whether or not a row says so.
      moderates: c.user_id === viewer?.id || moderates.has(c.id),
      addTo: addTo && { videoId: addTo.videoId, options: held.has(c.id) ? ['GET', ...(addTo.addable ? ['PUT'] : []), 'DELETE'] : addTo.addable ? ['PUT'] : [] },
    }),
  );
}

export async function representOneChannel(ctx: Context<unknown>, channel: ChannelRecord): Promise<Record<string, unknown>> {
  return (await representChannels(ctx, [channel]))[0];
}

export interface ChannelListOptions {
  /** Which channels belong to the list (a category's, the featured ones…); visibility is added here. */
  where?: Filter;
  sorts: Record<string, OrderBy[]>;
  defaultSort: string;
  /** The video the channels are listed for adding to (each channel's `add_to` interaction). */
  addTo?: AddToChannels;
}

/** A page of the channels in a list that the caller may see, filtered, sorted and paged in the store. */
export async function listVisibleChannels(ctx: Context<unknown>, params: ListParams, options: ChannelListOptions): Promise<Reply> {
  const page = pageOf(params);
  const result = await ctx.store.find<ChannelRecord>('channels', {
    where: and(options.where, channelListFilter(ctx, params)),
    orderBy: orderOf(options.sorts, params.sort ?? options.defaultSort, params.direction),
    offset: page.offset,
    limit: page.limit,
  });
  return listReply(ctx, page, result.total, await representChannels(ctx, result.items, options.addTo), 'channel');
}
