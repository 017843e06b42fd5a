import { array, boolean, object, optional, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation } from '../engine/operation';
import { albumVideoSorts, type AlbumVideoListParams } from '../domain/album-video-list';
import { albumVideoPage } from './video-lists';
import { albumListSorts, assertAlbumOpen, assertMayAddToAlbum, loadAlbum, loadOwnedAlbum, mayAddToAlbums, type AlbumListSort } from '../domain/albums';
import { inOrderOf, memberPage } from '../domain/memberships';
import { representContext } from './represent-context';
import { albumVideoRow, appendToAlbum, setAlbumVideos, takeOutOfAlbum } from '../domain/video-containers';
import { readVideoUris } from '../domain/video-uris';
import { loadVideo, loadVisibleVideo } from '../domain/videos';
import { representOne } from './represent-videos';
import { assertCanView } from '../domain/visibility';
import { passwordGuess } from '../domain/password-guesses';
import type { AlbumRecord, AlbumVideoRecord } from '../records/album';
import type { UserRecord, VideoRecord } from '../records';
import { representAlbum } from '../representations/album';
import { isoTime } from '../support/time';
import { and, eq, isIn, ne, or } from '../store/filters';
import { matching } from '../store/search';

const paths = ['/me/albums/{album_id}/videos', '/users/{user_id}/albums/{album_id}/videos'];
const onePaths = ['/me/albums/{album_id}/videos/{video_id}', '/users/{user_id}/albums/{album_id}/videos/{video_id}'];

/** The album password, for a password album's videos. */
const password = optional(size(string(), 1, 128));
/** The most videos one replace-all request may name, to keep its transaction bounded. */
const maxReplaced = 500;

export const listAlbumVideos = operation({
  id: 'users.albums.videos.list',
  summary: "List the videos of an album that the caller may see (a password album's need its password)",
  method: 'GET',
  paths,
  params: object({
    ...listParams({ sort: albumVideoSorts, filter: ['embeddable'] as const, query: true, filterEmbeddable: true }),
    containing_uri: optional(size(string(), 1, 256)),
    password,
    weak_search: optional(boolean()),
  }),
  async handle(ctx) {
    const p = ctx.params as AlbumVideoListParams & { password?: string };
    const { album } = await loadAlbum(ctx);
    await assertAlbumOpen(ctx, album, p.password);
    return albumVideoPage(ctx, album, p);
  },
});

export const replaceAlbumVideos = operation({
  id: 'users.albums.videos.replace',
  summary: 'Replace the videos of an album with a comma-separated list of video URIs, in that manual order (empty clears it)',
  method: 'PUT',
  paths,
  scope: 'edit',
  params: object({ videos: size(array(size(string(), 1, 256)), 0, maxReplaced) }),
  async handle(ctx) {
    const { album, owner } = await loadOwnedAlbum(ctx, 'change its videos');
    const ids = readVideoUris(ctx.params.videos, 'videos');
    const videos = await inOrderOf<VideoRecord>(ctx.store, 'videos', ids);
    if (videos.length < ids.length) throw notFound('video');
    const { items } = await ctx.store.find<AlbumVideoRecord>('album_videos', { where: and(eq('album_id', album.id), isIn('video_id', ids)) });
    const held = new Set(items.map((row) => row.video_id));
    // Videos the album already holds may stay; the others must be addable.
    for (const video of videos) if (!held.has(video.id)) await assertMayAddToAlbum(ctx, album, video);
    const saved = await setAlbumVideos(ctx.store, album, videos, isoTime(ctx.now()));
    return created(representAlbum(saved, owner, representContext(ctx)), 'album');
  },
});

export const getAlbumVideo = operation({
  id: 'users.albums.videos.get',
  summary: 'Get a video of an album (404 when it is not in the album)',
  method: 'GET',
  paths: onePaths,
  params: object({ password }),
  async handle(ctx) {
    const { album } = await loadAlbum(ctx);
    await assertAlbumOpen(ctx, album, ctx.params.password);
    if (!(await albumVideoRow(ctx.store, album.id, ctx.path.video_id))) throw notFound('video in the album');
    const video = await loadVideo(ctx.store, ctx.path.video_id);
    await assertCanView(ctx.store, video, ctx.principal.user, passwordGuess(ctx, ctx.params.password));
    return ok(await representOne(ctx, video), 'video');
  },
});

export const addAlbumVideo = operation({
  id: 'users.albums.videos.put',
  summary: "Add a video to an album, last in its manual order (nothing changes when it is already there)",
  method: 'PUT',
  paths: onePaths,
  scope: 'edit',
  async handle(ctx) {
    const { album } = await loadOwnedAlbum(ctx, 'add videos to it');
    const video = await loadVideo(ctx.store, ctx.path.video_id);
    if (await albumVideoRow(ctx.store, album.id, video.id)) return noContent();
    await assertMayAddToAlbum(ctx, album, video);
    await appendToAlbum(ctx.store, album, video, isoTime(ctx.now()));
    return noContent();
  },
});

export const removeAlbumVideo = operation({
  id: 'users.albums.videos.delete',
  summary: 'Take a video out of an album',
  method: 'DELETE',
  paths: onePaths,
  scope: 'edit',
  async handle(ctx) {
    const { album } = await loadOwnedAlbum(ctx, 'remove videos from it');
    const video = await loadVideo(ctx.store, ctx.path.video_id);
    if (!(await takeOutOfAlbum(ctx.store, album.id, video))) throw notFound('video in the album');
    return noContent();
  },
});

export const listVideoAlbums = operation({
  id: 'videos.albums.list',
  summary:
    "List the albums that hold a video and that the caller may see (others' password albums are reached by id, never listed): reelbase's answer to the Clip's albums connection, which the hosted API names without documenting it",
  method: 'GET',
  paths: ['/videos/{video_id}/albums'],
  params: object({ ...listParams({ sort: Object.keys(albumListSorts) as AlbumListSort[], query: true }), password }),
  async handle(ctx) {
    const p = ctx.params as ListParams<AlbumListSort> & { password?: string };
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, p.password);
    const viewer = ctx.principal.user?.id;
    const query = p.query?.trim();
    const page = pageOf(p);
    // As in a user's album list: a password album shows to its owner only.
    const albums = and(
      viewer ? or(eq('user_id', viewer), ne('privacy_view', 'password')) : ne('privacy_view', 'password'),
      matching(query),
    );
    const result = await memberPage<AlbumRecord>(ctx.store, {
      rows: { collection: 'album_videos', where: eq('video_id', video.id), memberField: 'album_id' },
      members: { collection: 'albums', where: albums },
      orderBy: orderOf(albumListSorts, p.sort ?? 'date', p.direction),
      byRow: false,
      page,
    });
    const owners = new Map((await inOrderOf<UserRecord>(ctx.store, 'users', [...new Set(result.items.map((a) => a.user_id))])).map((u) => [u.id, u]));
    const rc = representContext(ctx);
    const data = result.items.flatMap((a) => {
      const owner = owners.get(a.user_id);
      return owner ? [representAlbum(a, owner, rc)] : [];
    });
    return listReply(ctx, page, result.total, data, 'album');
  },
});

export const listAvailableAlbums = operation({
  id: 'videos.available_albums.list',
  summary: "List the caller's albums the video may be added to: all of them, or none where its owner does not let others add it (the Clip's available_albums connection)",
  method: 'GET',
  paths: ['/videos/{video_id}/available_albums'],
  auth: 'user',
  params: object({ ...listParams({ sort: Object.keys(albumListSorts) as AlbumListSort[], query: true }), password }),
  async handle(ctx) {
    const p = ctx.params as ListParams<AlbumListSort> & { password?: string };
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, p.password);
    const caller = ctx.principal.user!;
    const page = pageOf(p);
    if (!mayAddToAlbums(video, caller)) return listReply(ctx, page, 0, [], 'album');
    const query = p.query?.trim();
    const where = and(eq('user_id', caller.id), matching(query));
    const result = await ctx.store.find<AlbumRecord>('albums', { where, orderBy: orderOf(albumListSorts, p.sort ?? 'date', p.direction), offset: page.offset, limit: page.limit });
    const rc = representContext(ctx);
    return listReply(ctx, page, result.total, result.items.map((a) => representAlbum(a, caller, rc)), 'album');
  },
});

export const albumVideoOperations = [listVideoAlbums, listAvailableAlbums, listAlbumVideos, replaceAlbumVideos, getAlbumVideo, addAlbumVideo, removeAlbumVideo];
