import type { VideoDomainRecord, VideoRecord } from '../records';
import type { Store } from '../store/store';
import { eq } from '../store/filters';

/** The CSP source of a URL's origin, or nothing for a URL that is not absolute http(s). */
export function originSource(url: string | null | undefined): string[] {
  if (!url) return [];
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? [origin] : [];
  } catch {
    return [];
  }
}

/**
 * Who may frame a video's player, from `privacy.embed`: `public` anyone, `private` nobody,
 * `whitelist` this server and each listed domain with its subdomains, on any port (domains are
 * validated host names when added, so they are safe in a header).
 */
export async function frameAncestors(store: Store, video: VideoRecord): Promise<string[]> {
  if (video.privacy.embed === 'public') return ['*'];
  if (video.privacy.embed !== 'whitelist') return ["'none'"];
  const { items } = await store.find<VideoDomainRecord>('video_domains', { where: eq('video_id', video.id) });
  // A domain is a host on any port; the scheme is the player's own (or https, when it is served on http).
  return ["'self'", ...items.flatMap((d) => [`${d.domain}:*`, `*.${d.domain}:*`])];
}
