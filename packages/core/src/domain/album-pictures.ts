import type { Store } from '../store/store';
import type { PictureRecord } from '../records';
import { ownerMediaPrefix } from '../media/image-links';
import { type AlbumRecord, albumPictures, type AlbumPictureKind } from '../records/album';
import { deleteOwnedPicture, insertOwnedPicture, loadOwnedPicture, ownedPicturesOf, setOwnedPictureActive } from './owned-pictures';

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
