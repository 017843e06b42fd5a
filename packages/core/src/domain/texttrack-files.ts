import type { TexttrackRecord } from '../records';
import { recordMediaPrefix } from '../media/image-links';

/** Where a track's files live: removed with the track, or with its video. */
export const trackMediaPrefix = (track: TexttrackRecord): string => recordMediaPrefix('video', track.video_id, 'texttracks', track.id);


/**
 * An HLS subtitle playlist of one WebVTT file: a single segment as long as the video, so an HLS
 * player (Safari's, hls.js) shows the captions beside its renditions.
 */
export function subtitlePlaylist(vttName: string, duration: number): string {
  const seconds = Math.max(1, Math.ceil(duration));
  return ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${seconds}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD', `#EXTINF:${seconds}.000,`, vttName, '#EXT-X-ENDLIST', ''].join('\n');
}
