import type { Filter, OrderBy } from '../store/store';
import { and, eq, isIn } from '../store/filters';
import { matching } from '../store/search';
import type { UserRecord } from '../records';
import { listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import type { Context, Reply } from '../engine/operation';
import { representGroup } from '../representations/group';
import type { GroupMemberRecord, GroupRecord } from '../records/group';
import { listableGroups } from '../domain/groups';
import { representContext } from './represent-context';

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
 * description), sorted and paged in the store; a `relevant` sort ranks by the match (RELEVANCE).
 */
export async function listGroups(ctx: Context<unknown>, params: ListParams, options: GroupListOptions): Promise<Reply> {
  const page = pageOf(params);
  const base = and(options.where, listableGroups(ctx.principal.user));
  const query = params.query?.trim();
  const sort = params.sort ?? options.defaultSort;
  const result = await ctx.store.find<GroupRecord>('groups', {
    where: and(base, matching(query)),
    orderBy: orderOf(options.sorts, sort, params.direction),
    offset: page.offset,
    limit: page.limit,
  });
  return listReply(ctx, page, result.total, await representGroups(ctx, result.items), 'group');
}
