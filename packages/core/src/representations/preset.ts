import type { EmbedPresetRecord } from '../records/embed';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, resourceKey, type RepresentContext } from './common';
import { representUserSummary } from './user';

export const presetUri = (preset: EmbedPresetRecord): string => `/users/${preset.user_id}/presets/${preset.id}`;

/** The Embed preset representation; `owner` is the preset's user. */
export function representPreset(preset: EmbedPresetRecord, owner: UserRecord, ctx: RepresentContext): Record<string, unknown> {
  const uri = presetUri(preset);
  const out: Record<string, unknown> = {
    uri,
    name: preset.name,
    link: `${ctx.baseUrl}${uri}`,
    settings: preset.settings,
    user: representUserSummary(owner, ctx),
    created_time: preset.created_time,
    modified_time: preset.modified_time,
    resource_key: resourceKey('preset', preset.id),
  };
  if (since(ctx.version, 'connections')) {
    out.metadata = { connections: { videos: connection(`${uri}/videos`, preset.videos_total) } };
  }
  return out;
}
