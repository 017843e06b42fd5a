import type { Store } from '../store/store';
import { where } from '../store/filters';
import type { UserRecord, UserVideoRecord, VideoRecord } from '../records';
import { forbidden, invalidField } from '../engine/errors';
import { isoTime } from '../support/time';
import { findUser } from './users';

/** 403 unless the video is shared with a user list (privacy.view `users`). */
export function assertUserList(video: VideoRecord): void {
  if (video.privacy_view !== 'users') throw forbidden('The video is not shared with a user list: set privacy.view to users first.');
}

/** 403 unless the video's embeds are limited to a whitelist (privacy.embed `whitelist`). */
export function assertWhitelist(video: VideoRecord): void {
  if (video.privacy.embed !== 'whitelist') throw forbidden('The video has no embed whitelist: set privacy.embed to whitelist first.');
}

const userEntry = /^(?:\/users\/)?([A-Za-z0-9_-]{1,64})$/;

/** The user id or slug a user URI (`/users/{id}`) or a bare id names; null for anything else. */
export const userIdOf = (entry: string): string | null => userEntry.exec(entry.trim())?.[1] ?? null;

/** The users a `users` body names (URIs or ids), each once, in order; 400 naming `users` for a bad or unknown entry. */
export async function resolveUsers(store: Store, entries: string[]): Promise<UserRecord[]> {
  const users = new Map<string, UserRecord>();
  for (const entry of entries) {
    const id = userIdOf(entry);
    if (!id) throw invalidField('users', `"${entry}" is neither a user URI (/users/{id}) nor a user id`);
    const user = await findUser(store, id);
    // 2900: "a listed user does not exist" (SPEC.md, Errors).
    if (!user) throw invalidField('users', `user "${entry}" does not exist`, 2900);
    users.set(user.id, user);
  }
  return [...users.values()];
}

/** Puts a user on the video's access list once, keeping `users_with_access_total` exact. */
export async function grantAccess(store: Store, video: VideoRecord, user: UserRecord, now: Date): Promise<void> {
  if (await store.findOne<UserVideoRecord>('video_access', where({ video_id: video.id, user_id: user.id }))) return;
  await store.insert<UserVideoRecord>('video_access', { video_id: video.id, user_id: user.id, created_time: isoTime(now) });
  await store.increment('videos', video.id, 'users_with_access_total', 1);
}

/** Takes `user` (everyone without one) off the access list; false when nobody was taken off. */
export async function revokeAccess(store: Store, video: VideoRecord, user?: UserRecord): Promise<boolean> {
  const removed = await store.deleteWhere('video_access', where({ video_id: video.id, ...(user ? { user_id: user.id } : {}) }));
  if (removed) await store.increment('videos', video.id, 'users_with_access_total', -removed);
  // Whoever left the list may hold links to the video's media: they die with the access.
  if (removed) await store.increment('videos', video.id, 'links_version', 1);
  return removed > 0;
}
