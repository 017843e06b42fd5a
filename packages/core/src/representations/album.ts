import type { AlbumRecord } from '../domain/album-records';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, escapeHtml, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representUserSummary } from './user';

export const albumUri = (album: Pick<AlbumRecord, 'id' | 'user_id'>): string => `/users/${album.user_id}/albums/${album.id}`;

/** The Album representation; `owner` is the album's user. The password is stored hashed and never shown. */
export function representAlbum(album: AlbumRecord, owner: UserRecord, ctx: RepresentContext): Record<string, unknown> {
  const uri = albumUri(album);
  // reelbase serves no album web page: the link is the album's own address on this server (issue 22).
  const link = `${ctx.baseUrl}${uri}`;
  const out: Record<string, unknown> = {
    uri,
    name: album.name,
    description: album.description,
    link,
    created_time: album.created_time,
    modified_time: album.modified_time,
    duration: album.duration,
    user: representUserSummary(owner, ctx),
    pictures: placeholderPicture(ctx, 'thumbnail'),
    privacy: { view: album.privacy_view },
    sort: album.sort,
    layout: album.layout,
    theme: album.theme,
    brand_color: album.brand_color,
    hide_nav: album.hide_nav,
    review_mode: album.review_mode,
    embed: {
      html: `<iframe src="${ctx.baseUrl}/albums/${album.id}/embed" width="640" height="360" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${escapeHtml(album.name)}"></iframe>`,
    },
    resource_key: resourceKey('album', album.id),
  };
  if (since(ctx.version, 'connections')) {
    out.metadata = { connections: { videos: connection(`${uri}/videos`, album.videos_total, ['GET', 'PUT']) }, interactions: {} };
  }
  return out;
}
