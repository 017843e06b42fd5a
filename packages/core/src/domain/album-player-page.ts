import { escapeHtml } from '../support/html';
import { accentColor, htmlPage, playerMarkup, type PlayerPageInput } from './player-page';

/** One video of the album player's list: a link that plays it on the album's page. */
export interface PlaylistItem {
  name: string;
  href: string;
  /** Its picture, small. */
  picture: string | null;
  /** The one playing. */
  current: boolean;
}

/** What the album player shows; the operation loads the records and makes every link. */
export interface AlbumPlayerInput {
  album: { id: string; name: string; brandColor: string | null };
  /** The picked video's player, with the album's settings applied; null when the album has nothing to play. */
  player: PlayerPageInput | null;
  items: readonly PlaylistItem[];
  /** How many videos the album has to play (the list shows the first of them). */
  total: number;
}

const base = 'html,body{margin:0;height:100%;background:#000;color:#fff;font:14px system-ui,sans-serif}';

/**
 * An album's player page and its one inline style: the picked video's player above the list of
 * the album's videos. Picking one is following its link, so the page needs no script of its own.
 */
export function albumPlayerPage(input: AlbumPlayerInput): { html: string; style: string } {
  const markup = input.player && playerMarkup(input.player);
  const color = markup?.color ?? accentColor(input.album.brandColor);
  const items = input.items.map((item) => {
    const picture = item.picture ? `<img src="${escapeHtml(item.picture)}" alt="">` : '';
    return `\n<li><a href="${escapeHtml(item.href)}"${item.current ? ' aria-current="true"' : ''}>${picture}<span class="name">${escapeHtml(item.name)}</span></a></li>`;
  });
  const more = input.total > input.items.length ? `\n<p class="more">${input.total - input.items.length} more in the album</p>` : '';
  const list = `<nav class="playlist" aria-label="Videos of the album"><h2>${escapeHtml(input.album.name)}</h2>${
    items.length ? `<ol>${items.join('')}\n</ol>${more}` : '<p>This album has no video to play here.</p>'
  }</nav>`;
  const style = `${markup?.style ?? base}
.album{display:flex;flex-direction:column;height:100%}.album .player{flex:1;min-height:0}
.playlist{max-height:40%;overflow:auto;padding:8px;border-top:1px solid #333}.playlist h2{font-size:14px;margin:0 0 8px}
.playlist ol{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.playlist a{display:block;width:148px;color:#fff;text-decoration:none;border:2px solid transparent}
.playlist a[aria-current],.playlist a:hover,.playlist a:focus-visible{border-color:${color}}
.playlist img{display:block;width:100%;aspect-ratio:16/9;object-fit:cover;background:#222}
.playlist .name{display:block;padding:4px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}.more{margin:8px 0 0}`;
  const attributes = ` data-album-id="${escapeHtml(input.album.id)}"${input.player ? ` data-video-id="${escapeHtml(input.player.video.id)}"` : ''} data-color="${color}"`;
  const body = `<div class="album">${markup ? `\n${markup.player}` : ''}\n${list}\n</div>${markup?.scripts ?? ''}`;
  return { html: htmlPage(input.album.name, style, attributes, body), style };
}
