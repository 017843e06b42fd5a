import { isoTime } from '@reelbase/core';
import type { Fixture, Harness } from './harness';

/** Every privacy.view value; the matrix makes one video of each, named after it. */
export const views = ['anybody', 'contacts', 'users', 'password', 'unlisted', 'nobody', 'disable'] as const;
export type View = (typeof views)[number];

/** The callers the matrix asks about. */
export const viewers = ['owner', 'followed', 'listed', 'stranger', 'anonymous'] as const;
export type Viewer = (typeof viewers)[number];

/** The password of the matrix's `password` video. */
export const matrixPassword = 'open sesame';

export interface PrivacyMatrix {
  owner: Fixture;
  /** Each viewer's token; undefined for the anonymous caller. */
  tokens: Record<Viewer, string | undefined>;
  /** Video id by privacy.view. */
  videos: Record<View, string>;
}

/**
 * An owner with one video per privacy.view, a user the owner follows (`followed`: contacts
 * privacy lets them in), a user on the `users` video's access list, a stranger and no one.
 */
export async function seedPrivacyMatrix(h: Harness, label: string): Promise<PrivacyMatrix> {
  const owner = await h.user(`${label} owner`);
  const followed = await h.user(`${label} followed`);
  const listed = await h.user(`${label} listed`);
  const stranger = await h.user(`${label} stranger`);
  await h.follow(owner, followed);
  const videos = {} as Record<View, string>;
  for (const view of views) {
    videos[view] = await h.video(owner, { name: view, privacy: { view }, ...(view === 'password' ? { password: matrixPassword } : {}) });
  }
  // The access list is written straight to the store; its endpoints are tested with the privacy family.
  await h.service.store.insert('video_access', { user_id: listed.user.id, video_id: videos.users, created_time: isoTime(h.clock.now()) });
  return {
    owner,
    tokens: { owner: owner.token, followed: followed.token, listed: listed.token, stranger: stranger.token, anonymous: undefined },
    videos,
  };
}

/** The views each viewer finds in lists (the owner all; others never unlisted, password or disable). */
export const listedFor: Record<Viewer, readonly View[]> = {
  owner: views,
  followed: ['anybody', 'contacts'],
  listed: ['anybody', 'users'],
  stranger: ['anybody'],
  anonymous: ['anybody'],
};

/** The status a viewer gets reading one video by id without a password: 403 asks for the password, 404 hides. */
export function readStatus(viewer: Viewer, view: View): number {
  if (viewer === 'owner' || view === 'anybody' || view === 'unlisted') return 200;
  if (view === 'password') return 403;
  return listedFor[viewer].includes(view) ? 200 : 404;
}
