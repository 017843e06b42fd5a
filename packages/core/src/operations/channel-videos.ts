import { object, optional, size, string } from 'superstruct';
import { forbidden, invalidField, notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { noContent, ok, operation, type Context } from '../engine/operation';
import type { ChannelRecord, ChannelVideoRecord } from '../records/channel';
import { channelSorts } from '../domain/channel-lists';
import { listVisibleChannels } from './represent-channels';
import {
  addChannelVideo,
  channelHasVideo,
  channelVideoSorts,
  channelVideosPage,
  loadVideoForChannel,
  pageHolding,
  removeChannelVideo,
  videoIdOf,
  type ChannelVideoSort,
} from '../domain/channel-videos';
import { assertModerator, loadChannel } from '../domain/channels';
import { readUriList } from '../domain/uri-list';
import { loadVisibleVideo } from '../domain/videos';
import { representOne, representVideos } from './represent-videos';
import type { VideoRecord } from '../records';
import { and, eq, inSelect } from '../store/filters';

const password = optional(size(string(), 1, 128));
/** At most this many videos in one add or remove. */
const maxVideoList = 100;

/** The channel of a video write: one the caller may see (404) and moderates (403). */
async function moderatedChannel(ctx: Context<unknown>): Promise<ChannelRecord> {
  const channel = await loadChannel(ctx);
  await assertModerator(ctx, channel, 'add or remove its videos');
  return channel;
}

export const listChannelVideos = operation({
  id: 'channels.videos.list',
  summary: "List the videos of a channel the caller may see; containing_uri answers the page that holds that video",
  method: 'GET',
  paths: ['/channels/{channel_id}/videos'],
  params: object({
    ...listParams({ sort: Object.keys(channelVideoSorts) as ChannelVideoSort[], filter: ['embeddable'] as const, query: true, filterEmbeddable: true }),
    containing_uri: optional(size(string(), 1, 256)),
  }),
  async handle(ctx) {
    const p = ctx.params as ListParams<ChannelVideoSort, 'embeddable'> & { containing_uri?: string };
    // Without a sort the list is in the channel's own order (sort=default), which has no direction.
    if ((p.sort ?? 'default') === 'default' && p.direction) throw invalidField('direction', "is not taken with sort=default (the channel's own order)");
    const channel = await loadChannel(ctx);
    const page = p.containing_uri === undefined ? pageOf(p) : await pageHolding(ctx, channel, p, p.containing_uri);
    const result = await channelVideosPage(ctx, channel, p, page);
    // SPEC.md: 304 when no video was added since If-Modified-Since.
    const latest = await ctx.store.findOne<ChannelVideoRecord>('channel_videos', eq('channel_id', channel.id), by('created_time', 'desc'));
    return listReply(ctx, page, result.total, await representVideos(ctx, result.items), 'video', latest?.created_time ?? null);
  },
});

export const addChannelVideos = operation({
  id: 'channels.videos.add',
  summary: 'Add videos to a channel (video_uri: one URI, or a JSON list of {"video_uri": …}); answers the Clips',
  method: 'PUT',
  paths: ['/channels/{channel_id}/videos'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    const videos: VideoRecord[] = [];
    for (const uri of readUriList(ctx, 'video_uri', maxVideoList)) {
      const video = await loadVideoForChannel(ctx, uri);
      await addChannelVideo(ctx, channel, video);
      videos.push(video);
    }
    return ok(await representVideos(ctx, videos), 'video');
  },
});

export const removeChannelVideos = operation({
  id: 'channels.videos.remove',
  summary: 'Remove videos from a channel (video_uri: one URI, or a JSON list of {"video_uri": …})',
  method: 'DELETE',
  paths: ['/channels/{channel_id}/videos'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    for (const uri of readUriList(ctx, 'video_uri', maxVideoList)) {
      // SPEC.md's "the video cannot be removed": it is not in the channel. A moderator may take out
      // a video that has since become hidden from them.
      if (!(await removeChannelVideo(ctx.store, channel, videoIdOf(uri)))) throw forbidden(`${uri} is not in the channel.`);
    }
    return noContent();
  },
});

export const getChannelVideo = operation({
  id: 'channels.videos.get',
  summary: 'Get a video of a channel (404 when it is not in the channel)',
  method: 'GET',
  paths: ['/channels/{channel_id}/videos/{video_id}'],
  params: object({ password }),
  async handle(ctx) {
    const channel = await loadChannel(ctx);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    if (!(await channelHasVideo(ctx.store, channel.id, video.id))) throw notFound('video');
    return ok(await representOne(ctx, video), 'video');
  },
});

export const putChannelVideo = operation({
  id: 'channels.videos.put',
  summary: 'Add a video to a channel (nothing changes when it is there already)',
  method: 'PUT',
  paths: ['/channels/{channel_id}/videos/{video_id}'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    await addChannelVideo(ctx, channel, await loadVideoForChannel(ctx, ctx.path.video_id));
    return noContent();
  },
});

export const deleteChannelVideo = operation({
  id: 'channels.videos.delete',
  summary: 'Remove a video from a channel (404 when it is not in the channel)',
  method: 'DELETE',
  paths: ['/channels/{channel_id}/videos/{video_id}'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    // A moderator may take out a video that has since become hidden from them.
    if (!(await removeChannelVideo(ctx.store, channel, ctx.path.video_id))) throw notFound('video');
    return noContent();
  },
});

export const listAvailableChannels = operation({
  id: 'videos.available_channels.list',
  summary: 'List the channels the caller moderates that they may add the video to or remove it from',
  method: 'GET',
  paths: ['/videos/{video_id}/available_channels'],
  auth: 'user',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const video = await loadVideoForChannel(ctx, ctx.path.video_id);
    const caller = ctx.principal.user!;
    const moderated = inSelect('id', 'channel_moderators', 'channel_id', eq('user_id', caller.id));
    if ((await ctx.store.count('channels', moderated)) === 0) throw notFound('channel you moderate');
    // Where privacy.add keeps the caller from adding the video, they can only take it out of channels that hold it.
    const addable = video.user_id === caller.id || video.privacy.add;
    const where = addable ? moderated : and(moderated, inSelect('id', 'channel_videos', 'channel_id', eq('video_id', video.id)));
    if (!addable && (await ctx.store.count('channels', where)) === 0) {
      throw forbidden("The video's owner does not let others add it to channels, and none of yours holds it.");
    }
    return listVisibleChannels(ctx, ctx.params as ListParams, { where, sorts: channelSorts, defaultSort: 'alphabetical', addTo: { videoId: video.id, addable } });
  },
});

export const channelVideoOperations = [
  listChannelVideos,
  addChannelVideos,
  removeChannelVideos,
  getChannelVideo,
  putChannelVideo,
  deleteChannelVideo,
  listAvailableChannels,
];
