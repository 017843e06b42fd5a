import { categories, subcategoriesOf, type Category } from '../catalog/categories';
import { since } from '../engine/versions';
import { interaction, resourceKey, type RepresentContext } from './common';

export const categoryUri = (slug: string): string => `/categories/${slug}`;

/** The Category representation; `followed` is the viewer's follow time, when they follow it. */
export function representCategory(category: Category, ctx: RepresentContext, followed: string | null = null): Record<string, unknown> {
  const uri = categoryUri(category.slug);
  const parent = category.parent ? categories.get(category.parent)! : null;
  const out: Record<string, unknown> = {
    uri,
    name: category.name,
    link: `${ctx.baseUrl}/categories/${category.slug}`,
    top_level: category.parent === null,
    parent: parent ? { uri: categoryUri(parent.slug), name: parent.name, link: `${ctx.baseUrl}/categories/${parent.slug}` } : null,
    subcategories: subcategoriesOf(category.slug).map((s) => ({ uri: categoryUri(s.slug), name: s.name, link: `${ctx.baseUrl}/categories/${s.slug}` })),
    resource_key: resourceKey('category', category.slug),
  };
  if (since(ctx.version, 'clipCategories')) {
    out.metadata = {
      connections: {
        channels: { uri: `${uri}/channels`, options: ['GET'] },
        groups: { uri: `${uri}/groups`, options: ['GET'] },
        videos: { uri: `${uri}/videos`, options: ['GET'] },
      },
      interactions: ctx.viewer ? { follow: interaction(`/users/${ctx.viewer.id}/categories/${category.slug}`, followed !== null, followed) } : {},
    };
  }
  return out;
}
