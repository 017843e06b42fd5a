import type { Filter, Store } from '../store/store';
import { and, eq, inSelect } from '../store/filters';
import type { Category } from '../catalog/categories';
import type { UserRecord } from '../records';
import { inCategory, lastVideoTime } from './categories';
import { channelsInCategory } from './channel-categories';
import { visibleChannels } from './channel-visibility';
import { listableGroups } from './groups';
import { withMembers } from './memberships';
import { visibleVideos } from './visibility';
import type { CategoryStats } from '../records/category';

/** The videos in a category (or a subcategory) that `viewer` may see: `/categories/{category}/videos`. */
export const categoryVideos = (category: Category, viewer: UserRecord | null): Filter => and(inCategory(category), visibleVideos(viewer));

/**
 * The groups holding a video of a category that `viewer` may see, approved there: groups have no
 * categories of their own, so a group is in a category while such a video is in it.
 */
export function groupsHolding(category: Category, viewer: UserRecord | null): Filter {
  const rows = withMembers({ collection: 'group_videos', where: eq('status', 'approved') }, 'video_id', 'videos', categoryVideos(category, viewer));
  return inSelect('id', 'group_videos', 'group_id', rows);
}

/** The groups in a category that `viewer` finds listed: `/categories/{category}/groups`. */
export const categoryGroups = (category: Category, viewer: UserRecord | null): Filter => and(groupsHolding(category, viewer), listableGroups(viewer));

/** The users behind a category, those with a video in it that `viewer` may see: `/categories/{category}/users`. */
export const categoryUsers = (category: Category, viewer: UserRecord | null): Filter => inSelect('id', 'videos', 'user_id', categoryVideos(category, viewer));

/** The channels in a category that `viewer` may see: `/categories/{category}/channels`. */
export const categoryChannels = (category: Category, viewer: UserRecord | null): Filter => and(channelsInCategory(category), visibleChannels(viewer));

/** A category's stats for `viewer`: one indexed count per list and the latest video's time. */
export async function categoryStats(store: Store, category: Category, viewer: UserRecord | null): Promise<CategoryStats> {
  const [channels, groups, users, videos, lastVideo] = await Promise.all([
    store.count('channels', categoryChannels(category, viewer)),
    store.count('groups', categoryGroups(category, viewer)),
    store.count('users', categoryUsers(category, viewer)),
    store.count('videos', categoryVideos(category, viewer)),
    lastVideoTime(store, category, viewer),
  ]);
  return { channels, groups, users, videos, lastVideoTime: lastVideo };
}
