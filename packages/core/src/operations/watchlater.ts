import { object, optional, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { by } from '../engine/list';
import { noContent, ok, operation } from '../engine/operation';
import { noteActivity } from '../domain/activity';
import { addUserVideo, findListedVideo, removeUserVideo, userVideoListParams, watchlaterList } from '../domain/user-video-lists';
import { listUserVideos } from './video-lists';
import { actingUser } from '../domain/users';
import { loadVisibleVideo } from '../domain/videos';
import { representOne } from './represent-videos';
import type { UserVideoRecord } from '../records';
import { eq } from '../store/filters';

const itemPaths = ['/me/watchlater/{video_id}', '/users/{user_id}/watchlater/{video_id}'];
/** The queue is private data: only its user sees or changes it (403 for anyone else). */
const queueOwner = 'see or change their watch later queue';

export const listWatchLater = operation({
  id: 'users.watchlater.list',
  summary: "List the videos in the user's watch later queue, the latest added first",
  method: 'GET',
  paths: ['/me/watchlater', '/users/{user_id}/watchlater'],
  scope: 'private',
  params: userVideoListParams,
  async handle(ctx) {
    const user = await actingUser(ctx, queueOwner);
    // SPEC.md: 304 when nothing was added since If-Modified-Since.
    const newest = await ctx.store.findOne<UserVideoRecord>('watchlater', eq('user_id', user.id), by('created_time', 'desc'));
    return listUserVideos(ctx, watchlaterList, user, newest?.created_time ?? null);
  },
});

export const getWatchLater = operation({
  id: 'users.watchlater.get',
  summary: 'Get a video of the watch later queue as a Clip (404 when it is not queued)',
  method: 'GET',
  paths: itemPaths,
  scope: 'private',
  async handle(ctx) {
    const video = await findListedVideo(ctx, watchlaterList, await actingUser(ctx, queueOwner), ctx.path.video_id);
    if (!video) throw notFound('video in the watch later queue');
    return ok(await representOne(ctx, video), 'video');
  },
});

export const addWatchLater = operation({
  id: 'users.watchlater.put',
  summary: 'Add a video to the watch later queue (nothing changes when it is queued already)',
  method: 'PUT',
  paths: itemPaths,
  scope: 'interact',
  // As on PUT /me/watched/videos/{id}: a password video needs its password to be queued.
  params: object({ password: optional(size(string(), 1, 128)) }),
  async handle(ctx) {
    const user = await actingUser(ctx, queueOwner);
    await addUserVideo(ctx.store, watchlaterList, user, await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password), ctx.now());
    await noteActivity(ctx, user);
    return noContent();
  },
});

export const removeWatchLater = operation({
  id: 'users.watchlater.delete',
  summary: 'Take a video off the watch later queue (404 when it is not queued)',
  method: 'DELETE',
  paths: itemPaths,
  scope: 'interact',
  async handle(ctx) {
    const user = await actingUser(ctx, queueOwner);
    if (!(await removeUserVideo(ctx.store, watchlaterList, user, ctx.path.video_id))) throw notFound('video in the watch later queue');
    await noteActivity(ctx, user);
    return noContent();
  },
});

export const watchlaterOperations = [listWatchLater, getWatchLater, addWatchLater, removeWatchLater];
