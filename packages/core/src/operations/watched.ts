import { object, optional, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { noContent, operation } from '../engine/operation';
import { inOrderOf } from '../domain/memberships';
import { actingUser } from '../domain/users';
import { loadVisibleVideo, representVideos } from '../domain/videos';
import { visibleVideos } from '../domain/visibility';
import type { UserVideoRecord, VideoRecord } from '../records';
import { isoTime } from '../representations/common';
import { and, eq, inSelect, where } from '../store/filters';

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
      where: and(eq('user_id', user.id), inSelect('video_id', 'videos', 'id', visibleVideos(user))),
      orderBy: by('created_time', 'desc'),
      offset: page.offset,
      limit: page.limit,
    });
    const videos = await inOrderOf<VideoRecord>(ctx.store, 'videos', rows.items.map((r) => r.video_id));
    return listReply(ctx, page, rows.total, await representVideos(ctx, videos), 'video');
  },
});

export const markWatched = operation({
  id: 'users.watched.put',
  summary: 'Mark a video watched now',
  method: 'PUT',
  paths: ['/me/watched/videos/{video_id}', '/users/{user_id}/watched/videos/{video_id}'],
  scope: 'interact',
  params: object({ password: optional(size(string(), 1, 128)) }),
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
    const removed = await ctx.store.deleteWhere('watched', where({ user_id: user.id, video_id: ctx.path.video_id }));
    if (!removed) throw notFound('video in the watch history');
    await ctx.store.increment('users', user.id, 'watched_total', -1);
    return noContent();
  },
});

export const watchedOperations = [listWatched, markWatched, clearWatched, removeWatched];
