import { type AlbumPictureKind, albumPictures, type AlbumRecord } from '../records/album';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { escapeHtml } from '../support/html';
import { representPicture } from './picture';
import { representUserSummary } from './user';

export const albumUri = (album: Pick<AlbumRecord, 'id' | 'user_id'>): string => `/users/${album.user_id}/albums/${album.id}`;

/** An album's logo or custom thumbnail, under the album. */
export const albumPictureUri = (album: Pick<AlbumRecord, 'id' | 'user_id'>, kind: AlbumPictureKind, id: string): string =>
  `${albumUri(album)}/${albumPictures[kind].segment}/${id}`;

/** The album's player page (album-player.ts): its embed code frames it, and it is the link to share. */
export const albumPlayerLink = (baseUrl: string, albumId: string): string => `${baseUrl}/albums/${albumId}/embed`;

/**
 * The Album representation; `owner` is the album's user. The password is stored hashed and never
 * shown. reelbase serves one page of an album, its player: the fields about the hosted API's
 * showcase web page (`web_brand_color`, `web_custom_logo`, `url`) have their empty forms, and the
 * player settings say what that player does, which the album does not configure (it plays the
 * video picked from its list, without going on to the next, offering no download or sharing, and
 * without the service's logo; it shows the brand colour when set, and the active custom logo once it has an image).
 */
export function representAlbum(album: AlbumRecord, owner: UserRecord, ctx: RepresentContext): Record<string, unknown> {
  const uri = albumUri(album);
  const player = albumPlayerLink(ctx.baseUrl, album.id);
  const picture = (kind: AlbumPictureKind, active: AlbumRecord['active_logo']) =>
    active && representPicture(active, albumPictureUri(album, kind, active.id), ctx, album.user_id);
  const out: Record<string, unknown> = {
    uri,
    name: album.name,
    description: album.description,
    // The album's own address on this server (issue 22: a link must answer).
    link: `${ctx.baseUrl}${uri}`,
    share_link: player,
    url: null,
    domain: album.domain,
    use_custom_domain: album.use_custom_domain,
    created_time: album.created_time,
    modified_time: album.modified_time,
    duration: album.duration,
    user: representUserSummary(owner, ctx),
    pictures: picture('thumbnail', album.active_thumbnail) || placeholderPicture(ctx, 'thumbnail'),
    custom_logo: picture('logo', album.active_logo),
    privacy: { view: album.privacy_view },
    sort: album.sort,
    layout: album.layout,
    theme: album.theme,
    brand_color: album.brand_color,
    hide_nav: album.hide_nav,
    review_mode: album.review_mode,
    autoplay: false,
    loop: false,
    // The player goes on to the next video at the end of one.
    allow_continuous_play: true,
    allow_downloads: false,
    allow_share: false,
    hide_vimeo_logo: true,
    embed_brand_color: album.brand_color !== null,
    // The player shows the active logo once it has an image.
    embed_custom_logo: !!album.active_logo?.image,
    web_brand_color: false,
    web_custom_logo: false,
    embed: {
      // As the hosted API's: a password album has no embed code (its player needs the password).
      html:
        album.privacy_view === 'password'
          ? null
          : `<iframe src="${player}" width="640" height="360" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${escapeHtml(album.name)}"></iframe>`,
    },
    resource_key: resourceKey('album', album.id),
  };
  if (since(ctx.version, 'connections')) {
    // An interaction's `options` are the methods this viewer may use on its `uri`: anybody lists the
    // album's videos; only its owner changes them, and lists or adds its logos and thumbnails.
    const isOwner = ctx.viewer?.id === album.user_id;
    const action = (path: string, owners: string[], others: string[] = []) => ({ uri: `${uri}/${path}`, options: isOwner ? owners : others });
    out.metadata = {
      connections: { videos: connection(`${uri}/videos`, album.videos_total, ['GET', 'PUT']) },
      interactions: {
        add_videos: action('videos', ['GET', 'PUT'], ['GET']),
        add_logos: action(albumPictures.logo.segment, ['GET', 'POST']),
        add_custom_thumbnails: action(albumPictures.thumbnail.segment, ['GET', 'POST']),
        // Only where an album is listed for adding a video to it, which no operation of reelbase does.
        add_to: null,
      },
    };
  }
  return out;
}
