import { object } from 'superstruct';
import { ApiError, codes } from '../engine/errors';
import { by, listParams, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { since } from '../engine/versions';
import { pathChannel } from '../domain/channel-videos';
import { visibleChannels } from '../domain/channel-visibility';
import { listVisibleVideos } from './video-lists';
import { loadVisibleVideo } from '../domain/videos';
import { and, eq, inSelect, isIn, ne, or } from '../store/filters';
import { viewPassword } from '../domain/video-fields';

const sorts = { plays: by('plays', 'desc') };

export const listRecommendations = operation({
  id: 'videos.recommendations.list',
  summary: 'List videos like this one: those sharing a channel (through a channel path, that channel) or a tag with it, most played first',
  method: 'GET',
  paths: ['/videos/{video_id}/recommendations', '/channels/{channel_id}/videos/{video_id}/recommendations'],
  params: object({ ...listParams({ direction: false }), password: viewPassword }),
  async handle(ctx) {
    // Added in 3.3 (SPEC.md, Versioning), with the Clip's recommendations connection.
    if (!since(ctx.version, 'clipCategories')) {
      throw new ApiError(404, codes.notFound, 'The requested page could not be found.', 'Recommendations are available from API version 3.3.');
    }
    const channel = await pathChannel(ctx);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const channels = channel
      ? eq('channel_id', channel.id)
      : and(
          inSelect('channel_id', 'channel_videos', 'channel_id', eq('video_id', video.id)),
          inSelect('channel_id', 'channels', 'id', visibleChannels(ctx.principal.user)),
        );
    const tags = video.tags.map((t) => t.canonical);
    const where = and(
      ne('id', video.id),
      or(
        inSelect('id', 'channel_videos', 'video_id', channels),
        tags.length ? inSelect('id', 'video_tags', 'video_id', isIn('tag', tags)) : undefined,
      ),
    );
    return listVisibleVideos(ctx, ctx.params as ListParams<'plays'>, { where, sorts, defaultSort: 'plays' });
  },
});

export const videoRecommendationOperations = [listRecommendations];
