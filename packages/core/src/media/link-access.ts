import type { VideoRecord } from '../records';
import { trackLinkExpiry } from './track-links';

/**
 * Media links die with access (issue 46). Every video has an access version, part of each of its
 * signed playback, storyboard, picture and text-track links; it is bumped whenever fewer may watch the video
 * (it stops being public, its privacy or password changes while not public, a user leaves its
 * access list), so every link handed out before answers as a forged one does, at once. Pictures of
 * a public video stay long-lived and cacheable by anybody; those of any other video carry the
 * access version and expire like playback links.
 */

export const isPublicVideo = (video: Pick<VideoRecord, 'privacy_view'>): boolean => video.privacy_view === 'anybody';

export const accessVersion = (video: Pick<VideoRecord, 'links_version'>): number => video.links_version ?? 0;

/** What a picture link of a video that is not public carries: the access version it was handed out under, and its expiry (Unix seconds). */
export interface LinkAccess {
  version: number;
  expires: number;
}

/** The access a picture link of `video` is bound to: none while it is public. */
export const pictureAccess = (video: Pick<VideoRecord, 'privacy_view' | 'links_version'>, now: Date): LinkAccess | null =>
  isPublicVideo(video) ? null : { version: accessVersion(video), expires: trackLinkExpiry(now) };

/** Whether a picture link bound to `access` (null: unbound) still opens an image of `video` (null: not a video's). */
export function accessHolds(video: VideoRecord | null, access: LinkAccess | null, now: Date): boolean {
  if (access) return !!video && access.version === accessVersion(video) && access.expires * 1000 > now.getTime();
  return !video || isPublicVideo(video);
}

/** The patch's access version: one more when, after it, the video is not public and who may watch it changed. */
export function bumpedAccess(video: VideoRecord, patch: Partial<VideoRecord>): Partial<VideoRecord> {
  const view = patch.privacy_view ?? video.privacy_view;
  const changed = view !== video.privacy_view || (patch.password_hash !== undefined && patch.password_hash !== video.password_hash);
  return !isPublicVideo({ privacy_view: view }) && changed ? { links_version: accessVersion(video) + 1 } : {};
}
