import { object } from 'superstruct';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { operation, type Context, type Reply } from '../engine/operation';
import { sharedWith } from '../domain/user-connections';
import { userVideoListParams } from '../domain/user-video-lists';
import { actingUser, targetUser } from '../domain/users';
import { clipSorts, listVisibleVideos, type ClipSort } from '../domain/video-lists';

/**
 * The lists the User's connections name beyond SPEC.md's rows (issue 22: every connection the
 * hosted API publishes answers): the videos shared with a user, and the lists of what reelbase
 * has no feature for — blocked users, portfolios, recommended channels and users — which answer an
 * empty page, as their `total: 0` says.
 */

const pageParams = object(listParams({ direction: false }));

/** An empty page of a list reelbase keeps nothing in, paged as any other. */
const emptyPage = (ctx: Context<unknown>, kind: string): Reply => listReply(ctx, pageOf(ctx.params as ListParams), 0, [], kind);

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

export const listBlockedUsers = operation({
  id: 'users.block.list',
  summary: 'List the users the user blocks: always empty, as reelbase has no blocking; only the user themselves',
  method: 'GET',
  paths: ['/me/block', '/users/{user_id}/block'],
  scope: 'private',
  params: pageParams,
  async handle(ctx) {
    await actingUser(ctx, 'see whom they block');
    return emptyPage(ctx, 'user');
  },
});

export const listPortfolios = operation({
  id: 'users.portfolios.list',
  summary: "List the user's portfolios: always empty, as reelbase has no portfolios",
  method: 'GET',
  paths: ['/me/portfolios', '/users/{user_id}/portfolios'],
  params: pageParams,
  async handle(ctx) {
    await targetUser(ctx);
    return emptyPage(ctx, 'portfolio');
  },
});

export const listRecommendedChannels = operation({
  id: 'users.recommendations.channels.list',
  summary: 'List the channels recommended to the user to follow: always empty, as reelbase recommends no channels; only the user themselves',
  method: 'GET',
  paths: ['/me/recommendations/channels', '/users/{user_id}/recommendations/channels'],
  scope: 'private',
  params: pageParams,
  async handle(ctx) {
    await actingUser(ctx, 'see their recommendations');
    return emptyPage(ctx, 'channel');
  },
});

export const listRecommendedUsers = operation({
  id: 'users.recommendations.users.list',
  summary: 'List the users recommended to the user to follow: always empty, as reelbase recommends no users; only the user themselves',
  method: 'GET',
  paths: ['/me/recommendations/users', '/users/{user_id}/recommendations/users'],
  scope: 'private',
  params: pageParams,
  async handle(ctx) {
    await actingUser(ctx, 'see their recommendations');
    return emptyPage(ctx, 'user');
  },
});

export const userConnectionOperations = [listSharedVideos, listBlockedUsers, listPortfolios, listRecommendedChannels, listRecommendedUsers];
