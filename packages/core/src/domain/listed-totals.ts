import type { Filter, Store } from '../store/store';
import { and, eq, isIn, ne } from '../store/filters';
import type { UserRecord } from '../records';
import type { ListedTotals } from '../records/user-facts';
import { visibleChannels } from './channel-visibility';
import { listableGroups } from './groups';
import { withMembers } from './memberships';
import { perUser } from './user-connections';
import { visibleVideos } from './visibility';

/**
 * A User's connection totals as the caller could list them (issue 46 §7): the user themselves,
 * reading as owner, lists everything their counters count; anybody else lists what each list
 * shows them, so their totals are counted by the same conditions the lists apply. A list only its
 * user may read (folders, watch later, watch history, followed categories, what is shared with
 * them) lists nothing to others.
 */

/** The albums of `ownerId` that `viewer` finds listed: password albums, like password videos, are reached by id only. */
export const listedAlbums = (ownerId: string, viewer: UserRecord | null): Filter =>
  and(eq('user_id', ownerId), ownerId === viewer?.id ? undefined : ne('privacy_view', 'password'));

/**
 * The totals of each of `users` (none of them `viewer`) as `viewer` lists them: one grouped count
 * per connection (user-connections.ts perUser), so a page of users costs the same few reads
 * whatever its size and whatever its users hold (appearances aside, below).
 */
export async function listedTotals(store: Store, users: readonly UserRecord[], viewer: UserRecord | null): Promise<ListedTotals[]> {
  const ids = users.map((u) => u.id);
  const counted = (collection: string, rows: (ids: string[]) => Filter): Promise<Map<string, number>> => perUser(store, collection, rows, ids);
  const rowsOf = (collection: string, ids: string[]) => ({ collection, where: isIn('user_id', ids) });
  const [videos, albums, channels, groups, likes, appearances] = await Promise.all([
    counted('videos', (ids) => and(isIn('user_id', ids), visibleVideos(viewer))),
    counted('albums', (ids) => and(isIn('user_id', ids), ne('privacy_view', 'password'))),
    counted('channel_followers', (ids) => withMembers(rowsOf('channel_followers', ids), 'channel_id', 'channels', visibleChannels(viewer))),
    counted('group_members', (ids) => withMembers(rowsOf('group_members', ids), 'group_id', 'groups', listableGroups(viewer))),
    counted('likes', (ids) => withMembers(rowsOf('likes', ids), 'video_id', 'videos', visibleVideos(viewer))),
    // A user may hold several credits (roles) on one video, and the list shows the video once.
    // Few users appear in videos at all: only theirs are asked, and a page of none asks nothing.
    perUser(store, 'credits', (ids) => withMembers(rowsOf('credits', ids), 'video_id', 'videos', visibleVideos(viewer)), users.filter((u) => u.appearances_total > 0).map((u) => u.id), 'video_id'),
  ]);
  return users.map((u) => ({
    videos: videos.get(u.id) ?? 0,
    albums: albums.get(u.id) ?? 0,
    channels: channels.get(u.id) ?? 0,
    groups: groups.get(u.id) ?? 0,
    likes: likes.get(u.id) ?? 0,
    appearances: appearances.get(u.id) ?? 0,
    folders: 0,
    watchlater: 0,
    watched: 0,
    categories: 0,
    shared: 0,
  }));
}
