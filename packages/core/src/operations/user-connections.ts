import { object } from 'superstruct';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { sharedWith } from '../domain/user-connections';
import { userVideoListParams } from '../domain/user-video-lists';
import { actingUser, targetUser } from '../domain/users';
import { clipSorts, type ClipSort } from '../domain/video-lists';
import { listVisibleVideos } from './video-lists';

/**
 * The lists the User's connections name beyond SPEC.md's rows (issue 22: every connection the
 * hosted API publishes answers): the videos shared with a user, and the lists of what reelbase
 * has no feature for — blocked users, portfolios, recommended channels and users — which answer an
 * empty page, as their `total: 0` says.
 */

const pageParams = object(listParams({ direction: false }));

/**
 * A list of the user's that reelbase keeps nothing in, answering an empty page paged as any other:
 * at `/me/<path>` and `/users/{user_id}/<path>`, to the user themselves (`private`, with `doing`
 * naming what others may not) or to anybody.
 */
function emptyList(o: { id: string; summary: string; path: string; kind: string; ownOnly?: string }) {
  return operation({
    id: o.id,
    summary: o.summary,
    method: 'GET',
    paths: [`/me/${o.path}`, `/users/{user_id}/${o.path}`],
    ...(o.ownOnly ? { scope: 'private' as const } : {}),
    params: pageParams,
    async handle(ctx) {
      await (o.ownOnly ? actingUser(ctx, o.ownOnly) : targetUser(ctx));
      return listReply(ctx, pageOf(ctx.params as ListParams), 0, [], o.kind);
    },
  });
}

export const listSharedVideos = operation({
  id: 'users.shared.list',
  summary:
    "List the videos shared with the user: others' videos with privacy.view users whose access list names them (PUT /videos/{video_id}/privacy/users/{user_id}); only the user themselves",
  method: 'GET',
  paths: ['/me/shared/videos', '/users/{user_id}/shared/videos'],
  scope: 'private',
  params: userVideoListParams,
  async handle(ctx) {
    const user = await actingUser(ctx, 'see the videos shared with them');
    return listVisibleVideos(ctx, ctx.params as ListParams<ClipSort, 'embeddable'>, { where: sharedWith(user.id), sorts: clipSorts, defaultSort: 'date' });
  },
});

export const listBlockedUsers = emptyList({
  id: 'users.block.list',
  summary: 'List the users the user blocks: always empty, as reelbase has no blocking; only the user themselves',
  path: 'block',
  kind: 'user',
  ownOnly: 'see whom they block',
});

export const listPortfolios = emptyList({
  id: 'users.portfolios.list',
  summary: "List the user's portfolios: always empty, as reelbase has no portfolios",
  path: 'portfolios',
  kind: 'portfolio',
});

export const listRecommendedChannels = emptyList({
  id: 'users.recommendations.channels.list',
  summary: 'List the channels recommended to the user to follow: always empty, as reelbase recommends no channels; only the user themselves',
  path: 'recommendations/channels',
  kind: 'channel',
  ownOnly: 'see their recommendations',
});

export const listRecommendedUsers = emptyList({
  id: 'users.recommendations.users.list',
  summary: 'List the users recommended to the user to follow: always empty, as reelbase recommends no users; only the user themselves',
  path: 'recommendations/users',
  kind: 'user',
  ownOnly: 'see their recommendations',
});

export const userConnectionOperations = [listSharedVideos, listBlockedUsers, listPortfolios, listRecommendedChannels, listRecommendedUsers];
