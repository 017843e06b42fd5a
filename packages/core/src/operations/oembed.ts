import { integer, min, object, optional, pattern, string } from 'superstruct';
import { ApiError } from '../engine/errors';
import { ok, operation, type Context } from '../engine/operation';
import { headerOf } from '../engine/request';
import { assertEmbeddable, embedSize, oembedVideo } from '../domain/oembed';
import { representContext } from './represent-context';
import type { UserRecord } from '../records';
import { oembedXml, representOembed } from '../representations/oembed';
import { representUserSummary } from '../representations/user';
import { clipPicture, videoUri } from '../representations/video';

/**
 * oEmbed (oembed.com, as the hosted endpoint answers it): a CMS given a video's link asks for its
 * embed code. An operation-table row like any other: the engine answers plain JSON (kind null)
 * and XML (bytes), so it needs nothing of the transport.
 */

const flag = optional(pattern(string(), /^(?:0|1|true|false)$/));
/** The player's URL parameters an embed code may carry, as the hosted player names them. */
const embedParams = {
  autoplay: flag,
  muted: flag,
  loop: flag,
  autopause: flag,
  controls: flag,
  title: flag,
  byline: flag,
  portrait: flag,
  color: optional(pattern(string(), /^#?(?:[0-9a-fA-F]{3}){1,2}$/)),
  t: optional(pattern(string(), /^(?=.)(?:\d+h)?(?:\d+m)?(?:\d+(?:\.\d+)?s?)?$/)),
  texttrack: optional(pattern(string(), /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/)),
  quality: optional(pattern(string(), /^(?:auto|\d{3,4}p|[24]k)$/)),
  speed: flag,
  keyboard: flag,
  dnt: flag,
  playsinline: flag,
  background: flag,
};
const dimension = optional(min(integer(), 1));
const params = object({ url: string(), width: dimension, height: dimension, maxwidth: dimension, maxheight: dimension, format: optional(string()), ...embedParams });
type Params = typeof params.TYPE;

/** The player URL with the embed parameters given (in the order above), and the `#t=` the url carried. */
function playerSrc(link: string, p: Params, url: string): string {
  const query = new URLSearchParams();
  for (const name of Object.keys(embedParams) as (keyof typeof embedParams)[]) {
    const value = p[name];
    if (value !== undefined) query.set(name, name === 'color' ? value.replace(/^#/, '') : value);
  }
  const hash = /#t=[\w.]+$/.exec(url)?.[0] ?? '';
  return `${link}${query.size ? `?${query}` : ''}${hash}`;
}

/** 501 for a format other than the one the path names (oEmbed: "not implemented"). */
function formatOf(ctx: Context<Params>): 'json' | 'xml' {
  const named = /\.(json|xml)$/.exec(ctx.request.path)?.[1] as 'json' | 'xml' | undefined;
  const asked = ctx.params.format ?? named ?? 'json';
  if ((named && asked !== named) || (asked !== 'json' && asked !== 'xml')) {
    throw new ApiError(501, 2204, 'This format is not available.', `format ${asked} is not served here: use /api/oembed.json or /api/oembed.xml.`);
  }
  return asked;
}

export const getOembed = operation({
  id: 'oembed.get',
  summary:
    "oEmbed: a video's embed code and details from its `link` or `player_embed_url` (`url`), sized by `width`/`height`/`maxwidth`/`maxheight` (aspect kept), the player's URL parameters passed into the iframe; 404 for a video anybody may not see, 403 where privacy.embed forbids this page, 501 for another format",
  method: 'GET',
  paths: ['/api/oembed.json', '/api/oembed.xml', '/api/oembed'],
  params,
  async handle(ctx) {
    const format = formatOf(ctx);
    const video = await oembedVideo(ctx.store, ctx.baseUrl, ctx.params.url);
    await assertEmbeddable(ctx.store, video, ctx.baseUrl, headerOf(ctx.request.headers, 'referer'));
    const owner = (await ctx.store.get<UserRecord>('users', video.user_id))!;
    const rc = representContext(ctx);
    const size = embedSize({ width: video.width || 640, height: video.height || 360 }, ctx.params);
    const sizes = (clipPicture(video, videoUri(video.id), rc) as { sizes: { width: number; height: number; link: string }[] }).sizes;
    const fields = representOembed({
      video,
      owner: { name: owner.name, link: representUserSummary(owner, rc).link as string },
      provider: { name: ctx.config.vendor, url: `${ctx.baseUrl}/` },
      src: playerSrc(`${ctx.baseUrl}/videos/${video.id}/player`, ctx.params, ctx.params.url),
      ...size,
      // The smallest thumbnail at least as wide as the embed.
      thumbnail: sizes.find((s) => s.width >= size.width) ?? sizes[sizes.length - 1],
    });
    if (format === 'json') return ok(fields, null);
    return { status: 200, bytes: { data: Buffer.from(oembedXml(fields)), type: 'text/xml; charset=utf-8' } };
  },
});

export const oembedOperations = [getOembed];
