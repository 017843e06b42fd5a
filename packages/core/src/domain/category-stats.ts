import type { Filter, Store } from '../store/store';
import { and, eq, inSelect } from '../store/filters';
import type { Category } from '../catalog/categories';
import type { UserRecord } from '../records';
import type { Context } from '../engine/operation';
import { representCategory } from '../representations/category';
import { categoryFollowTimes } from './category-follows';
import { inCategory, lastVideoTime } from './categories';
import { channelsInCategory } from './channel-categories';
import { visibleChannels } from './channel-visibility';
import { listableGroups } from './groups';
import { withMembers } from './memberships';
import { representContext } from './users';
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

/**
 * Category representations for the caller, with the caller's follow of each (`followed`, when the
 * caller already has the times; else one query for all). Only a category read by itself carries
 * its stats (`withStats`): each is a count over every video of the category the caller may see
 * (seconds for a list of categories cold at 300,000 videos), so lists show the connections
 * without totals, as an embedded category does.
 */
export async function representCategories(
  ctx: Context<unknown>,
  list: readonly Category[],
  { followed, withStats = false }: { followed?: ReadonlyMap<string, string>; withStats?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const viewer = ctx.principal.user;
  const rc = representContext(ctx);
  const [times, stats] = await Promise.all([
    followed ?? categoryFollowTimes(ctx.store, viewer, list.map((c) => c.slug)),
    withStats ? Promise.all(list.map((c) => categoryStats(ctx.store, c, viewer))) : null,
  ]);
  return list.map((c, i) => representCategory(c, rc, times.get(c.slug) ?? null, stats?.[i] ?? null));
}
