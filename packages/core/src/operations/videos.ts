import { object } from 'superstruct';
import { notFound } from '../engine/errors';
import { deleted, ok, operation, updated } from '../engine/operation';
import { deleteVideoRecords, loadVideo, loadVisibleVideo } from '../domain/videos';
import { representOne } from './represent-videos';
import { setVideoPreset } from '../domain/presets';
import { targetUser } from '../domain/users';
import { assertCanView } from '../domain/visibility';
import { passwordGuess } from '../domain/password-guesses';
import { assertOwner, checkVideoRules, videoPatch } from '../domain/video-write';
import { videoFields, viewParams } from '../domain/video-fields';
import type { UserRecord, VideoRecord } from '../records';
import { videoFilePrefixes } from '../media/image-links';
import { emitVideoEvent } from '../domain/webhooks';
import { releaseVideo } from '../domain/upload-quota';
import { abortUploadKind } from '../uploads/abort-upload-job';
import { hasten } from '../jobs/queue';
import { bumpedAccess } from '../media/link-access';


export const getVideo = operation({
  id: 'videos.get',
  summary: 'Get a video',
  method: 'GET',
  paths: ['/videos/{video_id}'],
  params: viewParams,
  async handle(ctx) {
    return ok(await representOne(ctx, await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password)), 'video');
  },
});

export const updateVideo = operation({
  id: 'videos.update',
  summary: 'Edit a video',
  method: 'PATCH',
  paths: ['/videos/{video_id}'],
  scope: 'edit',
  params: object(videoFields),
  async handle(ctx) {
    const video = await loadVideo(ctx.store, ctx.path.video_id);
    assertOwner(ctx, video, 'edit');
    const owner = ctx.principal.user as UserRecord;
    checkVideoRules(ctx, owner, ctx.params, video);
    const patch = await videoPatch(video, ctx.params, ctx.now());
    if (patch.privacy_view === 'password' && !patch.password_hash && !video.password_hash) patch.password_hash = owner.password_hash;
    const saved = await ctx.store.update<VideoRecord>('videos', video.id, { ...patch, ...bumpedAccess(video, patch) });
    return updated(ctx, await representOne(ctx, saved!), 'video');
  },
});

export const deleteVideo = operation({
  id: 'videos.delete',
  summary: 'Delete a video',
  method: 'DELETE',
  paths: ['/videos/{video_id}'],
  scope: 'delete',
  async handle(ctx) {
    const video = await loadVideo(ctx.store, ctx.path.video_id);
    assertOwner(ctx, video, 'delete');
    await emitVideoEvent(ctx.store, video, 'video.deleted', ctx.now());
    // Keeps the preset's videos_total exact.
    await setVideoPreset(ctx.store, video, null);
    await releaseVideo(ctx.store, video);
    await deleteVideoRecords(ctx.store, video.id);
    // An unfinished upload of it (or of a version) can no longer complete: aborted now, not at its link's expiry.
    await hasten(ctx.store, abortUploadKind, video.id, ctx.now());
    await ctx.store.increment('users', video.user_id, 'videos_total', -1);
    return { ...deleted(videoFilePrefixes(video.id)), jobsQueued: true };
  },
});

export const getOwnedVideo = operation({
  id: 'users.videos.get',
  summary: "Check that a user owns a video, and get it",
  method: 'GET',
  paths: ['/me/videos/{video_id}', '/users/{user_id}/videos/{video_id}'],
  params: viewParams,
  async handle(ctx) {
    const user = await targetUser(ctx);
    const video = await loadVideo(ctx.store, ctx.path.video_id);
    if (video.user_id !== user.id) throw notFound('video');
    await assertCanView(ctx.store, video, ctx.principal.user, passwordGuess(ctx, ctx.params.password));
    return ok(await representOne(ctx, video), 'video');
  },
});

export const videoOperations = [getVideo, updateVideo, deleteVideo, getOwnedVideo];
