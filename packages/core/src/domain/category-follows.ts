import type { Store } from '../store/store';
import { and, eq, isIn } from '../store/filters';
import { categories } from '../catalog/categories';
import type { UserRecord } from '../records';
import { withSubcategories } from './categories';
import type { CategoryFollowRecord } from '../records/feed';

/** The rows of the categories a user follows; a user follows at most the whole (small) catalog. */
const followsOf = async (store: Store, userId: string, slugs?: string[]): Promise<CategoryFollowRecord[]> =>
  (await store.find<CategoryFollowRecord>('category_follows', { where: and(eq('user_id', userId), slugs && isIn('category', slugs)) })).items;

/** slug → when `viewer` followed it, for the categories among `slugs` they follow (Category `interactions.follow`). */
export async function categoryFollowTimes(store: Store, viewer: UserRecord | null, slugs: string[]): Promise<Map<string, string>> {
  if (!viewer || slugs.length === 0) return new Map();
  return new Map((await followsOf(store, viewer.id, slugs)).map((f) => [f.category, f.created_time]));
}

/** The slugs whose videos a user's follows cover: each followed category and its subcategories. */
export async function followedCategorySlugs(store: Store, userId: string): Promise<string[]> {
  const followed = (await followsOf(store, userId)).flatMap((f) => categories.get(f.category) ?? []);
  return [...new Set(followed.flatMap(withSubcategories))];
}
