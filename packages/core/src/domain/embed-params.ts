import type { EmbedSettings } from '../records';

/**
 * The hosted player's embed URL parameters (`/videos/{id}/player?autoplay=1&color=ff0000#t=1m30s`),
 * read leniently: the player page is a page, not an API, so a value it does not understand is
 * ignored (the video's own setting stays) rather than refused.
 *
 * The parameters change only what the owner allows: they hide (`title=0`, `controls=0`…) but do
 * not bring back what the owner's embed settings hide, and a colour the owner chose (anything but
 * the service's default) stays.
 */
export interface PlayerOptions {
  autoplay: boolean;
  muted: boolean;
  loop: boolean;
  /** Pause when another player on the page starts (the script asks its siblings). */
  autopause: boolean;
  controls: boolean;
  title: boolean;
  byline: boolean;
  portrait: boolean;
  /** The accent colour as `#rrggbb`, when a parameter set one the owner allows. */
  color: string | null;
  /** Where playback starts, in seconds (`t=`; `#t=` is read by the script, it never reaches the server). */
  start: number | null;
  /** The language of the text track to show at start. */
  texttrack: string | null;
  /** `auto` or a rendition's name (`360p`). */
  quality: string | null;
  /** Does the speed menu show? */
  speed: boolean;
  keyboard: boolean;
  /** Do not track: the page sends no analytics. */
  dnt: boolean;
  playsinline: boolean;
}

/** The service's default accent colour: a video whose owner left it so takes the `color` parameter. */
export const defaultColor = '#00adef';

const truthy = new Set(['1', 'true']);
const falsy = new Set(['0', 'false']);

/** A flag parameter: true, false, or (absent or not understood) the default. */
function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  return truthy.has(v) ? true : falsy.has(v) ? false : fallback;
}

/** A time as the hosted player writes it (`90`, `90s`, `1m30s`, `1h2m3s`), in seconds, or null. */
export function parseTime(value: string | undefined | null): number | null {
  const m = value ? /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?$/.exec(value) : null;
  if (!m || (!m[1] && !m[2] && !m[3])) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** The player's options from its query (`query`, last value of each name) over the video's embed settings. */
export function playerOptions(query: Readonly<Record<string, string>>, embed: EmbedSettings): PlayerOptions {
  // background=1: a silent looping backdrop, with nothing over it.
  const background = flag(query.background, false);
  const autoplay = background || flag(query.autoplay, false);
  const color = /^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/.exec(query.color ?? '')?.[1];
  const ownColor = (embed.color || defaultColor).replace(/^#?/, '#').toLowerCase();
  return {
    autoplay,
    muted: background || flag(query.muted, false),
    loop: background || flag(query.loop, false),
    autopause: flag(query.autopause, true),
    controls: !background && embed.playbar !== false && flag(query.controls, true),
    title: !background && flag(query.title, true),
    byline: !background && flag(query.byline, true),
    portrait: !background && flag(query.portrait, true),
    color: color && ownColor === defaultColor ? `#${color.toLowerCase()}` : null,
    start: parseTime(query.t),
    texttrack: /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(query.texttrack ?? '') ? query.texttrack : null,
    quality: /^(?:auto|\d{3,4}p)$/.test(query.quality ?? '') ? query.quality : null,
    speed: flag(query.speed, true),
    keyboard: flag(query.keyboard, true),
    dnt: flag(query.dnt, false),
    playsinline: flag(query.playsinline, true),
  };
}
