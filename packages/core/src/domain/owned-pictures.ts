import type { Filter, FindResult, Store } from '../store/store';
import { and, eq } from '../store/filters';
import type { PictureRecord } from '../records';
import { notFound } from '../engine/errors';
import { findById } from './lookup';
import { by, type Page } from '../engine/list';

/**
 * Images an owner keeps several of per kind, one active at most, whose active one the owner's own
 * record carries a copy of: an album's logos and custom thumbnails, an On Demand page's posters
 * and backgrounds. `collection` is the owners', `active` the owner's field holding the copy.
 */
export interface OwnedPictureKind {
  collection: string;
  ownerKind: string;
  active: string;
  noun: string;
}

export const ownedPicturesOf = (kind: OwnedPictureKind, ownerId: string): Filter => and(eq('owner_kind', kind.ownerKind), eq('owner_id', ownerId));

/** A page of the owner's images of the kind, newest first. */
export const ownedPicturesPage = (store: Store, kind: OwnedPictureKind, ownerId: string, page: Page): Promise<FindResult<PictureRecord>> =>
  store.find<PictureRecord>('pictures', {
    where: ownedPicturesOf(kind, ownerId),
    orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
    offset: page.offset,
    limit: page.limit,
  });

/** An image of the owner of this kind (404 when missing or another owner's). */
export async function loadOwnedPicture(store: Store, kind: OwnedPictureKind, ownerId: string, id: string): Promise<PictureRecord> {
  const picture = await findById<PictureRecord>(store, 'pictures', id);
  if (!picture || picture.owner_kind !== kind.ownerKind || picture.owner_id !== ownerId) throw notFound(kind.noun);
  return picture;
}

/** Turns an image's `active` flag on or off: turning one on turns the owner's others of the kind off, and the owner's copy follows. */
export async function setOwnedPictureActive(store: Store, kind: OwnedPictureKind, picture: PictureRecord, active: boolean, now: string): Promise<PictureRecord> {
  if (picture.active === active) return picture;
  if (active) {
    const { items } = await store.find<PictureRecord>('pictures', { where: and(ownedPicturesOf(kind, picture.owner_id), eq('active', true)) });
    for (const other of items) await store.update<PictureRecord>('pictures', other.id, { active: false, modified_time: now });
  }
  const saved = (await store.update<PictureRecord>('pictures', picture.id, { active, modified_time: now }))!;
  await store.update(kind.collection, picture.owner_id, { [kind.active]: active ? saved : null });
  return saved;
}

/** Adds an inactive image of the kind to the owner. */
export const insertOwnedPicture = (store: Store, kind: OwnedPictureKind, ownerId: string, now: string): Promise<PictureRecord> =>
  store.insert<PictureRecord>('pictures', { owner_kind: kind.ownerKind, owner_id: ownerId, active: false, time: null, type: 'custom', created_time: now, modified_time: now });

/** Deletes an image; deleting the active one leaves the owner without one of the kind. */
export async function deleteOwnedPicture(store: Store, kind: OwnedPictureKind, picture: PictureRecord): Promise<void> {
  if (picture.active) await store.update(kind.collection, picture.owner_id, { [kind.active]: null });
  await store.delete('pictures', picture.id);
}
