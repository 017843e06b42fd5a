import { boolean, object, optional } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { created, deleted, operation, ok, updated, type Context } from '../engine/operation';
import { albumLogoKind, type AlbumRecord } from '../domain/album-records';
import { loadOwnedAlbum } from '../domain/albums';
import { findById } from '../domain/lookup';
import { representContext } from '../domain/users';
import type { PictureRecord } from '../records';
import { isoTime } from '../representations/common';
import { albumUri } from '../representations/album';
import { representPicture } from '../representations/picture';
import type { Store } from '../store/store';
import { and, eq } from '../store/filters';
import { pictureMediaPrefix } from '../media/image-links';

/** Logos exist only under the `/users/{user_id}/...` form (SPEC.md, Albums). */
const paths = ['/users/{user_id}/albums/{album_id}/logos'];
const onePaths = ['/users/{user_id}/albums/{album_id}/logos/{logo_id}'];

/** Logos are the album owner's own: every logo operation is theirs alone (403 for anyone else). */
const manage = 'manage its logos';

const ofAlbum = (albumId: string) => and(eq('owner_kind', albumLogoKind), eq('owner_id', albumId));

const represent = (ctx: Context<unknown>, album: AlbumRecord, logo: PictureRecord) =>
  representPicture(logo, `${albumUri(album)}/logos/${logo.id}`, representContext(ctx), album.user_id);

async function loadLogo(store: Store, album: AlbumRecord, id: string): Promise<PictureRecord> {
  const logo = await findById<PictureRecord>(store, 'pictures', id);
  if (!logo || logo.owner_kind !== albumLogoKind || logo.owner_id !== album.id) throw notFound('logo');
  return logo;
}

export const listAlbumLogos = operation({
  id: 'users.albums.logos.list',
  summary: "List an album's custom logos, newest first (album owner only)",
  method: 'GET',
  paths,
  auth: 'user',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const { album } = await loadOwnedAlbum(ctx, manage);
    const page = pageOf(ctx.params as ListParams);
    const result = await ctx.store.find<PictureRecord>('pictures', {
      where: ofAlbum(album.id),
      orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, result.items.map((logo) => represent(ctx, album, logo)), 'picture');
  },
});

export const createAlbumLogo = operation({
  id: 'users.albums.logos.create',
  summary: 'Add a custom logo to an album (inactive until made active)',
  method: 'POST',
  paths,
  scope: 'upload',
  async handle(ctx) {
    const { album } = await loadOwnedAlbum(ctx, manage);
    const now = isoTime(ctx.now());
    const logo = await ctx.store.insert<PictureRecord>('pictures', {
      owner_kind: albumLogoKind,
      owner_id: album.id,
      active: false,
      time: null,
      type: 'custom',
      created_time: now,
      modified_time: now,
    });
    return created(represent(ctx, album, logo), 'picture');
  },
});

export const getAlbumLogo = operation({
  id: 'users.albums.logos.get',
  summary: 'Get a custom logo of an album (album owner only)',
  method: 'GET',
  paths: onePaths,
  auth: 'user',
  async handle(ctx) {
    const { album } = await loadOwnedAlbum(ctx, manage);
    return ok(represent(ctx, album, await loadLogo(ctx.store, album, ctx.path.logo_id)), 'picture');
  },
});

export const updateAlbumLogo = operation({
  id: 'users.albums.logos.update',
  summary: "Make a logo the album's active one (the others turn off), or turn it off",
  method: 'PATCH',
  paths: onePaths,
  scope: 'edit',
  params: object({ active: optional(boolean()) }),
  async handle(ctx) {
    const { album } = await loadOwnedAlbum(ctx, manage);
    const logo = await loadLogo(ctx.store, album, ctx.path.logo_id);
    const { active = logo.active } = ctx.params;
    const now = isoTime(ctx.now());
    if (active && !logo.active) {
      const { items } = await ctx.store.find<PictureRecord>('pictures', { where: and(ofAlbum(album.id), eq('active', true)) });
      for (const other of items) await ctx.store.update<PictureRecord>('pictures', other.id, { active: false, modified_time: now });
    }
    const saved = active === logo.active ? logo : (await ctx.store.update<PictureRecord>('pictures', logo.id, { active, modified_time: now }))!;
    return updated(ctx, represent(ctx, album, saved), 'picture');
  },
});

export const deleteAlbumLogo = operation({
  id: 'users.albums.logos.delete',
  summary: 'Delete a custom logo of an album',
  method: 'DELETE',
  paths: onePaths,
  scope: 'edit',
  async handle(ctx) {
    const { album } = await loadOwnedAlbum(ctx, manage);
    const logo = await loadLogo(ctx.store, album, ctx.path.logo_id);
    await ctx.store.delete('pictures', logo.id);
    return deleted([pictureMediaPrefix(logo)]);
  },
});

export const albumLogoOperations = [listAlbumLogos, createAlbumLogo, getAlbumLogo, updateAlbumLogo, deleteAlbumLogo];
