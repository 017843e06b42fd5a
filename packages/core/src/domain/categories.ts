import type { Filter, Store } from '../store/store';
import { and, eq, inSelect, isIn, notIn } from '../store/filters';
import { withMembers } from './memberships';
import { categories, subcategoriesOf, type Category } from '../catalog/categories';
import type { UserRecord, VideoCategoryRecord, VideoRecord } from '../records';
import { invalidField, notFound } from '../engine/errors';
import { by } from '../engine/list';
import { isoTime } from '../support/time';
import { recordActivity, withdrawActivity } from './activities';
import { visibleVideos } from './visibility';

/** Lower-cased slugs and names → category; a slug wins should a name ever read like another's slug. */
const byKey = new Map<string, Category>();
for (const c of categories.values()) byKey.set(c.name.toLowerCase(), c);
for (const c of categories.values()) byKey.set(c.slug.toLowerCase(), c);

/** The category a path or body names by slug or by name, case-insensitively (404 when none). */
export function loadCategory(key: string): Category {
  const category = byKey.get(key.trim().toLowerCase());
  if (!category) throw notFound('category');
  return category;
}

/** A category's slug with its subcategories': a video in a subcategory is in the parent too. */
export const withSubcategories = (category: Category): string[] => [category.slug, ...subcategoriesOf(category.slug).map((s) => s.slug)];

/** The `video_categories` rows that put a video in `category` (or one of its subcategories). */
const rowsOf = (category: Category): Filter => isIn('category', withSubcategories(category));

/** The videos in a category (or one of its subcategories), as a store filter; callers add the visibility rule. */
export const inCategory = (category: Category): Filter => inSelect('id', 'video_categories', 'video_id', rowsOf(category));

/** When a video `viewer` may see was last put in `category` or one of its subcategories; null when none was. */
export async function lastVideoTime(store: Store, category: Category, viewer: UserRecord | null): Promise<string | null> {
  const row = await store.findOne<VideoCategoryRecord>(
    'video_categories',
    withMembers({ collection: 'video_categories', where: rowsOf(category) }, 'video_id', 'videos', visibleVideos(viewer)),
    by('created_time', 'desc'),
  );
  return row?.created_time ?? null;
}

/** A video's categories, skipping any the shipped tree no longer has. */
export const categoriesOfVideo = (video: VideoRecord): Category[] =>
  video.categories.flatMap((slug) => categories.get(slug) ?? []);

/** Whether a video's categories put it in `category` (or one of its subcategories). */
export const videoInCategory = (video: VideoRecord, category: Category): boolean =>
  withSubcategories(category).some((slug) => video.categories.includes(slug));

/**
 * SPEC.md, Limits: "up to two categories and one subcategory". A subcategory counts toward its
 * parent, so the suggestions span at most two top-level categories, one of them narrowed by at
 * most one subcategory. 400 naming `category` otherwise.
 */
export function checkSuggestionLimits(chosen: readonly Category[]): void {
  if (chosen.filter((c) => c.parent !== null).length > 1) throw invalidField('category', 'may name at most one subcategory');
  const topLevel = new Set(chosen.map((c) => c.parent ?? c.slug));
  if (topLevel.size > 2) {
    throw invalidField('category', `may span at most two top-level categories (a subcategory counts toward its parent); these span ${[...topLevel].join(', ')}`);
  }
}

/**
 * Replaces a video's categories, keeping the `video_categories` rows and the video's `categories`
 * array in step; rows of categories it keeps keep their time.
 */
export async function setVideoCategories(store: Store, video: VideoRecord, chosen: readonly Category[], now: Date): Promise<void> {
  const slugs = chosen.map((c) => c.slug);
  const time = isoTime(now);
  await store.deleteWhere('video_categories', and(eq('video_id', video.id), notIn('category', slugs)));
  // Putting a video in a category features it there (the feed's category_featured).
  const featured = { type: 'category_featured', video_id: video.id, user_id: video.user_id } as const;
  for (const slug of video.categories) if (!slugs.includes(slug)) await withdrawActivity(store, { ...featured, subject: slug });
  for (const slug of slugs) {
    if (video.categories.includes(slug)) continue;
    await store.insert<VideoCategoryRecord>('video_categories', { video_id: video.id, category: slug, created_time: time });
    await recordActivity(store, { ...featured, subject: slug }, now);
  }
  await store.update<VideoRecord>('videos', video.id, { categories: slugs, modified_time: time });
}
