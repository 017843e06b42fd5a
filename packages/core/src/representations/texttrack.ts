import type { TexttrackRecord, VideoRecord } from '../records';
import { accessVersion } from '../media/link-access';
import { trackLinkExpiry, trackToken } from '../media/track-links';
import { uploadCapability } from '../media/image-links';
import { resourceKey, type RepresentContext } from './common';
import { isoTime } from '../support/time';
import { videoUri } from './video';

/**
 * The Text track representation. `link` is where players fetch the WebVTT file and where its
 * owner (`uploader`) PUTs one; `hls_link` is an HLS subtitle playlist of it. Both are signed,
 * expire, and die with the video's access.
 */
export function representTexttrack(track: TexttrackRecord, video: Pick<VideoRecord, 'links_version'>, ctx: RepresentContext, now: Date, uploader: string | null): Record<string, unknown> {
  const expires = trackLinkExpiry(now);
  const version = track.file?.version ?? 0;
  const base = `${ctx.baseUrl}/media/texttracks/${track.id}/${trackToken(ctx.links, track.id, version, accessVersion(video), expires)}`;
  // Its uploader's link takes a PUT without a bearer token (as vimeo.php sends it) until a file arrives.
  const writable = !track.file && uploader !== null && ctx.viewer?.id === uploader ? `?upload=${uploadCapability(ctx.links, 'texttracks', track.id, `v${version}`)}` : '';
  const expiresTime = isoTime(new Date(expires * 1000));
  return {
    uri: `${videoUri(track.video_id)}/texttracks/${track.id}`,
    name: track.name,
    language: track.language,
    type: track.type,
    active: track.active,
    link: `${base}.vtt${writable}`,
    link_expires_time: expiresTime,
    hls_link: `${base}.m3u8`,
    hls_link_expires_time: expiresTime,
    resource_key: resourceKey('texttrack', track.id),
  };
}
