import type { Filter } from '../store/store';
import { eq, isIn, or } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { forbidden, notFound } from '../engine/errors';
import { verifySecret } from './secrets';

/**
 * The one rule deciding who may read a video (SPEC.md privacy.view). The owner always may;
 * `anybody` and `unlisted` (by direct id) are open; `password` needs the password.
 * `contacts` and `users` open up once follows and access lists exist; until then only the owner.
 */
export function assertCanView(video: VideoRecord, viewer: UserRecord | null, password: string | undefined): void {
  if (viewer?.id === video.user_id) return;
  switch (video.privacy_view) {
    case 'anybody':
    case 'unlisted':
      return;
    case 'password':
      if (password !== undefined && verifySecret(password, video.password_hash)) return;
      throw forbidden(
        password === undefined
          ? 'This video is password protected: send its password as the `password` parameter.'
          : 'The video password is wrong.',
      );
    default:
      throw notFound('video');
  }
}

/** The videos of `ownerId` that `viewer` may see listed: the store filters with it, so totals and pages stay true. */
export function listableVideos(viewer: UserRecord | null, ownerId: string): Filter {
  if (viewer?.id === ownerId) return eq('user_id', ownerId);
  return { and: [eq('user_id', ownerId), or(isIn('privacy_view', ['anybody']))] };
}
