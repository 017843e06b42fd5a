import { object } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { noContent, ok, operation } from '../engine/operation';
import { idsOf, inOrderOf, withMembers } from '../domain/memberships';
import { findListedVideo, removeUserVideo, watchedList } from '../domain/user-video-lists';
import { actingUser } from '../domain/users';
import { loadVisibleVideo } from '../domain/videos';
import { representOne, representVideos } from './represent-videos';
import { visibleVideos } from '../domain/visibility';
import type { UserVideoRecord, VideoRecord } from '../records';
import { isoTime } from '../support/time';
import { eq, where } from '../store/filters';
import { viewParams } from '../domain/video-fields';

/** SPEC.md request convention 6: only the user themselves may see or change their history (403). */
const historyOwner = 'see or change their watch history';

export const listWatched = operation({
  id: 'users.watched.list',
  summary: 'List the videos the user watched, the most recently watched first',
  method: 'GET',
  paths: ['/me/watched/videos', '/users/{user_id}/watched/videos'],
  scope: 'private',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const user = await actingUser(ctx, historyOwner);
    const page = pageOf(ctx.params);
    // Videos the user can no longer see drop out of the history in the store, so totals stay true.
    const rows = await ctx.store.find<UserVideoRecord>('watched', {
      where: withMembers({ collection: 'watched', where: eq('user_id', user.id) }, 'video_id', 'videos', visibleVideos(user)),
      orderBy: by('created_time', 'desc'),
      offset: page.offset,
      limit: page.limit,
    });
    const videos = await inOrderOf<VideoRecord>(ctx.store, 'videos', idsOf(rows.items, 'video_id'));
    return listReply(ctx, page, rows.total, await representVideos(ctx, videos), 'video');
  },
});

export const getWatched = operation({
  id: 'users.watched.get',
  summary: 'Get a video of the watch history as a Clip (404 when the user has not watched it)',
  method: 'GET',
  paths: ['/me/watched/videos/{video_id}', '/users/{user_id}/watched/videos/{video_id}'],
  scope: 'private',
  async handle(ctx) {
    // As in the list: a video the user may no longer see has dropped out of the history.
    const video = await findListedVideo(ctx, watchedList, await actingUser(ctx, historyOwner), ctx.path.video_id);
    if (!video) throw notFound('video in the watch history');
    return ok(await representOne(ctx, video), 'video');
  },
});

export const markWatched = operation({
  id: 'users.watched.put',
  summary: 'Mark a video watched now',
  method: 'PUT',
  paths: ['/me/watched/videos/{video_id}', '/users/{user_id}/watched/videos/{video_id}'],
  scope: 'interact',
  params: viewParams,
  async handle(ctx) {
    const user = await actingUser(ctx, historyOwner);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const time = isoTime(ctx.now());
    const row = await ctx.store.findOne<UserVideoRecord>('watched', where({ user_id: user.id, video_id: video.id }));
    if (row) await ctx.store.update<UserVideoRecord>('watched', row.id, { created_time: time });
    else {
      await ctx.store.insert<UserVideoRecord>('watched', { user_id: user.id, video_id: video.id, created_time: time });
      await ctx.store.increment('users', user.id, 'watched_total', 1);
    }
    return noContent();
  },
});

export const clearWatched = operation({
  id: 'users.watched.clear',
  summary: "Clear the user's watch history",
  method: 'DELETE',
  paths: ['/me/watched/videos', '/users/{user_id}/watched/videos'],
  scope: 'delete',
  async handle(ctx) {
    const user = await actingUser(ctx, historyOwner);
    const removed = await ctx.store.deleteWhere('watched', eq('user_id', user.id));
    await ctx.store.increment('users', user.id, 'watched_total', -removed);
    return noContent();
  },
});

export const removeWatched = operation({
  id: 'users.watched.delete',
  summary: "Remove a video from the user's watch history",
  method: 'DELETE',
  paths: ['/me/watched/videos/{video_id}', '/users/{user_id}/watched/videos/{video_id}'],
  scope: 'delete',
  async handle(ctx) {
    const user = await actingUser(ctx, historyOwner);
    // The user's own row goes whether or not they may still see the video.
    if (!(await removeUserVideo(ctx.store, watchedList, user, ctx.path.video_id))) throw notFound('video in the watch history');
    return noContent();
  },
});

export const watchedOperations = [listWatched, markWatched, getWatched, clearWatched, removeWatched];
