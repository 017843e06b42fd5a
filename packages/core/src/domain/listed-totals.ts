import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, ne } from '../store/filters';
import type { UserRecord } from '../records';
import type { ListedTotals } from '../representations/user';
import { appearancesOf } from './appearances';
import { visibleChannels } from './channel-visibility';
import { listableGroups } from './groups';
import { withMembers } from './memberships';
import { listableVideos, visibleVideos } from './visibility';

/**
 * A User's connection totals as the caller could list them (issue 46 §7): the user themselves,
 * reading as owner, lists everything their counters count; anybody else lists what each list
 * shows them, so their totals are counted by the same conditions the lists apply. A list only its
 * user may read (folders, watch later, watch history, followed categories, what is shared with them) lists nothing to others.
 */

/** The albums of `ownerId` that `viewer` finds listed: password albums, like password videos, are reached by id only. */
export const listedAlbums = (ownerId: string, viewer: UserRecord | null): Filter =>
  and(eq('user_id', ownerId), ownerId === viewer?.id ? undefined : ne('privacy_view', 'password'));

/** `user`'s totals as `viewer` (not `user`) lists them; a counter at 0 needs no count. */
export async function listedTotals(store: Store, user: UserRecord, viewer: UserRecord | null): Promise<ListedTotals> {
  const count = (total: number, collection: string, where: () => Filter): Promise<number> =>
    total === 0 ? Promise.resolve(0) : store.count(collection, where());
  const rowsOf = (collection: string) => ({ collection, where: eq('user_id', user.id) });
  const [videos, albums, channels, groups, likes, appearances] = await Promise.all([
    count(user.videos_total, 'videos', () => listableVideos(viewer, user.id)),
    count(user.albums_total, 'albums', () => listedAlbums(user.id, viewer)),
    count(user.channels_total, 'channel_followers', () => withMembers(rowsOf('channel_followers'), 'channel_id', 'channels', visibleChannels(viewer))),
    count(user.groups_total, 'groups', () => and(inSelect('id', 'group_members', 'group_id', eq('user_id', user.id)), listableGroups(viewer))),
    count(user.likes_total, 'likes', () => withMembers(rowsOf('likes'), 'video_id', 'videos', visibleVideos(viewer))),
    count(user.appearances_total, 'videos', () => and(appearancesOf(user.id), visibleVideos(viewer))),
  ]);
  return { videos, albums, channels, groups, likes, appearances, folders: 0, watchlater: 0, watched: 0, categories: 0, shared: 0 };
}
