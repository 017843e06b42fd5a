import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, isIn } from '../store/filters';
import type { UserRecord } from '../records';
import { visibleChannels } from './channel-visibility';
import { withMembers } from './memberships';
import { userFilter } from './viewer-filters';

/**
 * The User's `shared` and `moderated_channels` connections: the list of the first, and the totals
 * of both. A total counts the membership rows its list pages through, so it is the list's: the
 * user's access rows of `users` videos (GET /users/{id}/shared/videos), their moderator rows of
 * channels the viewer may see (GET /users/{id}/channels?filter=moderated, channel-subscriptions.ts).
 */

/** The videos shared with a user: `users`-privacy videos whose access list names them (all of which they may see). */
export const sharedWith = (userId: string): Filter =>
  and(eq('privacy_view', 'users'), inSelect('id', 'video_access', 'video_id', eq('user_id', userId)));

const shareRows = (userIds: string[]): Filter => withMembers({ collection: 'video_access', where: isIn('user_id', userIds) }, 'video_id', 'videos', eq('privacy_view', 'users'));

/** A moderator sees every channel they moderate: their own rows need no check of the channels (GET /me asks it on every read). */
const moderatorRows = (userIds: string[], viewer: UserRecord | null): Filter =>
  userIds.length === 1 && userIds[0] === viewer?.id
    ? eq('user_id', viewer.id)
    : withMembers({ collection: 'channel_moderators', where: isIn('user_id', userIds) }, 'channel_id', 'channels', visibleChannels(viewer));

/** Rows read at once for a page of users; beyond, each user's are counted instead. */
const batchRows = 200;

/**
 * How many of the rows `rows` selects belong to each user: one query for a page whose rows are
 * few (the usual case: a list of users costs two queries, not two per user), else an indexed
 * count per user.
 */
export async function perUser(store: Store, collection: string, rows: (userIds: string[]) => Filter, userIds: string[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const found = await store.find<{ id: string; user_id: string }>(collection, { where: rows(userIds), limit: batchRows });
  if (found.total > found.items.length) return Promise.all(userIds.map((id) => store.count(collection, rows([id]))));
  const counts = new Map<string, number>();
  for (const row of found.items) counts.set(row.user_id, (counts.get(row.user_id) ?? 0) + 1);
  return userIds.map((id) => counts.get(id) ?? 0);
}

/** The `shared` and `moderated_channels` totals of each user, as `viewer` sees them. */
export async function connectionTotals(store: Store, users: readonly UserRecord[], viewer: UserRecord | null): Promise<{ shared: number; moderatedChannels: number }[]> {
  const ids = users.map((u) => u.id);
  // One user's conditions are shared (viewer-filters.ts userFilter).
  const one = users.length === 1 ? users[0] : null;
  const shares = (page: string[]) => (one ? userFilter(one, null, 'shares', () => shareRows(page)) : shareRows(page));
  const moderators = (page: string[]) => (one ? userFilter(one, viewer, 'moderators', () => moderatorRows(page, viewer)) : moderatorRows(page, viewer));
  const [shared, moderated] = await Promise.all([perUser(store, 'video_access', shares, ids), perUser(store, 'channel_moderators', moderators, ids)]);
  return ids.map((_, i) => ({ shared: shared[i], moderatedChannels: moderated[i] }));
}
