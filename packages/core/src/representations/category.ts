import { categories, subcategoriesOf, type Category } from '../catalog/categories';
import { since } from '../engine/versions';
import type { CategoryStats } from '../records/category';
import { connection, interaction, placeholderPicture, resourceKey, type RepresentContext } from './common';

export const categoryUri = (slug: string): string => `/categories/${slug}`;

/**
 * The Category representation; `followed` is the viewer's follow time, when they follow it, and
 * `stats` what the category holds for the viewer (domain/category-stats.ts). A category embedded
 * in another representation (a Clip's, a channel's) comes without stats, which cost a count of
 * each list: its connections then carry no totals and it has no `last_video_featured_time`.
 */
export function representCategory(
  category: Category,
  ctx: RepresentContext,
  followed: string | null = null,
  stats: CategoryStats | null = null,
): Record<string, unknown> {
  const uri = categoryUri(category.slug);
  const parent = category.parent ? categories.get(category.parent)! : null;
  const out: Record<string, unknown> = {
    uri,
    name: category.name,
    link: `${ctx.baseUrl}/categories/${category.slug}`,
    top_level: category.parent === null,
    parent: parent ? { uri: categoryUri(parent.slug), name: parent.name, link: `${ctx.baseUrl}/categories/${parent.slug}` } : null,
    subcategories: subcategoriesOf(category.slug).map((s) => ({ uri: categoryUri(s.slug), name: s.name, link: `${ctx.baseUrl}/categories/${s.slug}` })),
    // Categories have no pictures of their own: the service placeholder.
    pictures: placeholderPicture(ctx, 'thumbnail'),
    resource_key: resourceKey('category', category.slug),
  };
  if (stats) out.last_video_featured_time = stats.lastVideoTime;
  if (since(ctx.version, 'clipCategories')) {
    const list = (path: string, total: number | undefined) => (total === undefined ? { uri: `${uri}/${path}`, options: ['GET'] } : connection(`${uri}/${path}`, total));
    out.metadata = {
      connections: {
        channels: list('channels', stats?.channels),
        groups: list('groups', stats?.groups),
        users: list('users', stats?.users),
        videos: list('videos', stats?.videos),
      },
      interactions: ctx.viewer ? { follow: interaction(`/users/${ctx.viewer.id}/categories/${category.slug}`, followed !== null, followed) } : {},
    };
  }
  return out;
}
