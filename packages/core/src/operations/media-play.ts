import { boolean, object, optional } from 'superstruct';
import { operation, type Context, type Reply } from '../engine/operation';
import { findById } from '../domain/lookup';
import { deadLink, downloadName, mediaAccess } from '../domain/media-files';
import { recordWatched } from '../domain/plays';
import { recordEvent } from '../domain/analytics-events';
import { parsePlayToken, playSubject, playTag, playTypes } from '../media/play-links';
import type { VideoRecord } from '../records';

/**
 * A video's renditions at its signed playback links: the master playlist, each rendition's
 * fragmented MP4 (byte ranges: a `<video>` plays it whole, HLS players fetch its fragments) and
 * media playlist. Sets made before fragmented MP4s have `<rendition>/index.m3u8` and MPEG-TS
 * segments instead, served until they are re-packaged. The storyboard's WebVTT file and sheets
 * are served alike. The master playlist and an MP4 read from
 * its first byte to its end count a play; an HLS player's bounded ranges of an MP4 do not (its
 * master playlist counted it). A rendition MP4 at its `download` link (`?download=true`, what the
 * Clip's `download` array hands out) is an attachment, and counts a download instead.
 */
async function servePlay(ctx: Context<{ download?: boolean }>): Promise<Reply> {
  const token = parsePlayToken(ctx.path.token);
  const video = token && (await findById<VideoRecord>(ctx.store, 'videos', ctx.path.video_id));
  const set = video?.renditions;
  if (!token || !video || !set || playTag(video, set) !== token.tag) throw deadLink();
  if (!ctx.links.verify(playSubject(video.id, token.tag, token.expires), token.signature)) throw deadLink();
  if (token.expires * 1000 <= ctx.now().getTime()) throw deadLink();
  // `…/<file>`, or `…/<rendition>/<file>` for a rendition's HLS playlist and segments.
  const rendition = ctx.path.segment === undefined ? undefined : ctx.path.file;
  const file = ctx.path.segment ?? ctx.path.file;
  const known = rendition
    ? set.list.some((r) => r.name === rendition) && /^(index\.m3u8|seg_\d{1,6}\.ts)$/.test(file)
    : file === set.master || set.list.some((r) => r.file === file || r.playlist === file) || file === set.storyboard?.vtt || !!set.storyboard?.sheets.includes(file);
  if (!known) throw deadLink();
  const key = `${set.key}/${rendition ? `${rendition}/` : ''}${file}`;
  const info = await mediaAccess(ctx).blobs.stat(key);
  if (!info) throw deadLink();
  const range = ctx.request.headers.range?.trim();
  const rung = rendition ? undefined : set.list.find((r) => r.file === file);
  const download = !!ctx.params.download && !!rung;
  // A download from its first byte is one (a resumed one asks for a later range).
  if (download && (!range || /^bytes=0-/.test(range))) await recordEvent(ctx, video, { type: 'download' });
  else if (!download && (file === set.master || (file.endsWith('.mp4') && (!range || /^bytes=0-$/.test(range))))) await recordWatched(ctx, video);
  return {
    status: 200,
    // The link expires, the files under it never change: cache until a day has passed at most.
    headers: { 'Cache-Control': 'private, max-age=86400' },
    file: {
      key,
      size: info.size,
      type: playTypes[file.split('.').pop()!],
      ...(info.modified ? { modified: info.modified } : {}),
      ...(download ? { downloadName: downloadName(video, `-${rung.name}.mp4`) } : {}),
    },
  };
}

export const getPlayFile = operation({
  id: 'media.play.get',
  summary: 'A video’s renditions at the signed links its `play` hands out: master playlist, MP4s (byte ranges), HLS playlists and segments',
  method: 'GET',
  paths: ['/media/play/{video_id}/{token}/{file}', '/media/play/{video_id}/{token}/{file}/{segment}'],
  params: object({ download: optional(boolean()) }),
  handle: servePlay,
});

export const mediaPlayOperations = [getPlayFile];
