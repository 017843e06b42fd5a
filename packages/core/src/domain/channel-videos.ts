import type { FindResult, Store } from '../store/store';
import { eq, where } from '../store/filters';
import type { VideoRecord } from '../records';
import { forbidden, invalidField, notFound } from '../engine/errors';
import { by, orderOf, pageOf, type ListParams, type Page } from '../engine/list';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import type { ChannelRecord, ChannelVideoRecord } from '../records/channel';
import { recordActivity, withdrawActivity } from './activities';
import { loadChannel } from './channels';
import { clipSorts, memberVideosPage, onMirror } from './video-lists';
import { loadVideo } from './videos';
import { assertCanView } from './visibility';

export async function channelHasVideo(store: Store, channelId: string, videoId: string): Promise<boolean> {
  return !!(await store.findOne<ChannelVideoRecord>('channel_videos', where({ channel_id: channelId, video_id: videoId })));
}

/**
 * The channel of a channel-scoped video path (`/channels/{channel_id}/videos/{video_id}/…`),
 * which must be one the caller may see and must hold the video (404 otherwise); null on the
 * plain `/videos/{video_id}/…` path of the same operation.
 */
export async function pathChannel(ctx: Context<unknown>): Promise<ChannelRecord | null> {
  if (ctx.path.channel_id === undefined) return null;
  const channel = await loadChannel(ctx);
  if (!(await channelHasVideo(ctx.store, channel.id, ctx.path.video_id))) throw notFound('video');
  return channel;
}

/** The id a video URI (`/videos/{id}`) or a bare id names. */
export const videoIdOf = (uri: string): string => uri.trim().replace(/^\/videos\//, '');

/**
 * A video a moderator names (by URI or id) to add to or take out of a channel: 404 when it is
 * missing or hidden from them. A password video is locked, not hidden: it can be collected
 * without its password.
 */
export async function loadVideoForChannel(ctx: Context<unknown>, uri: string): Promise<VideoRecord> {
  const video = await loadVideo(ctx.store, videoIdOf(uri));
  if (video.user_id !== ctx.principal.user?.id && video.privacy_view !== 'password') await assertCanView(ctx.store, video, ctx.principal.user);
  return video;
}

/** The feed event of a video added to a channel (minus who added it). */
const channelActivity = (channel: ChannelRecord, videoId: string) => ({ type: 'channel', video_id: videoId, subject: channel.id }) as const;

/**
 * Adds a video to a channel once, at the end of its manual order, and tells the channel's
 * followers through their feeds; 403 when the video's `privacy.add` keeps the caller from it.
 */
export async function addChannelVideo(ctx: Context<unknown>, channel: ChannelRecord, video: VideoRecord): Promise<void> {
  if (video.user_id !== ctx.principal.user?.id && !video.privacy.add) {
    throw forbidden("The video's owner does not let others add it to channels (privacy.add is false).");
  }
  if (await channelHasVideo(ctx.store, channel.id, video.id)) return;
  const last = await ctx.store.findOne<ChannelVideoRecord>('channel_videos', eq('channel_id', channel.id), by('position', 'desc'));
  await ctx.store.insert<ChannelVideoRecord>('channel_videos', {
    channel_id: channel.id,
    video_id: video.id,
    user_id: ctx.principal.user!.id,
    position: (last?.position ?? 0) + 1,
    created_time: isoTime(ctx.now()),
  });
  await ctx.store.increment('channels', channel.id, 'videos_total', 1);
  await recordActivity(ctx.store, { ...channelActivity(channel, video.id), user_id: ctx.principal.user!.id }, ctx.now());
}

/** Takes a video out of a channel; false when it was not in it. */
export async function removeChannelVideo(store: Store, channel: ChannelRecord, videoId: string): Promise<boolean> {
  const row = await store.findOne<ChannelVideoRecord>('channel_videos', where({ channel_id: channel.id, video_id: videoId }));
  if (!row) return false;
  await store.delete('channel_videos', row.id);
  await store.increment('channels', channel.id, 'videos_total', -1);
  await withdrawActivity(store, { ...channelActivity(channel, videoId), user_id: row.user_id });
  return true;
}

export const channelVideoSorts = {
  added: by('created_time', 'desc'),
  // The channel's own order: the latest added first (no direction: SPEC.md answers 400 to one).
  default: by('created_time', 'desc'),
  manual: by('position', 'asc'),
  // The videos' fields, read from the channel rows' mirrored copies.
  ...onMirror({ ...clipSorts, modified_time: by('modified_time', 'desc') }),
};
export type ChannelVideoSort = keyof typeof channelVideoSorts;

/** One page of the videos of a channel the caller may see, filtered, sorted and paged on the channel's rows. */
export function channelVideosPage(ctx: Context<unknown>, channel: ChannelRecord, params: ListParams<ChannelVideoSort>, page: Page): Promise<FindResult<VideoRecord>> {
  const orderBy = orderOf(channelVideoSorts, params.sort ?? 'default', params.direction);
  return memberVideosPage(ctx, params, { collection: 'channel_videos', field: 'channel_id', id: channel.id }, orderBy, page);
}

const scanChunk = 500;

/**
 * The page of the list (as sorted and filtered) that holds the video `containing_uri` names; 400
 * naming it when the list does not hold it. The rank of a video under an arbitrary sort is not a
 * store query, so the list is walked in store order, a chunk at a time, up to the video.
 */
export async function pageHolding(ctx: Context<unknown>, channel: ChannelRecord, params: ListParams<ChannelVideoSort>, uri: string): Promise<Page> {
  const perPage = pageOf(params).perPage;
  const id = videoIdOf(uri);
  const held = await channelHasVideo(ctx.store, channel.id, id);
  for (let offset = 0; held; offset += scanChunk) {
    const { items, total } = await channelVideosPage(ctx, channel, params, { page: 1, perPage: scanChunk, offset, limit: scanChunk });
    const i = items.findIndex((v) => v.id === id);
    if (i >= 0) return pageOf({ page: Math.floor((offset + i) / perPage) + 1, per_page: perPage });
    if (offset + scanChunk >= total) break;
  }
  throw invalidField('containing_uri', 'must be the URI of a video in this list');
}
