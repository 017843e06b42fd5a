import type { EmbedSettings, VideoRecord } from '../records';
import { escapeHtml } from '../support/html';
import type { PresetSettings } from '../records/embed';
import type { PlayerOptions } from './embed-params';

/** A `<track>` of the player: one active text track that has a file. */
export interface PlayerTrack {
  /** The track's type: captions, chapters, descriptions, metadata or subtitles (all valid `kind`s). */
  kind: string;
  srclang: string;
  label: string;
  src: string;
}

/** What the player page shows; the operation loads the records and makes every link. */
export interface PlayerPageInput {
  video: VideoRecord;
  /** The video's embed settings with its preset applied (`effectiveEmbed`). */
  embed: EmbedSettings;
  /**
   * What the `<video>` plays without script: with renditions, the largest progressive one up to
   * 720p (the fallback for browsers with neither native HLS nor MediaSource); before them, the file.
   */
  src: string;
  /** The master playlist, once the video has renditions: the page then carries `scripts`. */
  hls: string | null;
  /** The storyboard's WebVTT file, when the renditions have one: the script shows its tiles over the seek bar. */
  storyboard: string | null;
  /** Where the script goes when the video ends (an album's next video, playing); absent for a video's own page. */
  next?: string | null;
  /** The player's scripts, absolute: `playerScripts` on the page's server when there is `hls`, `stateScripts` with a `state`. */
  scripts: readonly string[];
  poster: string | null;
  owner: { name: string; portrait: string | null } | null;
  tracks: readonly PlayerTrack[];
  /** The owner's active custom logo (a small size), when `embed.logos.custom.active`. */
  logo: string | null;
  /** The video's `link`: where the service wordmark and the share button lead. */
  link: string;
  /** May anybody download the file (otherwise the controls offer no download)? */
  download: boolean;
  /** Where the menu's download leads, when `download`. */
  downloadLink?: string | null;
  /** The oEmbed JSON endpoint for this video, where it answers: the page's discovery links. */
  oembed?: string | null;
  /** Analytics (docs/embedding.md): the beacon endpoint and its script, absolute, unless the viewer asked not to be tracked. */
  beacons?: { endpoint: string; script: string } | null;
  /** The embed URL parameters over the embed settings (`playerOptions`); absent: the settings alone. */
  options?: PlayerOptions;
  /** The renditions' names (`360p`), largest first: the quality menu's rungs. */
  qualities?: readonly string[];
  /** The video's chapters in timecode order: the script's seek-bar marks and menu. */
  chapters?: readonly { title: string; timecode: number }[];
  /**
   * A video with nothing to play yet: its transcode failed (`failed`), or is queued or running
   * (`processing`). The page says so over the poster instead of offering a play button that errors.
   */
  state?: PlayerState | null;
}

export type PlayerState = 'failed' | 'processing';

/** What a viewer reads in place of a video that cannot play. */
export const stateMessages: Record<PlayerState, string> = { failed: 'This video couldn’t be processed', processing: 'This video is being processed' };

const title = ['name', 'owner', 'portrait'] as const;

/**
 * The scripts a player with an HLS stream loads, in order: hls.js; ours, which picks native HLS,
 * hls.js or the progressive `src` and adds the controls; and the player.js protocol that drives it
 * from the embedding page. The transport serves them (@reelbase/http's static-assets.ts).
 */
export const playerScripts = ['/static/player/hls.min.js', '/static/player/player.js', '/static/player/protocol.js'] as const;

/**
 * The scripts of a page with a `state` message: the protocol alone, which answers an embedding
 * page `ready` and the video's id, title and URL, and every playback call with an error.
 */
export const stateScripts = ['/static/player/protocol.js'] as const;

/** The analytics script (@reelbase/http's player/beacons.js), loaded beside them. */
export const beaconsScriptPath = '/static/player/beacons.js';

/**
 * The embed settings the player honours. A preset applies to a video whose `preset_id` names it;
 * where the video's own `title.*` says `user` (the user's choice), the preset's value decides.
 * Everything else is the video's own setting, as its Clip shows it.
 */
export function effectiveEmbed(embed: EmbedSettings, preset: PresetSettings | null): EmbedSettings {
  if (!preset) return embed;
  const chosen = Object.fromEntries(title.map((k) => [k, embed.title?.[k] === 'user' ? (preset.title?.[k] ?? 'user') : embed.title?.[k]]));
  return { ...embed, title: { ...embed.title, ...chosen } };
}

const kinds = new Set(['captions', 'chapters', 'descriptions', 'metadata', 'subtitles']);

/** An http(s) URL as a link may carry it, or null. */
function webLink(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const attr = (name: string, value: string | null | false | undefined): string =>
  value === null || value === false || value === undefined ? '' : ` ${name}="${escapeHtml(value)}"`;

const newTab = (href: string, cls: string, content: string): string =>
  `<a class="${cls}" href="${escapeHtml(href)}" target="_blank" rel="noopener">${content}</a>`;

/** The player's parts: its block (the `<video>`, header and corner), the scripts it loads, its style and accent colour. */
export interface PlayerMarkup {
  player: string;
  scripts: string;
  style: string;
  color: string;
}

/** A hex colour as the player's accent (`#rrggbb`), or the service's own. */
export const accentColor = (color: string | null | undefined): string => (color && /^#?[0-9a-fA-F]{3,8}$/.test(color) ? `#${color.replace(/^#/, '')}` : '#00adef');

/**
 * The player's markup and style. It has no inline script; with an HLS stream it loads
 * `input.scripts` (deferred), which find the stream in the video's `data-hls`.
 */
export function playerMarkup(input: PlayerPageInput): PlayerMarkup {
  const { video, embed: e, owner } = input;
  const o = input.options;
  const color = o?.color ?? accentColor(e.color);
  // `user` is the user's choice, which (without a preset saying otherwise) is to show; the URL's
  // title=0, byline=0 and portrait=0 hide what it shows.
  const hidden = { name: o?.title === false, owner: o?.byline === false, portrait: o?.portrait === false };
  // controls=0 hides every element over the picture, as the hosted player's does.
  const bare = o?.controls === false;
  const shows = (k: (typeof title)[number]) => e.title?.[k] !== 'hide' && !hidden[k] && !bare;
  const header = [
    shows('portrait') && owner?.portrait ? `<img class="portrait" src="${escapeHtml(owner.portrait)}" alt="">` : '',
    shows('name') ? `<h1 class="title">${escapeHtml(video.name)}</h1>` : '',
    shows('owner') && owner ? `<p class="owner">${escapeHtml(owner.name)}</p>` : '',
  ].join('');

  // Buttons: fullscreen and download map to controlslist; hd and scaling would be a quality menu,
  // where hls.js picks the rendition itself. like and watchlater need an authenticated API call,
  // embed a panel to copy the code from: they are left out. share is a plain link to the video's page.
  const controlsList = [!e.buttons?.fullscreen && 'nofullscreen', !input.download && 'nodownload'].filter(Boolean).join(' ');
  // playbar false: no controls at all (the browser's context menu can still play the video).
  const controls = e.playbar === false || o?.controls === false ? '' : ` controls${attr('controlslist', controlsList || null)}`;
  const custom = e.logos?.custom;
  const logoLink = webLink(custom?.link);
  const logoClass = `logo${custom?.sticky ? '' : ' fades'}`;
  const logoImage = input.logo ? `<img src="${escapeHtml(input.logo)}" alt="">` : '';
  const logo = logoLink ? newTab(logoLink, logoClass, logoImage) : `<span class="${logoClass}">${logoImage}</span>`;
  const corner = bare ? '' : [
    logoImage ? logo : '',
    e.buttons?.share ? newTab(input.link, 'button share fades', 'Share') : '',
    e.logos?.service ? newTab(input.link, 'wordmark fades', 'reelbase') : '',
  ].join('');

  const tracks = input.tracks.map((t, i) => {
    const kind = kinds.has(t.kind) ? t.kind : 'subtitles';
    const first = input.tracks.findIndex((x) => x.kind === 'captions' || x.kind === 'subtitles') === i;
    return `\n<track${attr('kind', kind)}${attr('srclang', t.srclang)}${attr('label', t.label)}${attr('src', t.src)}${first ? ' default' : ''}>`;
  });

  // Without script, what fades with the controls shows while the pointer or focus is on the player
  // (and while paused, where the browser knows `:paused`; an unknown selector drops only its rule).
  // volume false hides the volume control, as a hosted embed does; the sound still plays (muting
  // would take the sound away from viewers, which the setting does not ask for).
  const style = `html,body{margin:0;height:100%;background:#000;color:#fff;font:14px system-ui,sans-serif}
.player{position:relative;height:100%}video{display:block;width:100%;height:100%;accent-color:${color}}
header{position:absolute;top:0;left:0;padding:8px;display:flex;gap:8px;align-items:center}
.title{font-size:16px;margin:0;color:${color}}.owner{margin:0}.portrait{width:32px;height:32px;border-radius:50%}
.corner{position:absolute;top:8px;right:8px;display:flex;gap:8px;align-items:center}.logo img{display:block;height:40px;width:auto}
.button,.wordmark{color:#fff;font-weight:600;text-decoration:none;background:rgba(0,0,0,.6);padding:3px 8px;border-radius:3px}
.button:hover,.wordmark:hover,.button:focus,.wordmark:focus{color:${color}}a:focus-visible{outline:2px solid ${color}}
.fades{opacity:0;visibility:hidden;transition:opacity .3s,visibility .3s}
.player:hover .fades,.player:focus-within .fades{opacity:1;visibility:visible}
.player:has(video:paused) .fades{opacity:1;visibility:visible}
.storyboard{position:absolute;bottom:72px;pointer-events:none;border:2px solid ${color};background:#000 no-repeat}
${controlStyle(color)}${
    e.volume === false ? '\nvideo::-webkit-media-controls-mute-button,video::-webkit-media-controls-volume-slider{display:none}' : ''
  }`;
  const size = video.width ? ` width="${video.width}" height="${video.height}"` : '';
  // With a stream, nothing loads before the viewer plays: the script would replace the file the
  // browser started on, and a fetch from the first byte (or of the master playlist) counts a play.
  const preload = input.hls ? 'none' : 'metadata';
  const scripts = input.hls || input.state ? input.scripts.map((s) => `\n<script src="${escapeHtml(s)}" defer></script>`).join('') : '';
  const poster = input.poster ? `<img class="poster" src="${escapeHtml(input.poster)}" alt="">` : '';
  const media = input.state
    ? `${poster}<p class="state"${attr('data-video-url', input.link)}>${stateMessages[input.state]}</p>`
    : `<video id="player" src="${escapeHtml(input.src)}" preload="${preload}"${o?.playsinline === false ? '' : ' playsinline'}${controls}${playback(o, !!input.hls)}${attr('poster', input.poster)}${size}${attr('data-hls', input.hls)}${attr('data-storyboard', input.hls && input.storyboard)}${attr('data-next', input.hls && input.next)}${input.hls ? scriptData(input) : ''}>${tracks.join('')}
</video>${input.hls && input.storyboard ? '\n<div class="storyboard" hidden></div>' : ''}`;
  const player = `<div class="player"${input.hls && !input.state ? ' tabindex="-1"' : ''}>
${media}
<header>${header}</header>${corner ? `\n<div class="corner">${corner}</div>` : ''}
</div>`;
  return { player, scripts, style, color };
}

/**
 * The `<video>` attributes the URL's autoplay, muted and loop ask for (autoplay plays muted:
 * browsers allow no other). With a stream the script starts playback (`data-autoplay`): the
 * attribute would have the browser start the progressive file before the script picks the stream.
 */
const playback = (o: PlayerOptions | undefined, stream: boolean): string =>
  !o ? '' : `${o.autoplay && !stream ? ' autoplay' : ''}${o.muted || o.autoplay ? ' muted' : ''}${o.loop ? ' loop' : ''}`;

/** What the player's script needs beyond the `<video>`: the options it applies, the chapters, the download, the title. */
function scriptData(input: PlayerPageInput): string {
  const o = input.options;
  const data: [string, string | null][] = [
    ['data-video-title', input.video.name],
    ['data-video-url', input.link],
    // What the protocol reports as the duration before the stream's metadata has loaded.
    ['data-duration', input.video.duration ? String(input.video.duration) : null],
    ['data-qualities', input.qualities?.length ? input.qualities.join(' ') : null],
    ['data-chapters', input.chapters?.length ? JSON.stringify(input.chapters.map((c) => [c.timecode, c.title])) : null],
    ['data-download', input.download ? input.downloadLink ?? null : null],
    ['data-autoplay', o?.autoplay ? '1' : null],
    ['data-start', o?.start != null ? String(o.start) : null],
    ['data-texttrack', o?.texttrack ?? null],
    ['data-quality', o?.quality ?? null],
    ['data-speed', o?.speed === false ? '0' : null],
    ['data-keyboard', o?.keyboard === false ? '0' : null],
    ['data-autopause', o?.autopause === false ? '0' : null],
    ['data-controls', o?.controls === false || input.embed.playbar === false ? '0' : null],
  ];
  return data.map(([name, value]) => attr(name, value)).join('');
}

/**
 * The style of the script's own controls: the settings button and its menus (quality, captions,
 * speed, chapters, download), the chapter marks over the seek bar and the state message.
 */
const controlStyle = (color: string): string => `.player:focus{outline:none}.poster{position:absolute;inset:0;width:100%;height:100%;object-fit:contain}
.state{position:absolute;inset:0;margin:0;display:flex;align-items:center;justify-content:center;background:rgba(0,0,0,.7);font-size:18px}
.settings{position:absolute;right:8px;bottom:64px;display:flex;flex-direction:column;align-items:flex-end;gap:4px}
.settings>button{font:inherit;color:#fff;background:rgba(0,0,0,.6);border:0;border-radius:3px;padding:4px 8px;cursor:pointer}
.settings>button:hover,.settings>button:focus-visible,.menu button:hover,.menu button:focus-visible{color:${color}}
.menu{background:rgba(0,0,0,.85);border-radius:4px;padding:6px;display:grid;grid-template-columns:repeat(4,auto);gap:2px 16px;max-height:60vh;overflow:auto}
.menu section{display:flex;flex-direction:column}.menu h2{font-size:12px;margin:0 0 4px;color:#aaa;text-transform:uppercase}
.menu button,.menu a{font:inherit;color:#fff;background:none;border:0;text-align:left;padding:2px 4px;cursor:pointer;text-decoration:none}
.menu [aria-checked=true]{color:${color};font-weight:600}
.marks{position:absolute;left:16px;right:16px;bottom:20px;height:4px;pointer-events:none}.marks span{position:absolute;top:0;width:2px;height:4px;background:${color}}`;

/** An HTML page of the service: its one inline style (whose hash the CSP allows), its body, and any more `head` markup. */
export const htmlPage = (title: string, style: string, bodyAttributes: string, body: string, head = ''): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>${head}
<style>${style}</style></head>
<body${bodyAttributes}>${body}
</body></html>
`;

/** The player page of a video and its one inline style. */
export function playerPage(input: PlayerPageInput): { html: string; style: string } {
  const m = playerMarkup(input);
  // Beacons go with the player's scripts: the page's script-src and connect-src allow this server then.
  const beacons = input.hls ? input.beacons : null;
  const body = `${m.player}${m.scripts}${beacons ? `\n<script src="${escapeHtml(beacons.script)}" defer></script>` : ''}`;
  const attributes = `${attr('data-video-id', input.video.id)}${attr('data-color', m.color)}${attr('data-beacons', beacons?.endpoint)}`;
  return { html: htmlPage(input.video.name, m.style, attributes, body, oembedLinks(input)), style: m.style };
}

/** oEmbed discovery (oembed.com §4): the JSON and XML endpoints as alternates of the page. */
function oembedLinks(input: PlayerPageInput): string {
  if (!input.oembed) return '';
  const title = escapeHtml(input.video.name);
  const xml = input.oembed.replace('/api/oembed.json?', '/api/oembed.xml?');
  return `\n<link rel="alternate" type="application/json+oembed" href="${escapeHtml(input.oembed)}" title="${title}">\n<link rel="alternate" type="text/xml+oembed" href="${escapeHtml(xml)}" title="${title}">`;
}
