import type { Store } from '../store/store';
import { isIn } from '../store/filters';
import type { CreditRecord, UserRecord, VideoRecord } from '../records';
import { invalidField, notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { representCredit } from '../representations/credit';
import { findById } from './lookup';
import { representContext } from './users';

/** `user_uri` names a user by canonical URI; anything else is refused before a lookup. */
export const userUriPattern = /^\/users\/\d{1,18}$/;

/** The user a valid `user_uri` names (400 naming `user_uri` when there is none). */
export async function creditedUser(store: Store, userUri: string): Promise<UserRecord> {
  const user = await findById<UserRecord>(store, 'users', userUri.slice('/users/'.length));
  if (!user) throw invalidField('user_uri', 'names no existing user');
  return user;
}

/** The credit a path names, on that video (404 otherwise). */
export async function loadCredit(store: Store, video: VideoRecord, id: string): Promise<CreditRecord> {
  const credit = await findById<CreditRecord>(store, 'credits', id);
  if (!credit || credit.video_id !== video.id) throw notFound('credit');
  return credit;
}

/** Credit representations of one video's credits, the credited users loaded in one query. */
export async function representCredits(ctx: Context<unknown>, video: VideoRecord, credits: CreditRecord[]): Promise<Record<string, unknown>[]> {
  if (credits.length === 0) return [];
  const ids = [...new Set(credits.map((c) => c.user_id))];
  const { items } = await ctx.store.find<UserRecord>('users', { where: isIn('id', ids) });
  const users = new Map(items.map((u) => [u.id, u]));
  const rc = representContext(ctx);
  return credits.map((c) => representCredit(c, users.get(c.user_id)!, video, rc));
}

export const representOneCredit = async (ctx: Context<unknown>, video: VideoRecord, credit: CreditRecord): Promise<Record<string, unknown>> =>
  (await representCredits(ctx, video, [credit]))[0];
