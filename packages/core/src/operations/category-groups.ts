import { object } from 'superstruct';
import { listParams, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { loadCategory } from '../domain/categories';
import { groupsHolding } from '../domain/category-stats';
import { groupSorts } from '../domain/group-lists';
import { listGroups } from './represent-groups';

type Sort = keyof typeof groupSorts;

export const listCategoryGroups = operation({
  id: 'categories.groups.list',
  summary: 'List the groups in a category: those holding a video of the category (or a subcategory) that the caller may see',
  method: 'GET',
  paths: ['/categories/{category}/groups'],
  params: object(listParams<Sort, never>({ sort: Object.keys(groupSorts) as Sort[], query: true })),
  async handle(ctx) {
    const category = loadCategory(ctx.path.category);
    return listGroups(ctx, ctx.params as ListParams<Sort>, { where: groupsHolding(category, ctx.principal.user), sorts: groupSorts, defaultSort: 'date' });
  },
});

export const categoryGroupOperations = [listCategoryGroups];
