import type { Store } from '../store/store';
import type { PictureRecord, UserRecord } from '../records';
import { notFound } from '../engine/errors';
import { findById } from './lookup';
import { ofOwner } from './video-pictures';

/** The portraits (pictures of kind `user`) of one user. */
export const ofUser = (userId: string) => ofOwner('user', userId);

export const portraitUri = (picture: PictureRecord): string => `/users/${picture.owner_id}/pictures/${picture.id}`;

/** A portrait of `user` (404 when missing or someone else's). */
export async function loadPortrait(store: Store, user: UserRecord, id: string): Promise<PictureRecord> {
  const picture = await findById<PictureRecord>(store, 'pictures', id);
  if (!picture || picture.owner_kind !== 'user' || picture.owner_id !== user.id) throw notFound('picture');
  return picture;
}
