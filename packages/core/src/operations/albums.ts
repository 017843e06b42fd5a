import { object } from 'superstruct';
import { listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, deleted, ok, operation, updated } from '../engine/operation';
import { since } from '../engine/versions';
import { deleteAlbumPictures } from '../domain/album-pictures';
import type { AlbumRecord } from '../records/album';
import { albumFields, albumListSorts, albumPatch, loadAlbum, loadOwnedAlbum, newAlbum, newAlbumFields, type AlbumListSort } from '../domain/albums';
import { listedAlbums } from '../domain/listed-totals';
import { actingUser, targetUser } from '../domain/users';
import { representContext } from './represent-context';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { representAlbum } from '../representations/album';
import { and, eq } from '../store/filters';
import { matching } from '../store/search';
import { getAlbumPlayer } from './album-player';
import { albumPictureOperations } from './album-pictures';
import { albumVideoOperations } from './album-videos';
import { projectOperations } from './projects';
import { projectVideoOperations } from './project-videos';

const paths = ['/me/albums', '/users/{user_id}/albums'];
const onePaths = ['/me/albums/{album_id}', '/users/{user_id}/albums/{album_id}'];

export const listAlbums = operation({
  id: 'users.albums.list',
  summary: "List a user's albums, newest first; others see every album but the password-protected ones",
  method: 'GET',
  paths,
  params: object(listParams({ sort: Object.keys(albumListSorts) as AlbumListSort[], query: true })),
  async handle(ctx) {
    const owner = await targetUser(ctx);
    const p = ctx.params as ListParams<AlbumListSort>;
    const page = pageOf(p);
    const query = p.query?.trim();
    // Like password videos, password albums are reached by id, never listed to others.
    const where = and(listedAlbums(owner.id, ctx.principal.user), matching(query));
    const result = await ctx.store.find<AlbumRecord>('albums', { where, orderBy: orderOf(albumListSorts, p.sort ?? 'date', p.direction), offset: page.offset, limit: page.limit });
    const rc = representContext(ctx);
    return listReply(ctx, page, result.total, result.items.map((a) => representAlbum(a, owner, rc)), 'album');
  },
});

export const createAlbum = operation({
  id: 'users.albums.create',
  summary: 'Create an album',
  method: 'POST',
  paths,
  scope: 'create',
  params: object(newAlbumFields),
  async handle(ctx) {
    const owner = await actingUser(ctx, 'create albums for themselves');
    const album = await ctx.store.insert<AlbumRecord>('albums', { ...newAlbum(owner, isoTime(ctx.now())), ...(await albumPatch(ctx, ctx.params, null)) });
    const saved = await ctx.store.increment<UserRecord>('users', owner.id, 'albums_total', 1);
    const body = representAlbum(album, saved!, representContext(ctx));
    return since(ctx.version, 'albumsCurrentForm') ? created(body, 'album') : ok(body, 'album');
  },
});

export const getAlbum = operation({
  id: 'users.albums.get',
  summary: "Get an album (a password album's details are public; its videos need the password)",
  method: 'GET',
  paths: onePaths,
  async handle(ctx) {
    const { album, owner } = await loadAlbum(ctx);
    return ok(representAlbum(album, owner, representContext(ctx)), 'album');
  },
});

export const updateAlbum = operation({
  id: 'users.albums.update',
  summary: 'Edit an album',
  method: 'PATCH',
  paths: onePaths,
  scope: 'edit',
  params: object(albumFields),
  async handle(ctx) {
    const { album, owner } = await loadOwnedAlbum(ctx, 'edit it');
    const saved = await ctx.store.update<AlbumRecord>('albums', album.id, await albumPatch(ctx, ctx.params, album));
    return updated(ctx, representAlbum(saved!, owner, representContext(ctx)), 'album');
  },
});

export const deleteAlbum = operation({
  id: 'users.albums.delete',
  summary: 'Delete an album (its videos stay)',
  method: 'DELETE',
  paths: onePaths,
  scope: 'delete',
  async handle(ctx) {
    const { album, owner } = await loadOwnedAlbum(ctx, 'delete it');
    await ctx.store.deleteWhere('album_videos', eq('album_id', album.id));
    const media = await deleteAlbumPictures(ctx.store, album.id);
    await ctx.store.delete('albums', album.id);
    await ctx.store.increment('users', owner.id, 'albums_total', -1);
    return deleted(media);
  },
});

/** The Albums and Projects (folders) sections of SPEC.md. */
export const albumOperations = [
  listAlbums,
  createAlbum,
  getAlbum,
  updateAlbum,
  deleteAlbum,
  ...albumVideoOperations,
  ...albumPictureOperations,
  getAlbumPlayer,
  ...projectOperations,
  ...projectVideoOperations,
];
