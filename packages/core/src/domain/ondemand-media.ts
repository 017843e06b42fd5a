import type { Filter, Store } from '../store/store';
import { and, eq } from '../store/filters';
import type { PictureRecord } from '../records';
import { notFound } from '../engine/errors';
import { findById } from './lookup';
import type { OndemandPageRecord } from './ondemand-records';
import { ownerMediaPrefix } from '../media/image-links';

/** A page's images: posters (`/pictures`) and backgrounds, each kind with one active image at most. */
export const pageMedia = {
  poster: { ownerKind: 'ondemand_poster', segment: 'pictures', active: 'active_poster', counter: 'posters_total', noun: 'poster' },
  background: { ownerKind: 'ondemand_background', segment: 'backgrounds', active: 'active_background', counter: 'backgrounds_total', noun: 'background' },
} as const;
export type MediaKind = keyof typeof pageMedia;

export const mediaUri = (kind: MediaKind, picture: PictureRecord): string =>
  `/ondemand/pages/${picture.owner_id}/${pageMedia[kind].segment}/${picture.id}`;

export const mediaOf = (kind: MediaKind, pageId: string): Filter => and(eq('owner_kind', pageMedia[kind].ownerKind), eq('owner_id', pageId));

/** An image of `page` of this kind (404 when missing or another page's). */
export async function loadMedia(store: Store, kind: MediaKind, page: OndemandPageRecord, id: string): Promise<PictureRecord> {
  const picture = await findById<PictureRecord>(store, 'pictures', id);
  if (!picture || picture.owner_kind !== pageMedia[kind].ownerKind || picture.owner_id !== page.id) throw notFound(pageMedia[kind].noun);
  return picture;
}

/**
 * Turns an image's `active` flag on or off: turning one on turns the page's other image of the
 * kind off, and the page's copy (`active_poster` / `active_background`) follows.
 */
export async function setMediaActive(store: Store, kind: MediaKind, picture: PictureRecord, active: boolean, now: string): Promise<PictureRecord> {
  if (picture.active === active) return picture;
  if (active) {
    const { items } = await store.find<PictureRecord>('pictures', { where: and(mediaOf(kind, picture.owner_id), eq('active', true)) });
    for (const other of items) await store.update<PictureRecord>('pictures', other.id, { active: false, modified_time: now });
  }
  const saved = (await store.update<PictureRecord>('pictures', picture.id, { active, modified_time: now }))!;
  await store.update<OndemandPageRecord>('ondemand_pages', picture.owner_id, { [pageMedia[kind].active]: active ? saved : null });
  return saved;
}

/** Adds an image; it becomes the active one when asked to, or when the page shows none of the kind yet. */
export async function addMedia(store: Store, kind: MediaKind, page: OndemandPageRecord, active: boolean | undefined, now: string): Promise<PictureRecord> {
  const picture = await store.insert<PictureRecord>('pictures', {
    owner_kind: pageMedia[kind].ownerKind,
    owner_id: page.id,
    active: false,
    time: null,
    type: 'custom',
    created_time: now,
    modified_time: now,
  });
  await store.increment('ondemand_pages', page.id, pageMedia[kind].counter, 1);
  return setMediaActive(store, kind, picture, active ?? page[pageMedia[kind].active] === null, now);
}

/** Deletes an image; deleting the active one leaves the page without one of the kind. */
export async function deleteMedia(store: Store, kind: MediaKind, picture: PictureRecord): Promise<void> {
  if (picture.active) await store.update<OndemandPageRecord>('ondemand_pages', picture.owner_id, { [pageMedia[kind].active]: null });
  await store.delete('pictures', picture.id);
  await store.increment('ondemand_pages', picture.owner_id, pageMedia[kind].counter, -1);
}

/** Where a page's posters and backgrounds keep their files. */
export const pageMediaPrefixes = (pageId: string): string[] => Object.values(pageMedia).map((m) => ownerMediaPrefix(m.ownerKind, pageId));
