import { object } from 'superstruct';
import { listParams, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { inCategory, loadCategory } from '../domain/categories';
import { groupSorts, listGroups } from '../domain/group-lists';
import { visibleVideos } from '../domain/visibility';
import { and, eq, inSelect } from '../store/filters';
import { withMembers } from '../domain/memberships';

type Sort = keyof typeof groupSorts;

/**
 * Groups have no categories of their own: a group is in a category while an approved video in it
 * that the caller may see is in that category (or one of its subcategories).
 */
export const listCategoryGroups = operation({
  id: 'categories.groups.list',
  summary: 'List the groups in a category: those holding a video of the category (or a subcategory) that the caller may see',
  method: 'GET',
  paths: ['/categories/{category}/groups'],
  params: object(listParams<Sort, never>({ sort: Object.keys(groupSorts) as Sort[], query: true })),
  async handle(ctx) {
    const category = loadCategory(ctx.path.category);
    const videos = and(inCategory(category), visibleVideos(ctx.principal.user));
    const rows = withMembers({ collection: 'group_videos', where: eq('status', 'approved') }, 'video_id', 'videos', videos);
    return listGroups(ctx, ctx.params as ListParams<Sort>, { where: inSelect('id', 'group_videos', 'group_id', rows), sorts: groupSorts, defaultSort: 'date' });
  },
});

export const categoryGroupOperations = [listCategoryGroups];
