import { boolean, min, number, object, optional, size, string } from 'superstruct';
import { invalidField } from '../engine/errors';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { created, deleted, ok, operation, updated, type Context } from '../engine/operation';
import { since } from '../engine/versions';
import { loadOwnedVideo } from '../domain/owned-video';
import { representContext } from './represent-context';
import { loadVideoPicture, ofVideo, setPictureActive, videoPictureUri } from '../domain/video-pictures';
import { loadVisibleVideo } from '../domain/videos';
import { pathChannel } from '../domain/channel-videos';
import type { PictureRecord, VideoRecord } from '../records';
import { isoTime } from '../support/time';
import { representPicture } from '../representations/picture';
import { pictureMediaPrefix } from '../media/image-links';

const password = optional(size(string(), 1, 128));

const represent = (ctx: Context<unknown>, video: VideoRecord, picture: PictureRecord) =>
  representPicture(picture, videoPictureUri(picture), representContext(ctx), video.user_id, video);

export const createVideoPicture = operation({
  id: 'videos.pictures.create',
  summary: 'Add a thumbnail to a video, taken at an offset into it',
  method: 'POST',
  paths: ['/videos/{video_id}/pictures', '/channels/{channel_id}/videos/{video_id}/pictures'],
  scope: 'upload',
  params: object({ active: optional(boolean()), time: optional(min(number(), 0)) }),
  async handle(ctx) {
    await pathChannel(ctx);
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'add pictures to');
    const { active = false, time = null } = ctx.params;
    // A duration of 0 means the video is not transcoded yet, so any offset may still be right.
    if (time !== null && video.duration > 0 && time > video.duration) {
      throw invalidField('time', `must not be beyond the video's duration (${video.duration} seconds)`);
    }
    const now = isoTime(ctx.now());
    const picture = await ctx.store.insert<PictureRecord>('pictures', {
      owner_kind: 'video',
      owner_id: video.id,
      active: false,
      time,
      type: 'custom',
      created_time: now,
      modified_time: now,
    });
    await ctx.store.increment('videos', video.id, 'pictures_total', 1);
    const body = represent(ctx, video, await setPictureActive(ctx.store, picture, active, now));
    return since(ctx.version, 'pictureCreated') ? created(body, 'picture') : ok(body, 'picture');
  },
});

export const listVideoPictures = operation({
  id: 'videos.pictures.list',
  summary: "List a video's thumbnails, newest first",
  method: 'GET',
  paths: ['/videos/{video_id}/pictures'],
  params: object({ ...listParams({ direction: false }), password }),
  async handle(ctx) {
    const p = ctx.params as ListParams & { password?: string };
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, p.password);
    const page = pageOf(p);
    const result = await ctx.store.find<PictureRecord>('pictures', {
      where: ofVideo(video.id),
      orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, result.items.map((p) => represent(ctx, video, p)), 'picture');
  },
});

export const getVideoPicture = operation({
  id: 'videos.pictures.get',
  summary: 'Get a thumbnail of a video',
  method: 'GET',
  paths: ['/videos/{video_id}/pictures/{picture_id}'],
  params: object({ password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    return ok(represent(ctx, video, await loadVideoPicture(ctx.store, video, ctx.path.picture_id)), 'picture');
  },
});

export const updateVideoPicture = operation({
  id: 'videos.pictures.update',
  summary: "Make a thumbnail the video's active one, or stop using it",
  method: 'PATCH',
  paths: ['/videos/{video_id}/pictures/{picture_id}'],
  scope: 'edit',
  params: object({ active: optional(boolean()) }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'edit the pictures of');
    const picture = await loadVideoPicture(ctx.store, video, ctx.path.picture_id);
    const { active = picture.active } = ctx.params;
    return updated(ctx, represent(ctx, video, await setPictureActive(ctx.store, picture, active, isoTime(ctx.now()))), 'picture');
  },
});

export const deleteVideoPicture = operation({
  id: 'videos.pictures.delete',
  summary: 'Delete a thumbnail of a video',
  method: 'DELETE',
  paths: ['/videos/{video_id}/pictures/{picture_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'delete the pictures of');
    const picture = await loadVideoPicture(ctx.store, video, ctx.path.picture_id);
    // Deleting the active picture brings back the placeholder rather than promoting a picture nobody chose.
    if (picture.active) await ctx.store.update<VideoRecord>('videos', video.id, { active_picture: null });
    await ctx.store.delete('pictures', picture.id);
    await ctx.store.increment('videos', video.id, 'pictures_total', -1);
    return deleted([pictureMediaPrefix(picture)]);
  },
});

export const videoPictureOperations = [createVideoPicture, listVideoPictures, getVideoPicture, updateVideoPicture, deleteVideoPicture];
