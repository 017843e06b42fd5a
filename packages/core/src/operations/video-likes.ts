import { object, optional, size, string } from 'superstruct';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { memberSorts, videoMembers, type MemberSort } from '../domain/memberships';
import { representUsers } from './represent-users';
import { loadVisibleVideo } from '../domain/videos';
import { pathChannel } from '../domain/channel-videos';

export const listVideoLikes = operation({
  id: 'videos.likes.list',
  summary: 'List the users who liked a video',
  method: 'GET',
  paths: ['/videos/{video_id}/likes', '/channels/{channel_id}/videos/{video_id}/likes'],
  params: object({
    ...listParams({ sort: Object.keys(memberSorts) as MemberSort[], query: true }),
    // As on GET /videos/{video_id}: a password video's likes need its password.
    password: optional(size(string(), 1, 128)),
  }),
  async handle(ctx) {
    await pathChannel(ctx);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const p = ctx.params as ListParams<MemberSort>;
    const page = pageOf(p);
    const query = p.query?.trim();
    const result = await videoMembers(ctx.store, 'likes', video.id, { sort: p.sort ?? 'date', direction: p.direction, query, page });
    return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
  },
});

export const videoLikeOperations = [listVideoLikes];
