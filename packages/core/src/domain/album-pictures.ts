import type { Store } from '../store/store';
import type { PictureRecord } from '../records';
import { ownerMediaPrefix } from '../media/image-links';
import type { AlbumRecord } from './album-records';
import { deleteOwnedPicture, insertOwnedPicture, loadOwnedPicture, ownedPicturesOf, setOwnedPictureActive } from './owned-pictures';

/**
 * An album's images, each kind with one active image at most, which the album keeps a copy of:
 * custom logos (the active one shows in the album's player, `custom_logo`) and custom thumbnails
 * (the active one is the album's `pictures`).
 */
export const albumPictures = {
  logo: { collection: 'albums', ownerKind: 'album_logo', segment: 'logos', active: 'active_logo', noun: 'logo' },
  thumbnail: { collection: 'albums', ownerKind: 'album_thumbnail', segment: 'custom_thumbnails', active: 'active_thumbnail', noun: 'custom thumbnail' },
} as const;
export type AlbumPictureKind = keyof typeof albumPictures;

/** The picture owner kinds of albums. */
export const albumPictureOwnerKinds: readonly string[] = Object.values(albumPictures).map((k) => k.ownerKind);

/** An image of `album` of this kind (404 when missing or another album's). */
export const loadAlbumPicture = (store: Store, kind: AlbumPictureKind, album: AlbumRecord, id: string): Promise<PictureRecord> =>
  loadOwnedPicture(store, albumPictures[kind], album.id, id);

/** Turns an image's `active` flag on or off: turning one on turns the album's others of the kind off, and the album's copy follows. */
export const setAlbumPictureActive = (store: Store, kind: AlbumPictureKind, picture: PictureRecord, active: boolean, now: string): Promise<PictureRecord> =>
  setOwnedPictureActive(store, albumPictures[kind], picture, active, now);

/** Adds an inactive image of the kind to the album. */
export const addAlbumPicture = (store: Store, kind: AlbumPictureKind, album: AlbumRecord, now: string): Promise<PictureRecord> =>
  insertOwnedPicture(store, albumPictures[kind], album.id, now);

/** Deletes an image; deleting the active one leaves the album without one of the kind. */
export const deleteAlbumPicture = (store: Store, kind: AlbumPictureKind, picture: PictureRecord): Promise<void> => deleteOwnedPicture(store, albumPictures[kind], picture);

/** Deletes every image of an album, answering where their files are. */
export async function deleteAlbumPictures(store: Store, albumId: string): Promise<string[]> {
  for (const kind of Object.keys(albumPictures) as AlbumPictureKind[]) await store.deleteWhere('pictures', ownedPicturesOf(albumPictures[kind], albumId));
  return albumPictureOwnerKinds.map((ownerKind) => ownerMediaPrefix(ownerKind, albumId));
}
