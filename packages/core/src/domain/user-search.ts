import type { FindResult, Store } from '../store/store';
import { and, contains, eq, gte, lt, ne, not } from '../store/filters';
import { by, type Page } from '../engine/list';
import type { UserRecord } from '../records';

/** A user's name as relevance compares it (the indexed `name_key`): trimmed, lower case. */
export const nameKey = (name: string): string => name.trim().toLowerCase();

/** The least string above every string that starts with `prefix`; null when there is none. */
function successor(prefix: string): string | null {
  const stem = prefix.replace(/\uffff+$/, '');
  if (stem === '') return null;
  return stem.slice(0, -1) + String.fromCharCode(stem.charCodeAt(stem.length - 1) + 1);
}

/**
 * User search by relevance (`sort=relevant`): names equal to the query, then names starting with
 * it, then names containing it, the most followed first within each (`direction=asc` turns it all
 * round). Each tier is one store query on the indexed `name_key` (a prefix is a range of it), and
 * the page is cut across the tiers in order, so paging and `total` stay exact.
 */
export async function searchByRelevance(store: Store, query: string, page: Page, direction: 'asc' | 'desc' = 'desc'): Promise<FindResult<UserRecord>> {
  const key = nameKey(query);
  const upper = successor(key);
  const prefixed = and(gte('name_key', key), upper === null ? undefined : lt('name_key', upper));
  const tiers = [eq('name_key', key), and(prefixed, ne('name_key', key)), and(contains('name', query.trim()), not(prefixed))];
  if (direction === 'asc') tiers.reverse();
  const orderBy = by('followers_total', direction);
  const items: UserRecord[] = [];
  let skip = page.offset;
  let total = 0;
  for (const where of tiers) {
    const wanted = page.limit - items.length;
    if (wanted === 0) {
      total += await store.count('users', where);
      continue;
    }
    const found = await store.find<UserRecord>('users', { where, orderBy, offset: skip, limit: wanted });
    items.push(...found.items);
    total += found.total;
    skip = Math.max(0, skip - found.total);
  }
  return { items, total };
}
