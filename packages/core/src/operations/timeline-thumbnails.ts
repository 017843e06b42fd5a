import { notFound } from '../engine/errors';
import { created, ok, operation } from '../engine/operation';
import { findById } from '../domain/lookup';
import { loadOwnedVideo } from '../domain/owned-video';
import { representContext } from './represent-context';
import type { TimelineThumbnailRecord } from '../records';
import { isoTime } from '../support/time';
import { representTimelineThumbnail } from '../representations/timeline-thumbnail';

export const createTimelineThumbnail = operation({
  id: 'videos.timelinethumbnails.create',
  summary: 'Create the timeline thumbnails of a video',
  method: 'POST',
  paths: ['/videos/{video_id}/timelinethumbnails'],
  scope: 'upload',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'add timeline thumbnails to');
    const thumbnail = await ctx.store.insert<TimelineThumbnailRecord>('timeline_thumbnails', {
      video_id: video.id,
      created_time: isoTime(ctx.now()),
    });
    return created(representTimelineThumbnail(thumbnail, video, representContext(ctx)), 'picture');
  },
});

export const getTimelineThumbnail = operation({
  id: 'videos.timelinethumbnails.get',
  summary: 'Get timeline thumbnails of a video (its owner only)',
  method: 'GET',
  paths: ['/videos/{video_id}/timelinethumbnails/{thumbnail_id}'],
  // Timeline thumbnails are the owner's working material: other viewers get 403 (SPEC.md "user may not view").
  auth: 'user',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'view the timeline thumbnails of');
    const thumbnail = await findById<TimelineThumbnailRecord>(ctx.store, 'timeline_thumbnails', ctx.path.thumbnail_id);
    if (!thumbnail || thumbnail.video_id !== video.id) throw notFound('timeline thumbnail');
    return ok(representTimelineThumbnail(thumbnail, video, representContext(ctx)), 'picture');
  },
});

export const timelineThumbnailOperations = [createTimelineThumbnail, getTimelineThumbnail];
