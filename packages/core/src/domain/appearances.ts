/**
 * A user appears in a video while at least one credit there names them (one user may hold several
 * roles). `users.appearances_total` counts those videos, and the first credit makes the `appears`
 * feed item; the operations that add and remove credits call creditAdded and creditRemoved.
 */

import type { Filter, Store } from '../store/store';
import { eq, inSelect, where } from '../store/filters';
import type { CreditRecord } from '../records';
import { recordActivity, withdrawActivity } from './activities';

/** The videos `userId` is credited in, as a store filter on videos (callers add the visibility rule). */
export const appearancesOf = (userId: string): Filter => inSelect('id', 'credits', 'video_id', eq('user_id', userId));

/** After `credit` was inserted: its user now appears in the video unless another credit already had them there. */
export async function creditAdded(store: Store, credit: CreditRecord, now: Date): Promise<void> {
  const { video_id, user_id } = credit;
  if ((await store.count('credits', where({ video_id, user_id }))) > 1) return;
  await store.increment('users', user_id, 'appearances_total', 1);
  await recordActivity(store, { type: 'appears', video_id, user_id }, now);
}

/** After `credit` was deleted: its user no longer appears in the video unless another credit still has them there. */
export async function creditRemoved(store: Store, credit: CreditRecord): Promise<void> {
  const { video_id, user_id } = credit;
  if (await store.findOne('credits', where({ video_id, user_id }))) return;
  await store.increment('users', user_id, 'appearances_total', -1);
  await withdrawActivity(store, { type: 'appears', video_id, user_id });
}

/** Before a video's credits are deleted with it: its credited users no longer appear in it. */
export async function forgetAppearances(store: Store, videoId: string): Promise<void> {
  const { items } = await store.find<CreditRecord>('credits', { where: eq('video_id', videoId) });
  for (const userId of new Set(items.map((c) => c.user_id))) await store.increment('users', userId, 'appearances_total', -1);
}
