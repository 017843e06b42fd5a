import type { Filter, Store } from '../store/store';
import { and, eq } from '../store/filters';
import type { PictureRecord } from '../records';
import { notFound } from '../engine/errors';
import { ownerMediaPrefix } from '../media/image-links';
import type { AlbumRecord } from './album-records';
import { findById } from './lookup';

/**
 * An album's images, each kind with one active image at most, which the album keeps a copy of:
 * custom logos (the active one shows in the album's player, `custom_logo`) and custom thumbnails
 * (the active one is the album's `pictures`).
 */
export const albumPictures = {
  logo: { ownerKind: 'album_logo', segment: 'logos', active: 'active_logo', noun: 'logo' },
  thumbnail: { ownerKind: 'album_thumbnail', segment: 'custom_thumbnails', active: 'active_thumbnail', noun: 'custom thumbnail' },
} as const;
export type AlbumPictureKind = keyof typeof albumPictures;

/** The picture owner kinds of albums. */
export const albumPictureOwnerKinds: readonly string[] = Object.values(albumPictures).map((k) => k.ownerKind);

export const albumPicturesOf = (kind: AlbumPictureKind, albumId: string): Filter => and(eq('owner_kind', albumPictures[kind].ownerKind), eq('owner_id', albumId));

/** An image of `album` of this kind (404 when missing or another album's). */
export async function loadAlbumPicture(store: Store, kind: AlbumPictureKind, album: AlbumRecord, id: string): Promise<PictureRecord> {
  const picture = await findById<PictureRecord>(store, 'pictures', id);
  if (!picture || picture.owner_kind !== albumPictures[kind].ownerKind || picture.owner_id !== album.id) throw notFound(albumPictures[kind].noun);
  return picture;
}

/** Turns an image's `active` flag on or off: turning one on turns the album's others of the kind off, and the album's copy follows. */
export async function setAlbumPictureActive(store: Store, kind: AlbumPictureKind, picture: PictureRecord, active: boolean, now: string): Promise<PictureRecord> {
  if (picture.active === active) return picture;
  if (active) {
    const { items } = await store.find<PictureRecord>('pictures', { where: and(albumPicturesOf(kind, picture.owner_id), eq('active', true)) });
    for (const other of items) await store.update<PictureRecord>('pictures', other.id, { active: false, modified_time: now });
  }
  const saved = (await store.update<PictureRecord>('pictures', picture.id, { active, modified_time: now }))!;
  await store.update<AlbumRecord>('albums', picture.owner_id, { [albumPictures[kind].active]: active ? saved : null });
  return saved;
}

/** Adds an inactive image of the kind to the album. */
export function addAlbumPicture(store: Store, kind: AlbumPictureKind, album: AlbumRecord, now: string): Promise<PictureRecord> {
  return store.insert<PictureRecord>('pictures', {
    owner_kind: albumPictures[kind].ownerKind,
    owner_id: album.id,
    active: false,
    time: null,
    type: 'custom',
    created_time: now,
    modified_time: now,
  });
}

/** Deletes an image; deleting the active one leaves the album without one of the kind. */
export async function deleteAlbumPicture(store: Store, kind: AlbumPictureKind, picture: PictureRecord): Promise<void> {
  if (picture.active) await store.update<AlbumRecord>('albums', picture.owner_id, { [albumPictures[kind].active]: null });
  await store.delete('pictures', picture.id);
}

/** Deletes every image of an album, answering where their files are. */
export async function deleteAlbumPictures(store: Store, albumId: string): Promise<string[]> {
  for (const kind of Object.keys(albumPictures) as AlbumPictureKind[]) await store.deleteWhere('pictures', albumPicturesOf(kind, albumId));
  return albumPictureOwnerKinds.map((ownerKind) => ownerMediaPrefix(ownerKind, albumId));
}
