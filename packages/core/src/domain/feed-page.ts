import type { Filter, Store } from '../store/store';
import { and, gt, lt } from '../store/filters';
import { by, type Page } from '../engine/list';
import type { FeedCursor } from './feed-cursor';
import type { ActivityRecord } from '../records/feed';

export interface FeedPage {
  activities: ActivityRecord[];
  /** Every activity of the feed, wherever the page is. */
  total: number;
  /** Where the next (older) and previous (newer) pages start; null at the ends. */
  next: FeedCursor | null;
  previous: FeedCursor | null;
}

/**
 * One page of a feed (`feed`: its store filter), newest first. Without a cursor, page numbers
 * count from the newest activity; with one, the page is the activities next to the cursor's
 * position, so activities recorded or withdrawn meanwhile never shift it. Either way `next` and
 * `previous` are cursors, found in the store by looking past the page's edges.
 */
export async function readFeed(store: Store, feed: Filter, userId: string, page: Page, cursor: FeedCursor | null): Promise<FeedPage> {
  let activities: ActivityRecord[];
  let total: number;
  if (!cursor) {
    const { offset, limit } = page;
    ({ items: activities, total } = await store.find<ActivityRecord>('activities', { where: feed, orderBy: by('seq', 'desc'), offset, limit }));
  } else {
    const older = cursor.direction === 'older';
    const { items } = await store.find<ActivityRecord>('activities', {
      where: and(feed, older ? lt('seq', cursor.seq) : gt('seq', cursor.seq)),
      orderBy: by('seq', older ? 'desc' : 'asc'),
      limit: page.limit,
    });
    activities = older ? items : [...items].reverse();
    total = await store.count('activities', feed);
  }
  // The seq of the page's newest and oldest activity; an empty page after a cursor has edges
  // right beside the cursor's position, so it still links back.
  const edges = (): [number, number] | null => {
    if (activities.length > 0) return [activities[0].seq, activities[activities.length - 1].seq];
    if (!cursor) return null;
    return cursor.direction === 'older' ? [cursor.seq - 1, cursor.seq] : [cursor.seq, cursor.seq + 1];
  };
  const [newerThan, olderThan] = edges() ?? [null, null];
  const any = async (beyond: Filter): Promise<boolean> => (await store.findOne('activities', and(feed, beyond))) !== null;
  const next: FeedCursor | null =
    olderThan !== null && (await any(lt('seq', olderThan))) ? { user: userId, seq: olderThan, direction: 'older' } : null;
  const previous: FeedCursor | null =
    newerThan !== null && (await any(gt('seq', newerThan))) ? { user: userId, seq: newerThan, direction: 'newer' } : null;
  return { activities, total, next, previous };
}
