import type { RenditionSet, VideoRecord } from '../records';
import type { LinkSigner } from './link-signer';
import { trackLinkExpiry } from './track-links';
import { accessVersion } from './link-access';

/**
 * Playback links: a browser's `<video>` and an HLS player send no bearer token, so a video's
 * renditions are reached through signed links that name the rendition set, expire (the end of
 * the next UTC day, like text tracks') and are handed out only to viewers who may watch — the
 * privacy decision is made when the Clip is represented. `/media/play/<video>/<token>/<file>`.
 * The tag names the rendition set and the video's access version (`r<set>a<version>`, no `a`
 * for version 0), so new renditions and lost access alike leave every older link dead.
 */
export function playTag(video: Pick<VideoRecord, 'links_version'>, set: RenditionSet): string {
  const version = accessVersion(video);
  return `r${set.key.split('/').pop()}${version ? `a${version}` : ''}`;
}

export const playSubject = (videoId: string, tag: string, expires: number): string => `play/${videoId}/${tag}/${expires}`;

/** The directory every file of a video's current renditions is linked under, and when it expires. */
export function playBase(base: string, signer: LinkSigner, video: Pick<VideoRecord, 'id' | 'links_version'>, set: RenditionSet, now: Date): { base: string; expires: number } {
  const expires = trackLinkExpiry(now);
  const tag = playTag(video, set);
  return { base: `${base}/media/play/${video.id}/${tag}-${expires}-${signer.sign(playSubject(video.id, tag, expires))}`, expires };
}

export function parsePlayToken(token: string): { tag: string; expires: number; signature: string } | null {
  const m = /^(r\d{1,18}(?:a\d{1,9})?)-(\d{1,12})-([0-9a-f]{32})$/.exec(token);
  return m ? { tag: m[1], expires: Number(m[2]), signature: m[3] } : null;
}

/** MIME types of the files of a rendition set. */
export const playTypes: Record<string, string> = {
  mp4: 'video/mp4',
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  vtt: 'text/vtt; charset=utf-8',
  jpg: 'image/jpeg',
};
