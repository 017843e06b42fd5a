import { badRequest, forbidden, notFound } from '../engine/errors';
import { noContent, operation } from '../engine/operation';
import { noteActivity } from '../domain/activity';
import { recordActivity, withdrawActivity } from '../domain/activities';
import { addUserVideo, findListedVideo, likesList, removeUserVideo, userVideoListParams } from '../domain/user-video-lists';
import { listUserVideos } from './video-lists';
import { actingUser, targetUser } from '../domain/users';
import { loadVisibleVideo } from '../domain/videos';
import type { UserRecord } from '../records';
import { viewParams } from '../domain/video-fields';

const likePaths = ['/me/likes/{video_id}', '/users/{user_id}/likes/{video_id}'];
const likes = 'like or unlike videos for themselves';

/** 403 when an administrator took away the user's right to like videos (`can_like` false). */
function assertMayLike(user: UserRecord): void {
  if (user.can_like === false) throw forbidden('This user is not allowed to like videos.');
}

export const listUserLikes = operation({
  id: 'users.likes.list',
  summary: 'List the videos a user liked that the caller may see, the latest liked first',
  method: 'GET',
  paths: ['/me/likes', '/users/{user_id}/likes'],
  params: userVideoListParams,
  async handle(ctx) {
    return listUserVideos(ctx, likesList, await targetUser(ctx));
  },
});

export const checkUserLike = operation({
  id: 'users.likes.check',
  summary: 'Check whether a user liked a video (204 yes, 404 no)',
  method: 'GET',
  paths: likePaths,
  async handle(ctx) {
    if (!(await findListedVideo(ctx, likesList, await targetUser(ctx), ctx.path.video_id))) throw notFound('liked video');
    return noContent();
  },
});

export const likeVideo = operation({
  id: 'users.likes.put',
  summary: "Like a video (not one's own; nothing changes when already liked)",
  method: 'PUT',
  paths: likePaths,
  scope: 'interact',
  // As on PUT /me/watched/videos/{id}: a password video needs its password to be liked.
  params: viewParams,
  async handle(ctx) {
    const user = await actingUser(ctx, likes);
    assertMayLike(user);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    if (video.user_id === user.id) throw badRequest('Users cannot like their own videos.');
    if (await addUserVideo(ctx.store, likesList, user, video, ctx.now())) {
      await ctx.store.increment('videos', video.id, 'likes_total', 1);
      await recordActivity(ctx.store, { type: 'likes', video_id: video.id, user_id: user.id }, ctx.now());
    }
    await noteActivity(ctx, user);
    return noContent();
  },
});

export const unlikeVideo = operation({
  id: 'users.likes.delete',
  summary: 'Unlike a video (404 when not liked)',
  method: 'DELETE',
  paths: likePaths,
  scope: 'interact',
  async handle(ctx) {
    const user = await actingUser(ctx, likes);
    assertMayLike(user);
    // The user's own like goes whether or not they may still see the video.
    if (!(await removeUserVideo(ctx.store, likesList, user, ctx.path.video_id))) throw notFound('liked video');
    await ctx.store.increment('videos', ctx.path.video_id, 'likes_total', -1);
    await withdrawActivity(ctx.store, { type: 'likes', video_id: ctx.path.video_id, user_id: user.id });
    await noteActivity(ctx, user);
    return noContent();
  },
});

export const userLikeOperations = [listUserLikes, checkUserLike, likeVideo, unlikeVideo];
