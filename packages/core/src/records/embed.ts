import type { StoredImage } from './image';
import type { EmbedSettings, PresetRecord } from '../records';

/** The player settings an embed preset holds: the embed settings of a video, plus the outro. */
export type PresetSettings = EmbedSettings & {
  /** `nothing` disables the outro; null leaves the player's default outro. */
  outro: 'nothing' | null;
};

/** An embed preset as stored; `videos_total` counts the videos whose `preset_id` names it. */
export type EmbedPresetRecord = PresetRecord & { settings: PresetSettings; videos_total: number; modified_time: string };

/** A logo a user can show in the player of their videos; at most one of a user's logos is active. */
export type CustomLogoRecord = { id: string; user_id: string; active: boolean; created_time: string; image?: StoredImage | null };
