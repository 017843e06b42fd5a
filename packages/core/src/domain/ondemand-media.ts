import type { Store } from '../store/store';
import type { PictureRecord } from '../records';
import { deleteOwnedPicture, insertOwnedPicture, loadOwnedPicture, setOwnedPictureActive } from './owned-pictures';
import type { OndemandPageRecord } from '../records/ondemand';
import { ownerMediaPrefix } from '../media/image-links';

/** A page's images: posters (`/pictures`) and backgrounds, each kind with one active image at most. */
export const pageMedia = {
  poster: { collection: 'ondemand_pages', ownerKind: 'ondemand_poster', segment: 'pictures', active: 'active_poster', counter: 'posters_total', noun: 'poster' },
  background: { collection: 'ondemand_pages', ownerKind: 'ondemand_background', segment: 'backgrounds', active: 'active_background', counter: 'backgrounds_total', noun: 'background' },
} as const;
export type MediaKind = keyof typeof pageMedia;

export const mediaUri = (kind: MediaKind, picture: PictureRecord): string =>
  `/ondemand/pages/${picture.owner_id}/${pageMedia[kind].segment}/${picture.id}`;

/** An image of `page` of this kind (404 when missing or another page's). */
export const loadMedia = (store: Store, kind: MediaKind, page: OndemandPageRecord, id: string): Promise<PictureRecord> => loadOwnedPicture(store, pageMedia[kind], page.id, id);

/**
 * Turns an image's `active` flag on or off: turning one on turns the page's other image of the
 * kind off, and the page's copy (`active_poster` / `active_background`) follows.
 */
export const setMediaActive = (store: Store, kind: MediaKind, picture: PictureRecord, active: boolean, now: string): Promise<PictureRecord> =>
  setOwnedPictureActive(store, pageMedia[kind], picture, active, now);

/** Adds an image; it becomes the active one when asked to, or when the page shows none of the kind yet. */
export async function addMedia(store: Store, kind: MediaKind, page: OndemandPageRecord, active: boolean | undefined, now: string): Promise<PictureRecord> {
  const picture = await insertOwnedPicture(store, pageMedia[kind], page.id, now);
  await store.increment('ondemand_pages', page.id, pageMedia[kind].counter, 1);
  return setMediaActive(store, kind, picture, active ?? page[pageMedia[kind].active] === null, now);
}

/** Deletes an image; deleting the active one leaves the page without one of the kind. */
export async function deleteMedia(store: Store, kind: MediaKind, picture: PictureRecord): Promise<void> {
  await deleteOwnedPicture(store, pageMedia[kind], picture);
  await store.increment('ondemand_pages', picture.owner_id, pageMedia[kind].counter, -1);
}

/** Where a page's posters and backgrounds keep their files. */
export const pageMediaPrefixes = (pageId: string): string[] => Object.values(pageMedia).map((m) => ownerMediaPrefix(m.ownerKind, pageId));
