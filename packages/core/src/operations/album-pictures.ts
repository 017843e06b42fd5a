import { boolean, object, optional } from 'superstruct';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { created, deleted, operation, ok, updated, type Context } from '../engine/operation';
import { addAlbumPicture, deleteAlbumPicture, loadAlbumPicture, setAlbumPictureActive } from '../domain/album-pictures';
import { type AlbumPictureKind, albumPictures, type AlbumRecord } from '../records/album';
import { loadOwnedAlbum } from '../domain/albums';
import { representContext } from './represent-context';
import type { PictureRecord } from '../records';
import { isoTime } from '../support/time';
import { albumPictureUri } from '../representations/album';
import { representPicture } from '../representations/picture';
import { pictureMediaPrefix } from '../media/image-links';
import { ownedPicturesPage } from '../domain/owned-pictures';

const represent = (ctx: Context<unknown>, kind: AlbumPictureKind, album: AlbumRecord, picture: PictureRecord) =>
  representPicture(picture, albumPictureUri(album, kind, picture.id), representContext(ctx), album.user_id);

/**
 * The five operations of one kind of album image, alike for logos (SPEC.md, Albums) and custom
 * thumbnails (the hosted API's, which the album's `add_custom_thumbnails` interaction names). They
 * exist only under the `/users/{user_id}/...` form, and are the album owner's alone (403 for anyone else).
 */
function operationsOfKind(kind: AlbumPictureKind, plural: string, base: string, one: string, idParam: string) {
  const { noun, segment } = albumPictures[kind];
  const paths = [base];
  const onePaths = [one];
  const manage = `manage its ${plural}`;
  const id = `users.albums.${segment}`;
  const load = async (ctx: Context<unknown>) => {
    const { album } = await loadOwnedAlbum(ctx, manage);
    return { album, picture: await loadAlbumPicture(ctx.store, kind, album, ctx.path[idParam]) };
  };
  return [
    operation({
      id: `${id}.list`,
      summary: `List an album's ${plural}, newest first (album owner only)`,
      method: 'GET',
      paths,
      auth: 'user',
      params: object(listParams({ direction: false })),
      async handle(ctx) {
        const { album } = await loadOwnedAlbum(ctx, manage);
        const page = pageOf(ctx.params as ListParams);
        const result = await ownedPicturesPage(ctx.store, albumPictures[kind], album.id, page);
        return listReply(ctx, page, result.total, result.items.map((picture) => represent(ctx, kind, album, picture)), 'picture');
      },
    }),
    operation({
      id: `${id}.create`,
      summary: `Add a ${noun} to an album (inactive until made active)`,
      method: 'POST',
      paths,
      scope: 'upload',
      async handle(ctx) {
        const { album } = await loadOwnedAlbum(ctx, manage);
        return created(represent(ctx, kind, album, await addAlbumPicture(ctx.store, kind, album, isoTime(ctx.now()))), 'picture');
      },
    }),
    operation({
      id: `${id}.get`,
      summary: `Get a ${noun} of an album (album owner only)`,
      method: 'GET',
      paths: onePaths,
      auth: 'user',
      async handle(ctx) {
        const { album, picture } = await load(ctx);
        return ok(represent(ctx, kind, album, picture), 'picture');
      },
    }),
    operation({
      id: `${id}.update`,
      summary: `Make a ${noun} the album's active one (the others turn off), or turn it off`,
      method: 'PATCH',
      paths: onePaths,
      scope: 'edit',
      params: object({ active: optional(boolean()) }),
      async handle(ctx) {
        const { album, picture } = await load(ctx);
        const saved = await setAlbumPictureActive(ctx.store, kind, picture, ctx.params.active ?? picture.active, isoTime(ctx.now()));
        return updated(ctx, represent(ctx, kind, album, saved), 'picture');
      },
    }),
    operation({
      id: `${id}.delete`,
      summary: `Delete a ${noun} of an album`,
      method: 'DELETE',
      paths: onePaths,
      scope: 'edit',
      async handle(ctx) {
        const { picture } = await load(ctx);
        await deleteAlbumPicture(ctx.store, kind, picture);
        return deleted([pictureMediaPrefix(picture)]);
      },
    }),
  ];
}

// Paths spelled out, so the table reads like SPEC.md.
export const albumPictureOperations = [
  ...operationsOfKind('logo', 'logos', '/users/{user_id}/albums/{album_id}/logos', '/users/{user_id}/albums/{album_id}/logos/{logo_id}', 'logo_id'),
  ...operationsOfKind(
    'thumbnail',
    'custom thumbnails',
    '/users/{user_id}/albums/{album_id}/custom_thumbnails',
    '/users/{user_id}/albums/{album_id}/custom_thumbnails/{thumbnail_id}',
    'thumbnail_id',
  ),
];
