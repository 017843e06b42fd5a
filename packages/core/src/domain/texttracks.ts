import type { Store } from '../store/store';
import { where } from '../store/filters';
import type { TexttrackRecord, VideoRecord } from '../records';
import { ApiError, forbidden, notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { findById } from './lookup';
import { loadOwnedVideo } from './owned-video';

export const texttrackTypes = ['captions', 'chapters', 'descriptions', 'metadata', 'subtitles'] as const;

/** Text track codes of SPEC.md, Errors. */
export const texttrackCodes = { noPermission: 3430, disabled: 3431, missing: 5014, otherVideo: 5015 } as const;

/** The video of a text-track write: 404 when missing or hidden, 403/3430 when the caller sees it but does not own it. */
export async function loadTrackVideo(ctx: Context<unknown>, id: string, action: string): Promise<VideoRecord> {
  try {
    return await loadOwnedVideo(ctx, id, action);
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) throw forbidden(e.developerMessage, texttrackCodes.noPermission);
    throw e;
  }
}

/** The track a path names: 404/5014 when there is none, 404/5015 when it is another video's. */
export async function loadTrack(store: Store, video: VideoRecord, id: string): Promise<TexttrackRecord> {
  const track = await findById<TexttrackRecord>(store, 'texttracks', id);
  if (!track) throw notFound('text track', texttrackCodes.missing);
  if (track.video_id !== video.id) {
    throw new ApiError(404, texttrackCodes.otherVideo, "The requested text track couldn't be found.", `Text track ${id} belongs to another video.`);
  }
  return track;
}

/** 403/3431 for a track an administrator disabled. */
export function assertEnabled(track: TexttrackRecord): void {
  if (track.disabled) throw forbidden('This text track was disabled by an administrator and can no longer be changed.', texttrackCodes.disabled);
}

/** One active track per language: when `track` is active, the video's other active track in its language goes inactive. */
export async function keepOneActive(store: Store, track: TexttrackRecord): Promise<void> {
  if (!track.active) return;
  const { items } = await store.find<TexttrackRecord>('texttracks', {
    where: where({ video_id: track.video_id, language: track.language, active: true }),
  });
  for (const other of items) {
    if (other.id !== track.id) await store.update<TexttrackRecord>('texttracks', other.id, { active: false, modified_time: track.modified_time });
  }
}
