import type { Store } from '../store/store';
import type { CreditRecord, UserRecord, VideoRecord } from '../records';
import { invalidField, notFound } from '../engine/errors';
import { findById } from './lookup';

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
