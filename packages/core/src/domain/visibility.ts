import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, or, where } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { forbidden, notFound } from '../engine/errors';
import type { PasswordGuess } from './password-guesses';
import { viewerFilter } from './viewer-filters';

/**
 * The one rule deciding who may see a video (SPEC.md privacy.view), in two forms: a check for
 * one video and a store filter for lists, so lists never post-filter and totals stay true.
 *
 * | view     | owner | followed by owner | on access list | anyone else       |
 * |----------|-------|-------------------|----------------|-------------------|
 * | anybody  | yes   | yes               | yes            | yes               |
 * | contacts | yes   | yes               | no             | no                |
 * | users    | yes   | no                | yes            | no                |
 * | password | yes   | with the password, by id only                          |
 * | unlisted | yes   | by id only, never listed                               |
 * | nobody   | yes   | no                                                     |
 * | disable  | yes   | no                                                     |
 */
export async function assertCanView(store: Store, video: VideoRecord, viewer: UserRecord | null, password?: PasswordGuess): Promise<void> {
  if (viewer?.id === video.user_id) return;
  switch (video.privacy_view) {
    case 'anybody':
    case 'unlisted':
      return;
    case 'password':
      if (password && (await password(`video:${video.id}`, video.password_hash))) return;
      throw forbidden(
        password === undefined
          ? 'This video is password protected: send its password as the `password` parameter.'
          : 'The video password is wrong.',
      );
    case 'contacts':
      if (viewer && (await store.findOne('follows', where({ user_id: video.user_id, target_id: viewer.id })))) return;
      break;
    case 'users':
      if (viewer && (await store.findOne('video_access', where({ video_id: video.id, user_id: viewer.id })))) return;
      break;
  }
  throw notFound('video');
}

/** Where a collection keeps the video fields the rule reads: the videos themselves, or a membership's mirror. */
export interface VideoFields {
  id: string;
  user_id: string;
  privacy_view: string;
}

const ownFields: VideoFields = { id: 'id', user_id: 'user_id', privacy_view: 'privacy_view' };

/** Videos `viewer` may see listed, whoever owns them; `f` names the fields (a membership's mirrored copies). */
export function visibleVideos(viewer: UserRecord | null, f: VideoFields = ownFields): Filter {
  if (!viewer) return eq(f.privacy_view, 'anybody');
  return viewerFilter(viewer, f, () =>
    or(
      eq(f.user_id, viewer.id),
      eq(f.privacy_view, 'anybody'),
      and(eq(f.privacy_view, 'contacts'), inSelect(f.user_id, 'follows', 'user_id', eq('target_id', viewer.id))),
      and(eq(f.privacy_view, 'users'), inSelect(f.id, 'video_access', 'video_id', eq('user_id', viewer.id))),
    ),
  );
}

/** The videos of `ownerId` that `viewer` may see listed. */
export function listableVideos(viewer: UserRecord | null, ownerId: string): Filter {
  if (viewer?.id === ownerId) return eq('user_id', ownerId);
  return and(eq('user_id', ownerId), visibleVideos(viewer));
}
