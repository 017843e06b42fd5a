import type { TexttrackRecord } from '../records';
import { trackLinkExpiry, trackToken } from '../media/track-links';
import { isoTime, resourceKey, type RepresentContext } from './common';
import { videoUri } from './video';

/**
 * The Text track representation. `link` is where players fetch the WebVTT file and where its
 * owner PUTs one; `hls_link` is an HLS subtitle playlist of it. Both are signed and expire.
 */
export function representTexttrack(track: TexttrackRecord, ctx: RepresentContext, now: Date): Record<string, unknown> {
  const expires = trackLinkExpiry(now);
  const base = `${ctx.baseUrl}/media/texttracks/${track.id}/${trackToken(ctx.links, track.id, track.file?.version ?? 0, expires)}`;
  const expiresTime = isoTime(new Date(expires * 1000));
  return {
    uri: `${videoUri(track.video_id)}/texttracks/${track.id}`,
    name: track.name,
    language: track.language,
    type: track.type,
    active: track.active,
    link: `${base}.vtt`,
    link_expires_time: expiresTime,
    hls_link: `${base}.m3u8`,
    hls_link_expires_time: expiresTime,
    resource_key: resourceKey('texttrack', track.id),
  };
}
