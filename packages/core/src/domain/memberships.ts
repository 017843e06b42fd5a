import type { Doc, FindResult, Store } from '../store/store';
import { and, contains, eq, inSelect, isIn } from '../store/filters';
import { by, orderOf, type Page } from '../engine/list';
import type { UserRecord, UserVideoRecord } from '../records';

/** The records of `collection` with these ids, in the order of `ids`, in one query. */
export async function inOrderOf<T extends Doc>(store: Store, collection: string, ids: string[]): Promise<T[]> {
  if (ids.length === 0) return [];
  const { items } = await store.find<T>(collection, { where: isIn('id', ids) });
  const byId = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** How the users of a membership list sort: by name, or by when they joined it (newest first). */
export const memberSorts = { alphabetical: by('name', 'asc'), date: by('created_time', 'desc') };
export type MemberSort = keyof typeof memberSorts;

export interface MemberQuery {
  sort: MemberSort;
  direction?: 'asc' | 'desc';
  /** Case-insensitive part of the user's name. */
  query?: string;
  page: Page;
}

/**
 * One page of the users in a user↔video membership collection (likes, access list) of a video,
 * filtered, sorted and paged in the store: by name through a semi-join on users, by date through
 * the membership rows, whose time is the only record of when the user joined.
 */
export async function videoMembers(store: Store, collection: string, videoId: string, q: MemberQuery): Promise<FindResult<UserRecord>> {
  const named = q.query ? contains('name', q.query) : undefined;
  const orderBy = orderOf(memberSorts, q.sort, q.direction);
  const { offset, limit } = q.page;
  if (q.sort === 'alphabetical') {
    const where = and(inSelect('id', collection, 'user_id', eq('video_id', videoId)), named);
    return store.find<UserRecord>('users', { where, orderBy, offset, limit });
  }
  const where = and(eq('video_id', videoId), named && inSelect('user_id', 'users', 'id', named));
  const rows = await store.find<UserVideoRecord>(collection, { where, orderBy, offset, limit });
  return { total: rows.total, items: await inOrderOf<UserRecord>(store, 'users', rows.items.map((r) => r.user_id)) };
}
