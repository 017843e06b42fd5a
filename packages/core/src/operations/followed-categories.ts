import { object } from 'superstruct';
import { categories } from '../catalog/categories';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { noContent, operation, type Context } from '../engine/operation';
import { loadCategory } from '../domain/categories';
import type { CategoryFollowRecord } from '../records/feed';
import { actingUser } from '../domain/users';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { eq, where } from '../store/filters';
import { representCategories } from './categories';

/** SPEC.md request convention 6 and Errors 3200: only the user themselves sees or changes the categories they follow. */
const follower = (ctx: Context<unknown>): Promise<UserRecord> => actingUser(ctx, 'see or change the categories they follow');

/** The follow row of the user and the category a path names (404 for an unknown category). */
async function followOf(ctx: Context<unknown>): Promise<{ user: UserRecord; slug: string; name: string; row: CategoryFollowRecord | null }> {
  const user = await follower(ctx);
  const { slug, name } = loadCategory(ctx.path.category);
  const row = await ctx.store.findOne<CategoryFollowRecord>('category_follows', where({ user_id: user.id, category: slug }));
  return { user, slug, name, row };
}

const sorts = { alphabetical: by('name', 'asc'), date: by('created_time', 'desc'), name: by('name', 'asc') };
type Sort = keyof typeof sorts;

export const listFollowedCategories = operation({
  id: 'users.categories.list',
  summary: 'List the categories the user follows (only the user themselves)',
  method: 'GET',
  paths: ['/me/categories', '/users/{user_id}/categories'],
  scope: 'private',
  params: object(listParams({ sort: Object.keys(sorts) as Sort[] })),
  async handle(ctx) {
    const user = await follower(ctx);
    const p = ctx.params as ListParams<Sort>;
    const page = pageOf(p);
    const result = await ctx.store.find<CategoryFollowRecord>('category_follows', {
      where: eq('user_id', user.id),
      orderBy: orderOf(sorts, p.sort ?? 'date', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    // Follows of a category the shipped tree no longer has are skipped.
    const followed = result.items.flatMap((f) => categories.get(f.category) ?? []);
    const data = await representCategories(ctx, followed, { followed: new Map(result.items.map((f) => [f.category, f.created_time])) });
    return listReply(ctx, page, result.total, data, 'category');
  },
});

export const checkFollowedCategory = operation({
  id: 'users.categories.check',
  summary: 'Check that the user follows a category (204), 404 when not',
  method: 'GET',
  paths: ['/me/categories/{category}', '/users/{user_id}/categories/{category}'],
  scope: 'private',
  async handle(ctx) {
    if (!(await followOf(ctx)).row) throw notFound('category among those the user follows');
    return noContent();
  },
});

export const followCategory = operation({
  id: 'users.categories.follow',
  summary: 'Follow a category (nothing changes when the user already does)',
  method: 'PUT',
  paths: ['/me/categories/{category}', '/users/{user_id}/categories/{category}'],
  scope: 'interact',
  async handle(ctx) {
    const { user, slug, name, row } = await followOf(ctx);
    if (!row) {
      await ctx.store.insert<CategoryFollowRecord>('category_follows', { user_id: user.id, category: slug, name, created_time: isoTime(ctx.now()) });
      await ctx.store.increment('users', user.id, 'categories_total', 1);
    }
    return noContent();
  },
});

export const unfollowCategory = operation({
  id: 'users.categories.unfollow',
  summary: 'Stop following a category (nothing changes when the user does not follow it)',
  method: 'DELETE',
  paths: ['/me/categories/{category}', '/users/{user_id}/categories/{category}'],
  scope: 'interact',
  async handle(ctx) {
    const { user, row } = await followOf(ctx);
    if (row) {
      await ctx.store.delete('category_follows', row.id);
      await ctx.store.increment('users', user.id, 'categories_total', -1);
    }
    return noContent();
  },
});

export const followedCategoryOperations = [listFollowedCategories, checkFollowedCategory, followCategory, unfollowCategory];
