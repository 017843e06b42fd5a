import type { Filter, FindResult, OrderBy, Store } from '../store/store';
import { and, contains, eq, isIn, not, or } from '../store/filters';
import type { UserRecord } from '../records';
import { by, listReply, orderOf, pageOf, type ListParams, type Page } from '../engine/list';
import type { Context, Reply } from '../engine/operation';
import { representGroup } from '../representations/group';
import type { GroupMemberRecord, GroupRecord } from './group-records';
import { listableGroups } from './groups';
import { representContext } from './users';

/** The sorts every group list offers; `GET /groups` adds followers (members) and relevant. */
export const groupSorts = {
  alphabetical: by('name', 'asc'),
  date: by('created_time', 'desc'),
  members: by('members_total', 'desc'),
  videos: by('videos_total', 'desc'),
};

/** Group representations for a page of groups: owners and the viewer's memberships in one query each. */
export async function representGroups(ctx: Context<unknown>, groups: GroupRecord[]): Promise<Record<string, unknown>[]> {
  if (groups.length === 0) return [];
  const viewer = ctx.principal.user;
  const [owners, memberships] = await Promise.all([
    ctx.store.find<UserRecord>('users', { where: isIn('id', [...new Set(groups.map((g) => g.user_id))]) }),
    viewer
      ? ctx.store.find<GroupMemberRecord>('group_members', { where: and(eq('user_id', viewer.id), isIn('group_id', groups.map((g) => g.id))) })
      : { items: [], total: 0 },
  ]);
  const ownerOf = new Map(owners.items.map((u) => [u.id, u]));
  const membershipOf = new Map(memberships.items.map((m) => [m.group_id, m]));
  const rc = representContext(ctx);
  return groups.map((g) => representGroup(g, ownerOf.get(g.user_id)!, rc, membershipOf.get(g.id) ?? null));
}

export interface GroupListOptions {
  /** Which groups belong to the list; the listing rule and `query` are added here. */
  where?: Filter;
  sorts: Record<string, OrderBy[]>;
  defaultSort: string;
}

/**
 * A page of the groups in a list that the caller finds listed, filtered by `query` (name or
 * description), sorted and paged in the store. `sort=relevant` (which needs a query) ranks name
 * matches before description-only matches, each by members.
 */
export async function listGroups(ctx: Context<unknown>, params: ListParams, options: GroupListOptions): Promise<Reply> {
  const page = pageOf(params);
  const base = and(options.where, listableGroups(ctx.principal.user));
  const query = params.query?.trim();
  const sort = params.sort ?? options.defaultSort;
  const result =
    sort === 'relevant' && query
      ? await findRelevant(ctx.store, base, query, page)
      : await ctx.store.find<GroupRecord>('groups', {
          where: and(base, query ? or(contains('name', query), contains('description', query)) : undefined),
          orderBy: orderOf(options.sorts, sort, params.direction),
          offset: page.offset,
          limit: page.limit,
        });
  return listReply(ctx, page, result.total, await representGroups(ctx, result.items), 'group');
}

const byMembers = by('members_total', 'desc');

/** Two tiers paged as one list: groups whose name matches, then those matching only in their description. */
async function findRelevant(store: Store, base: Filter, query: string, page: Page): Promise<FindResult<GroupRecord>> {
  const named = await store.find<GroupRecord>('groups', { where: and(base, contains('name', query)), orderBy: byMembers, offset: page.offset, limit: page.limit });
  const described = and(base, not(contains('name', query)), contains('description', query));
  const room = page.limit - named.items.length;
  if (room === 0) return { total: named.total + (await store.count('groups', described)), items: named.items };
  const rest = await store.find<GroupRecord>('groups', { where: described, orderBy: byMembers, offset: Math.max(0, page.offset - named.total), limit: room });
  return { total: named.total + rest.total, items: [...named.items, ...rest.items] };
}
