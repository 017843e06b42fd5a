import type { VideoRecord } from '../records';
import { playBase } from '../media/play-links';
import { type RepresentContext } from './common';
import { isoTime } from '../support/time';

/** `sd` up to 540 lines, `hd` to 1080, `uhd` above: the hosted API's quality words. */
const quality = (height: number, width: number): string => {
  const lines = Math.min(width, height);
  return lines > 1080 ? 'uhd' : lines > 540 ? 'hd' : 'sd';
};

/**
 * The Clip's `play`: its progressive renditions and HLS stream at signed links, shown to every
 * viewer who may see the video (`unavailable` until its first transcode completes).
 */
export function representPlay(video: VideoRecord, ctx: RepresentContext): Record<string, unknown> {
  const set = video.renditions;
  if (!set) return { status: 'unavailable', progressive: [], hls: null, storyboard: null };
  const { base, expires } = playBase(ctx.baseUrl, ctx.links, video, set, ctx.now);
  const expiration = isoTime(new Date(expires * 1000));
  return {
    status: 'playable',
    progressive: set.list.map((r) => ({
      type: 'video/mp4',
      codec: 'H264',
      width: r.width,
      height: r.height,
      fps: r.fps,
      size: r.size,
      md5: null,
      link: `${base}/${r.file}`,
      link_expiration_time: expiration,
      created_time: set.time,
      rendition: r.name,
    })),
    hls: { link: `${base}/${set.master}`, link_expiration_time: expiration },
    // An extension (Mux and JW Player's format): a WebVTT file whose cues name tiles of sprite sheets beside it.
    storyboard: set.storyboard ? { link: `${base}/${set.storyboard.vtt}`, link_expiration_time: expiration } : null,
  };
}

/**
 * The Clip's `files` (owner) or `download` (where `privacy.download` allows): the source (through
 * the file endpoint, which applies privacy) and every rendition at its signed link; the `download`
 * array's links are marked `?download=true`: attachments, counted as downloads.
 */
export function representFiles(video: VideoRecord, ctx: RepresentContext, download: boolean): Record<string, unknown>[] {
  const set = video.renditions;
  const link = `${ctx.baseUrl}/videos/${video.id}/file${download ? '?download=true' : ''}`;
  const source = video.file
    ? [{ quality: 'source', rendition: 'source', type: video.file.type, width: video.width, height: video.height, size: video.file.size, link, created_time: video.modified_time, fps: null, md5: null, public_name: 'Original' }]
    : [];
  if (!set) return source;
  const { base, expires } = playBase(ctx.baseUrl, ctx.links, video, set, ctx.now);
  const expiration = isoTime(new Date(expires * 1000));
  return [
    ...source,
    ...set.list.map((r) => ({
      quality: quality(r.height, r.width),
      rendition: r.name,
      type: 'video/mp4',
      width: r.width,
      height: r.height,
      size: r.size,
      // A download link says so: it answers as an attachment and counts a download, not a play.
      link: `${base}/${r.file}${download ? '?download=true' : ''}`,
      expires: expiration,
      created_time: set.time,
      fps: r.fps,
      md5: null,
      public_name: r.name.toUpperCase(),
    })),
  ];
}
