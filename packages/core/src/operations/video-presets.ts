import { forbidden, notFound } from '../engine/errors';
import { noContent, operation, type Context } from '../engine/operation';
import { findById } from '../domain/lookup';
import { loadOwnedVideo } from '../domain/owned-video';
import { loadVisibleVideo } from '../domain/videos';
import { setVideoPreset } from '../domain/presets';
import type { PresetRecord } from '../records';
import { viewParams } from '../domain/video-fields';

async function loadPreset(ctx: Context<unknown>): Promise<PresetRecord> {
  const preset = await findById<PresetRecord>(ctx.store, 'presets', ctx.path.preset_id);
  if (!preset) throw notFound('embed preset');
  return preset;
}

export const assignVideoPreset = operation({
  id: 'videos.presets.assign',
  summary: 'Apply an embed preset to a video (both the caller’s)',
  method: 'PUT',
  paths: ['/videos/{video_id}/presets/{preset_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'set the embed preset of');
    const preset = await loadPreset(ctx);
    if (preset.user_id !== video.user_id) throw forbidden('Only the owner of the embed preset may apply it.');
    // A video has one preset: applying another replaces it.
    await setVideoPreset(ctx.store, video, preset.id);
    return noContent();
  },
});

export const checkVideoPreset = operation({
  id: 'videos.presets.check',
  summary: 'Check whether a video has an embed preset (204 yes, 404 no)',
  method: 'GET',
  paths: ['/videos/{video_id}/presets/{preset_id}'],
  params: viewParams,
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const preset = await loadPreset(ctx);
    if (video.preset_id !== preset.id) throw notFound('embed preset on this video');
    return noContent();
  },
});

export const removeVideoPreset = operation({
  id: 'videos.presets.remove',
  summary: 'Take an embed preset off a video',
  method: 'DELETE',
  paths: ['/videos/{video_id}/presets/{preset_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'remove the embed preset of');
    const preset = await loadPreset(ctx);
    // Idempotent: removing a preset the video does not have leaves whatever it has.
    if (video.preset_id === preset.id) await setVideoPreset(ctx.store, video, null);
    return noContent();
  },
});

export const videoPresetOperations = [assignVideoPreset, checkVideoPreset, removeVideoPreset];
