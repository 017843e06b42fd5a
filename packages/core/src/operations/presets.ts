import { enums, nullable, object, optional, pattern, size, string, type Infer } from 'superstruct';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { created, noContent, ok, operation, type Context } from '../engine/operation';
import type { EmbedPresetRecord, PresetSettings } from '../records/embed';
import { mergeDeep } from '../domain/patch';
import { deletePreset, loadOwnPreset } from '../domain/presets';
import { actingUser } from '../domain/users';
import { representContext } from './represent-context';
import { videoFields } from '../domain/video-fields';
import { listVisibleVideos } from './video-lists';
import { defaultEmbed, normalizeEmbed } from '../domain/video-write';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { representPreset } from '../representations/preset';
import { eq } from '../store/filters';

/**
 * What a preset holds, written at the top level as its representation shows them under
 * `settings`: the outro (SPEC.md: enum `nothing`; JSON null brings the default outro back) and
 * the embed fields of SPEC.md's Video table.
 */
const settingsFields = { outro: optional(nullable(enums(['nothing'] as const))), ...videoFields.embed.schema };
const presetName = size(pattern(string(), /\S/), 1, 128);
const updateStruct = object({ name: optional(presetName), ...settingsFields });
type SettingsInput = Omit<Infer<typeof updateStruct>, 'name'>;

const applySettings = (current: PresetSettings, input: SettingsInput): PresetSettings => mergeDeep(current, normalizeEmbed(input));

/** Only the owner reaches a preset, so the caller is its user. */
const represent = (ctx: Context<unknown>, preset: EmbedPresetRecord) =>
  representPreset(preset, ctx.principal.user as UserRecord, representContext(ctx));

export const createPreset = operation({
  id: 'users.presets.create',
  summary:
    'Extension (SPEC.md names no way to create presets): create an embed preset for oneself (403 for another user), with a name and the player settings it applies: outro, buttons, color, logos, playbar, volume, title',
  method: 'POST',
  paths: ['/me/presets', '/users/{user_id}/presets'],
  scope: 'create',
  params: object({ name: presetName, ...settingsFields }),
  async handle(ctx) {
    const user = await actingUser(ctx, 'create their embed presets');
    const { name, ...settings } = ctx.params;
    const time = isoTime(ctx.now());
    const preset = await ctx.store.insert<EmbedPresetRecord>('presets', {
      user_id: user.id,
      name: name.trim(),
      settings: applySettings({ ...defaultEmbed(), outro: null }, settings),
      videos_total: 0,
      created_time: time,
      modified_time: time,
    });
    return created(represent(ctx, preset), 'preset');
  },
});

export const listPresets = operation({
  id: 'users.presets.list',
  summary: "List the caller's embed presets, newest first (403 for another user's: presets are private settings)",
  method: 'GET',
  paths: ['/me/presets', '/users/{user_id}/presets'],
  auth: 'user',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const user = await actingUser(ctx, 'list their embed presets');
    const page = pageOf(ctx.params);
    const result = await ctx.store.find<EmbedPresetRecord>('presets', {
      where: eq('user_id', user.id),
      orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, result.items.map((p) => represent(ctx, p)), 'preset');
  },
});

export const getPreset = operation({
  id: 'users.presets.get',
  summary: 'Get one of the caller’s embed presets (404 when missing or not the caller’s)',
  method: 'GET',
  paths: ['/me/presets/{preset_id}', '/users/{user_id}/presets/{preset_id}'],
  auth: 'user',
  async handle(ctx) {
    return ok(represent(ctx, await loadOwnPreset(ctx)), 'preset');
  },
});

export const updatePreset = operation({
  id: 'users.presets.update',
  summary: 'Edit an embed preset: outro `nothing` disables the outro; name and the other player settings (404 when missing or not the caller’s)',
  method: 'PATCH',
  paths: ['/me/presets/{preset_id}', '/users/{user_id}/presets/{preset_id}'],
  scope: 'edit',
  params: updateStruct,
  async handle(ctx) {
    const preset = await loadOwnPreset(ctx);
    const { name, ...settings } = ctx.params;
    const saved = await ctx.store.update<EmbedPresetRecord>('presets', preset.id, {
      ...(name === undefined ? {} : { name: name.trim() }),
      settings: applySettings(preset.settings, settings),
      modified_time: isoTime(ctx.now()),
    });
    // SPEC.md's row says 200, and presets are not among the 204-before-3.2 PATCH operations.
    return ok(represent(ctx, saved!), 'preset');
  },
});

export const deleteEmbedPreset = operation({
  id: 'users.presets.delete',
  summary: 'Extension (SPEC.md names no way to delete presets): delete an embed preset; the videos that used it are left with none',
  method: 'DELETE',
  paths: ['/me/presets/{preset_id}', '/users/{user_id}/presets/{preset_id}'],
  scope: 'delete',
  async handle(ctx) {
    await deletePreset(ctx.store, await loadOwnPreset(ctx));
    return noContent();
  },
});

const videoSorts = { date: by('created_time', 'desc') };

export const listPresetVideos = operation({
  id: 'users.presets.videos.list',
  summary: 'List the videos that use an embed preset, newest first (404 when the preset is missing or not the caller’s)',
  method: 'GET',
  paths: ['/me/presets/{preset_id}/videos', '/users/{user_id}/presets/{preset_id}/videos'],
  auth: 'user',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const preset = await loadOwnPreset(ctx);
    return listVisibleVideos(ctx, ctx.params, { where: eq('preset_id', preset.id), sorts: videoSorts, defaultSort: 'date' });
  },
});

export const presetOperations = [createPreset, listPresets, getPreset, updatePreset, deleteEmbedPreset, listPresetVideos];
