import { ApiError, forbidden, notFound } from '../engine/errors';
import type { Store } from '../store/store';
import { eq } from '../store/filters';
import type { VideoDomainRecord, VideoRecord } from '../records';
import { findById } from './lookup';
import { assertCanView } from './visibility';

/** The video an oEmbed `url` names: its `link` / `player_embed_url` (`…/videos/{id}/player`) or `…/videos/{id}`, on this server. */
export async function oembedVideo(store: Store, baseUrl: string, url: string): Promise<VideoRecord> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notFound('video');
  }
  const id = parsed.origin === new URL(baseUrl).origin ? /^\/videos\/(\d+)(?:\/player)?\/?$/.exec(parsed.pathname)?.[1] : undefined;
  const video = id ? await findById<VideoRecord>(store, 'videos', id) : null;
  if (!video) throw notFound('video');
  // oEmbed answers for anybody (a CMS asks without credentials): a video anybody may not see is not found, its password included.
  await assertCanView(store, video, null).catch((e: unknown) => {
    throw e instanceof ApiError ? notFound('video') : e;
  });
  return video;
}

/**
 * The oEmbed JSON endpoint of `video`'s player, for the page's discovery links: only where the
 * endpoint would answer a page anywhere (anybody may see it, and its embed privacy is not `private`).
 */
export async function oembedDiscovery(store: Store, baseUrl: string, video: VideoRecord): Promise<string | null> {
  if (video.privacy.embed === 'private') return null;
  const visible = await assertCanView(store, video, null).then(() => true, () => false);
  return visible ? `${baseUrl}/api/oembed.json?url=${encodeURIComponent(`${baseUrl}/videos/${video.id}/player`)}` : null;
}

/**
 * 403 where the video's `privacy.embed` forbids embedding it on the asking page: `private`
 * always; `whitelist` unless the request's `Referer` is this server or a listed domain (or one of
 * its subdomains), as the hosted oEmbed endpoint asks of domain-restricted videos.
 */
export async function assertEmbeddable(store: Store, video: VideoRecord, baseUrl: string, referer: string | undefined): Promise<void> {
  if (video.privacy.embed === 'public') return;
  const refused = forbidden('This video may not be embedded on this page (privacy.embed).');
  if (video.privacy.embed !== 'whitelist' || !referer) throw refused;
  let host: string;
  try {
    host = new URL(referer).hostname.toLowerCase();
  } catch {
    throw refused;
  }
  if (host === new URL(baseUrl).hostname) return;
  const { items } = await store.find<VideoDomainRecord>('video_domains', { where: eq('video_id', video.id) });
  if (!items.some((d) => host === d.domain || host.endsWith(`.${d.domain}`))) throw refused;
}

/** An embed's size: `width`/`height` ask for a size (the aspect ratio kept, fitting both), `maxwidth`/`maxheight` cap it; the native size otherwise. */
export interface SizeRequest {
  width?: number;
  height?: number;
  maxwidth?: number;
  maxheight?: number;
}

export function embedSize(native: { width: number; height: number }, o: SizeRequest): { width: number; height: number } {
  const asked = [o.width && o.width / native.width, o.height && o.height / native.height].filter((s): s is number => !!s);
  const caps = [o.maxwidth && o.maxwidth / native.width, o.maxheight && o.maxheight / native.height].filter((s): s is number => !!s);
  const scale = Math.min(asked.length ? Math.min(...asked) : 1, ...caps);
  return { width: Math.max(1, Math.round(native.width * scale)), height: Math.max(1, Math.round(native.height * scale)) };
}
