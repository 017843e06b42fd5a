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

/**
 * How many of the rows `rows` selects belong to each of `userIds` (absent: none), or with
 * `distinct` how many distinct values of that field they hold: one grouped count, so a page of
 * users costs one read per connection whatever the number of rows.
 */
export async function perUser(store: Store, collection: string, rows: (userIds: string[]) => Filter, userIds: string[], distinct?: string): Promise<Map<string, number>> {
  return userIds.length === 0 ? new Map() : store.countBy(collection, 'user_id', rows(userIds), distinct);
}

/** The `shared` and `moderated_channels` totals of each user, as `viewer` sees them. */
export async function connectionTotals(store: Store, users: readonly UserRecord[], viewer: UserRecord | null): Promise<{ shared: number; moderatedChannels: number }[]> {
  const ids = users.map((u) => u.id);
  // One user's conditions are shared (viewer-filters.ts userFilter).
  const one = users.length === 1 ? users[0] : null;
  const shares = (page: string[]) => (one ? userFilter(one, null, 'shares', () => shareRows(page)) : shareRows(page));
  const moderators = (page: string[]) => (one ? userFilter(one, viewer, 'moderators', () => moderatorRows(page, viewer)) : moderatorRows(page, viewer));
  // Only the viewer's own shared total is shown: anybody else's is listed (listed-totals.ts), as 0.
  // A signed-in viewer's is asked whether or not they are on the page, so a page's reads do not
  // depend on who is on it (page-queries.test.ts).
  const own = viewer && ids.length > 0 ? [viewer.id] : [];
  const [shared, moderated] = await Promise.all([perUser(store, 'video_access', shares, own), perUser(store, 'channel_moderators', moderators, ids)]);
  return ids.map((id) => ({ shared: shared.get(id) ?? 0, moderatedChannels: moderated.get(id) ?? 0 }));
}
