import type { Doc, Filter, FindResult, OrderBy, Store } from '../store/store';
import { and, eq, inSelect, isIn } from '../store/filters';
import { matching } from '../store/search';
import { by, orderOf, type Page } from '../engine/list';
import type { UserRecord } from '../records';
import { deepFreeze, isShared, sharedOnce } from '../store/copy-json';
import { identityOf, Remembered } from '../support/remembered';

/**
 * The rows matching `rows.where` whose `field` names a member (in `members`, by id) that matches
 * `where`. The members are looked for among these rows' own: a bare semi-join would first collect
 * every matching member of the whole collection (every visible video of a million) for a list of
 * twenty.
 */
export const withMembers = (rows: { collection: string; where: Filter }, field: string, members: string, where: Filter): Filter =>
  and(rows.where, inSelect(field, members, 'id', and(inSelect('id', rows.collection, field, rows.where), where)));

/**
 * The records of `collection` with these ids, in the order of `ids`, in one query. Where the store
 * shares its answer, the ordered records are shared too, remembered per answer and order: a page
 * of a channel's videos is then the same array on every read until something changes, which is
 * what lets its Clips be remembered as a page (domain/videos.ts).
 */
export async function inOrderOf<T extends Doc>(store: Store, collection: string, ids: readonly string[]): Promise<T[]> {
  if (ids.length === 0) return [];
  const { items } = await store.find<T>(collection, { where: idIn(ids) });
  const order = () => {
    const byId = new Map(items.map((item) => [item.id, item]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  if (!isShared(items)) return order();
  return ordered.get(items, isShared(ids) ? `#${identityOf(ids)}` : ids.join(','), () => deepFreeze(order())) as T[];
}

/**
 * The ids that `field` of each of `rows` names, in order. For a store's shared answer (a page of a
 * list's rows) they are made once and shared, and so is the condition that reads their records
 * (idIn): a hot page then asks the same condition on every read, which a store that remembers
 * reads keys without writing the ids out again (store-sqlite read-keys.ts).
 */
export function idsOf<R extends Doc>(rows: readonly R[], field: keyof R & string): readonly string[] {
  const build = () => rows.map((r) => String(r[field]));
  return isShared(rows) ? derivedIds.get(rows, field, () => deepFreeze(build())) : build();
}

const derivedIds = new Remembered<readonly string[]>(2);

/** `id` is one of `ids`: one condition per shared list of ids (idsOf). */
export const idIn = (ids: readonly string[]): Filter => sharedOnce(idConditions, ids, () => isIn('id', ids));

const idConditions = new WeakMap<readonly string[], Filter>();

const ordered = new Remembered<readonly Doc[]>(4);

/** How the users of a membership list sort: by name, or by when they joined it (newest first). */
export const memberSorts = { alphabetical: by('name', 'asc'), date: by('created_time', 'desc') };
export type MemberSort = keyof typeof memberSorts;

export interface MemberQuery {
  sort: MemberSort;
  direction?: 'asc' | 'desc';
  /** Case-insensitive part of the user's name. */
  query?: string;
  /** Further conditions on the users (who is online, say). */
  users?: Filter;
  page: Page;
}

/**
 * One page of the users that the `rows` of a membership collection name in `userField` (likes and
 * access lists of a video, follows of a user…), filtered, sorted and paged in the store: by name
 * through a semi-join on users, by date through the membership rows, whose time is the only
 * record of when the user joined.
 */
export async function memberUsers(store: Store, collection: string, rows: Filter, userField: string, q: MemberQuery): Promise<FindResult<UserRecord>> {
  const users = q.query || q.users ? and(matching(q.query), q.users) : undefined;
  return memberPage<UserRecord>(store, {
    rows: { collection, where: rows, memberField: userField },
    members: { collection: 'users', where: users },
    orderBy: orderOf(memberSorts, q.sort, q.direction),
    byRow: q.sort !== 'alphabetical',
    page: q.page,
  });
}

/** One page of the users in a user↔video membership collection (likes, access list) of a video. */
export const videoMembers = (store: Store, collection: string, videoId: string, q: MemberQuery): Promise<FindResult<UserRecord>> =>
  memberUsers(store, collection, eq('video_id', videoId), 'user_id', q);

/** A page of a membership list: which rows make the list, which members may show, and the order. */
export interface MembershipPage {
  /** The membership collection, its rows that make the list, and the field naming the member. */
  rows: { collection: string; where: Filter; memberField: string };
  /** The member collection (users, videos, channels…) and the members that may show. */
  members: { collection: string; where?: Filter };
  orderBy: OrderBy[];
  /** True when `orderBy` names fields of the rows (when the member joined, its place), not of the members. */
  byRow: boolean;
  page: Page;
}

/**
 * One page of the members a membership collection lists, filtered, sorted and paged in the store:
 * by the members' fields through a semi-join on the rows, or by the rows' fields through a
 * semi-join on the members.
 */
export async function memberPage<T extends Doc>(store: Store, q: MembershipPage): Promise<FindResult<T>> {
  const { rows, members, orderBy } = q;
  const { offset, limit } = q.page;
  if (!q.byRow) {
    const where = and(inSelect('id', rows.collection, rows.memberField, rows.where), members.where);
    return store.find<T>(members.collection, { where, orderBy, offset, limit });
  }
  const where = members.where ? withMembers(rows, rows.memberField, members.collection, members.where) : rows.where;
  const found = await store.find(rows.collection, { where, orderBy, offset, limit });
  return { total: found.total, items: await inOrderOf<T>(store, members.collection, idsOf(found.items, rows.memberField)) };
}
