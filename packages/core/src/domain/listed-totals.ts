import type { Filter, Store } from '../store/store';
import { and, eq, isIn, ne } from '../store/filters';
import type { UserRecord } from '../records';
import type { ListedTotals } from '../representations/user';
import { appearancesOf } from './appearances';
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

type Counter = 'videos_total' | 'albums_total' | 'channels_total' | 'groups_total' | 'likes_total';

/**
 * The totals of each of `users` (none of them `viewer`) as `viewer` lists them. A page of users
 * costs one read per connection (user-connections.ts perUser), and a counter at 0 no read at all.
 */
export async function listedTotals(store: Store, users: readonly UserRecord[], viewer: UserRecord | null): Promise<ListedTotals[]> {
  const counted = async (counter: Counter, collection: string, rows: (ids: string[]) => Filter): Promise<Map<string, number>> => {
    const ids = users.filter((u) => u[counter] > 0).map((u) => u.id);
    const counts = await perUser(store, collection, rows, ids);
    return new Map(ids.map((id, i) => [id, counts[i]]));
  };
  const rowsOf = (collection: string, ids: string[]) => ({ collection, where: isIn('user_id', ids) });
  const [videos, albums, channels, groups, likes, appearances] = await Promise.all([
    counted('videos_total', 'videos', (ids) => and(isIn('user_id', ids), visibleVideos(viewer))),
    counted('albums_total', 'albums', (ids) => and(isIn('user_id', ids), ne('privacy_view', 'password'))),
    counted('channels_total', 'channel_followers', (ids) => withMembers(rowsOf('channel_followers', ids), 'channel_id', 'channels', visibleChannels(viewer))),
    counted('groups_total', 'group_members', (ids) => withMembers(rowsOf('group_members', ids), 'group_id', 'groups', listableGroups(viewer))),
    counted('likes_total', 'likes', (ids) => withMembers(rowsOf('likes', ids), 'video_id', 'videos', visibleVideos(viewer))),
    // A user may hold several credits on one video, and the list shows the video once: counted per user.
    Promise.all(users.map((u) => (u.appearances_total > 0 ? store.count('videos', and(appearancesOf(u.id), visibleVideos(viewer))) : 0))),
  ]);
  return users.map((u, i) => ({
    videos: videos.get(u.id) ?? 0,
    albums: albums.get(u.id) ?? 0,
    channels: channels.get(u.id) ?? 0,
    groups: groups.get(u.id) ?? 0,
    likes: likes.get(u.id) ?? 0,
    appearances: appearances[i],
    folders: 0,
    watchlater: 0,
    watched: 0,
    categories: 0,
    shared: 0,
  }));
}
