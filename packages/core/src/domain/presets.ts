import type { Store } from '../store/store';
import { eq } from '../store/filters';
import type { VideoRecord } from '../records';
import { notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import type { EmbedPresetRecord } from '../records/embed';
import { findById } from './lookup';
import { targetUser } from './users';

/**
 * The embed preset a `/me/presets/{preset_id}` or `/users/{user_id}/presets/{preset_id}` path
 * names. Presets are their owner's private player settings: one that is missing, belongs to
 * another user than the path names, or is not the caller's answers 404 (SPEC.md: "404 preset
 * missing or not owned").
 */
export async function loadOwnPreset(ctx: Context<unknown>): Promise<EmbedPresetRecord> {
  const user = await targetUser(ctx);
  const preset = await findById<EmbedPresetRecord>(ctx.store, 'presets', ctx.path.preset_id);
  if (!preset || preset.user_id !== user.id || user.id !== ctx.principal.user?.id) throw notFound('embed preset');
  return preset;
}

/** Gives a video a preset, or none, keeping the videos_total of both presets exact. */
export async function setVideoPreset(store: Store, video: VideoRecord, presetId: string | null): Promise<void> {
  if (video.preset_id === presetId) return;
  if (video.preset_id) await store.increment('presets', video.preset_id, 'videos_total', -1);
  if (presetId) await store.increment('presets', presetId, 'videos_total', 1);
  await store.update<VideoRecord>('videos', video.id, { preset_id: presetId });
}

/** Deletes a preset; the videos that used it are left with no preset. */
export async function deletePreset(store: Store, preset: EmbedPresetRecord): Promise<void> {
  const { items } = await store.find<VideoRecord>('videos', { where: eq('preset_id', preset.id) });
  for (const video of items) await store.update<VideoRecord>('videos', video.id, { preset_id: null });
  await store.delete('presets', preset.id);
}
