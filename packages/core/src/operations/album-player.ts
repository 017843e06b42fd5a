import { object, optional, pattern, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { operation, type Context } from '../engine/operation';
import { albumPlayerPage, type PlaylistItem } from '../domain/album-player-page';
import type { AlbumRecord } from '../records/album';
import { albumVideos } from '../domain/album-video-list';
import { videoListFilter } from '../domain/video-lists';
import { and, eq, inSelect } from '../store/filters';
import { assertAlbumOpen } from '../domain/albums';
import { findById } from '../domain/lookup';
import { frameAncestors } from '../domain/page-security';
import type { PlayerPageInput } from '../domain/player-page';
import { representContext } from './represent-context';
import type { VideoRecord } from '../records';
import { albumPictureUri, albumPlayerLink } from '../representations/album';
import { representPicture } from '../representations/picture';
import { clipPicture, videoUri } from '../representations/video';
import { playerHeaders, playerInput, sizedLink } from './playback';

/** The most videos the player lists; the page says how many more the album has. */
const listed = 100;

/**
 * The picked video's player as the album shows it: the album's brand colour (else the video's),
 * the album's active custom logo once it has an image, and none of the service's logo, sharing or
 * downloads (the album's `hide_vimeo_logo`, `allow_share` and `allow_downloads`).
 */
function inAlbum(ctx: Context<unknown>, album: AlbumRecord, input: PlayerPageInput): PlayerPageInput {
  const active = album.active_logo;
  const logo = active?.image ? sizedLink(representPicture(active, albumPictureUri(album, 'logo', active.id), representContext(ctx), null), 295) : null;
  const { embed } = input;
  return {
    ...input,
    embed: {
      ...embed,
      color: album.brand_color ?? embed.color,
      buttons: { ...embed.buttons, share: false },
      logos: { service: false, custom: { active: logo !== null, link: null, sticky: true } },
    },
    logo,
    download: false,
    link: albumPlayerLink(ctx.baseUrl, album.id),
  };
}

/** The player lists the videos that may be framed elsewhere: the page is an embed. */
const embeddable = { filter: 'embeddable', filter_embeddable: true } as const;

/** The video `?video=` picks: one the list would show, though maybe past its first page (404 otherwise). */
async function pickedVideo(ctx: Context<unknown>, album: AlbumRecord, id: string, listedVideos: VideoRecord[]): Promise<VideoRecord> {
  const shown = listedVideos.find((v) => v.id === id);
  if (shown) return shown;
  const { items } = await ctx.store.find<VideoRecord>('videos', {
    where: and(eq('id', id), inSelect('id', 'album_videos', 'video_id', eq('album_id', album.id)), videoListFilter(ctx, embeddable)),
  });
  if (!items[0]) throw notFound('video in the album');
  return items[0];
}

export const getAlbumPlayer = operation({
  id: 'albums.player.get',
  summary:
    "The album's player page, which its embed code frames and its share_link names: the picked video (`video`, else the first) playing above the list of the album's first 100 videos the caller may see and embed, in the album's order; a password album's needs its password",
  method: 'GET',
  paths: ['/albums/{album_id}/embed'],
  params: object({ video: optional(pattern(string(), /^\d{1,18}$/)), password: optional(size(string(), 1, 128)) }),
  async handle(ctx) {
    const album = await findById<AlbumRecord>(ctx.store, 'albums', ctx.path.album_id);
    if (!album) throw notFound('album');
    const { video: picked, password } = ctx.params;
    await assertAlbumOpen(ctx, album, password);
    const { total, videos } = await albumVideos(ctx, album, { ...embeddable, per_page: listed });
    const current = picked === undefined ? videos[0] : await pickedVideo(ctx, album, picked, videos);
    const link = (video: VideoRecord) => `${albumPlayerLink(ctx.baseUrl, album.id)}?${new URLSearchParams({ video: video.id, ...(password ? { password } : {}) })}`;
    const rc = representContext(ctx);
    const items: PlaylistItem[] = videos.map((video) => ({
      name: video.name,
      href: link(video),
      picture: sizedLink(clipPicture(video, videoUri(video.id), rc), 295),
      current: video.id === current?.id,
    }));
    // At its end the player goes on to the next video of the list, playing it (`#play`).
    const after = current ? videos[videos.findIndex((v) => v.id === current.id) + 1] : undefined;
    const player = current ? { ...inAlbum(ctx, album, await playerInput(ctx, current, undefined)), next: after ? `${link(after)}#play` : null } : null;
    const page = albumPlayerPage({ album: { id: album.id, name: album.name, brandColor: album.brand_color }, player, items, total });
    // Framed as the video playing allows (its privacy.embed); with nothing to play, anywhere.
    const ancestors = current ? await frameAncestors(ctx.store, current) : ['*'];
    return { status: 200, headers: playerHeaders(player, page.style, ancestors, items.map((item) => item.picture)), html: page.html };
  },
});
