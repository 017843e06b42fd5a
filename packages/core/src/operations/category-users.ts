import { object } from 'superstruct';
import { listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { loadCategory } from '../domain/categories';
import { categoryUsers } from '../domain/category-stats';
import { representUsers } from './represent-users';
import type { UserRecord } from '../records';
import { and } from '../store/filters';
import { matching } from '../store/search';
import { userSorts } from './users';

type Sort = keyof typeof userSorts;

export const listCategoryUsers = operation({
  id: 'categories.users.list',
  summary:
    "List the users behind a category: those with a video in it (or a subcategory) that the caller may see. The list the Category's users connection names, which SPEC.md leaves without a row",
  method: 'GET',
  paths: ['/categories/{category}/users'],
  params: object(listParams<Sort, never>({ sort: Object.keys(userSorts) as Sort[], query: true })),
  async handle(ctx) {
    const category = loadCategory(ctx.path.category);
    const p = ctx.params as ListParams<Sort>;
    const page = pageOf(p);
    const query = p.query?.trim();
    const result = await ctx.store.find<UserRecord>('users', {
      where: and(categoryUsers(category, ctx.principal.user), matching(query)),
      orderBy: orderOf(userSorts, p.sort ?? 'alphabetical', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
  },
});

export const categoryUserOperations = [listCategoryUsers];
