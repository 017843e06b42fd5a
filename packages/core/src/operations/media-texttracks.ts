import { createHash } from 'node:crypto';
import { invalidField } from '../engine/errors';
import { operation, type Context, type Reply } from '../engine/operation';
import { chapterCues, replaceChapters } from '../domain/chapter-cues';
import { chaptersOf } from '../domain/chapters';
import { findById } from '../domain/lookup';
import { authorizeUpload, blobReply, commitUpload, deadLink, mediaAccess, mediaHeaders, notModified, readUpload, uploadedBytes, type Validators } from '../domain/media-files';
import { subtitlePlaylist, trackMediaPrefix } from '../domain/texttrack-files';
import { parseTrackFile, trackSubject, type TrackToken } from '../media/track-links';
import type { TexttrackRecord, VideoRecord } from '../records';
import { accessVersion } from '../media/link-access';
import { chaptersVtt } from '../representations/chapter';
import { isoTime } from '../support/time';

/**
 * Text-track links: `/media/texttracks/<id>/v<version>-<expires>-<signature>.vtt` is the track's
 * WebVTT file (its owner PUTs WebVTT or SRT there), `….m3u8` an HLS subtitle playlist of it.
 */

const path = '/media/texttracks/{texttrack_id}/{file}';
const vtt = 'text/vtt; charset=utf-8';

/** The track and its video a link names, while the link is signed, unexpired, handed out under the video's current access and (unless `anyVersion`) current. */
async function resolve(ctx: Context<unknown>, anyVersion = false): Promise<{ track: TexttrackRecord; video: VideoRecord; token: TrackToken }> {
  const token = parseTrackFile(ctx.path.file);
  const track = token && (await findById<TexttrackRecord>(ctx.store, 'texttracks', ctx.path.texttrack_id));
  const video = track && (await ctx.store.get<VideoRecord>('videos', track.video_id));
  if (!token || !track || !video) throw deadLink();
  if (!ctx.links.verify(trackSubject(track.id, token.version, token.access, token.expires), token.signature)) throw deadLink();
  if (token.expires * 1000 <= ctx.now().getTime() || token.access !== accessVersion(video)) throw deadLink();
  if (!anyVersion && token.version !== (track.file?.version ?? 0)) throw deadLink();
  return { track, video, token };
}

/**
 * A chapters track's WebVTT file is the video's chapters as they are now (the chapters are the one
 * truth; its link stays the same as they change), so caches revalidate it by a tag of its content.
 */
async function chaptersFile(ctx: Context<unknown>, video: VideoRecord): Promise<Reply> {
  const data = Buffer.from(chaptersVtt((await chaptersOf(ctx.store, video.id)).items, video.duration));
  const v: Validators = { etag: `"c${createHash('sha256').update(data).digest('hex').slice(0, 16)}"`, lastModified: isoTime(ctx.now()) };
  const headers = { ...mediaHeaders(v), 'Cache-Control': 'public, no-cache' };
  const fresh = notModified(ctx, v);
  return fresh ? { ...fresh, headers } : { status: 200, headers, bytes: { data, type: vtt } };
}

export const getTrackFile = operation({
  id: 'media.texttracks.get',
  summary: 'A text track’s WebVTT file (its `link`; a `chapters` track’s is the video’s chapters as they are) or HLS subtitle playlist (its `hls_link`): signed links that expire',
  method: 'GET',
  paths: [path],
  async handle(ctx): Promise<Reply> {
    const { track, video, token } = await resolve(ctx);
    if (track.type === 'chapters' && token.format === 'vtt') return chaptersFile(ctx, video);
    const v: Validators = { etag: `"v${token.version}-${token.format}"`, lastModified: track.file?.time ?? track.created_time };
    const fresh = notModified(ctx, v);
    if (fresh) return fresh;
    if (token.format === 'm3u8') {
      const playlist = subtitlePlaylist(ctx.path.file.replace(/\.m3u8$/, '.vtt'), video.duration);
      return { status: 200, headers: mediaHeaders(v), bytes: { data: Buffer.from(playlist), type: 'application/vnd.apple.mpegurl' } };
    }
    // A track nobody uploaded a file to yet is a WebVTT file without cues, not a dead link.
    if (!track.file) return { status: 200, headers: mediaHeaders(v), bytes: { data: Buffer.from('WEBVTT\n'), type: vtt } };
    return (await blobReply(mediaAccess(ctx).blobs, track.file.key, vtt, v)) ?? Promise.reject(deadLink());
  },
});

export const putTrackFile = operation({
  id: 'media.texttracks.upload',
  summary:
    'Upload a text track’s file: PUT WebVTT or SRT (converted to WebVTT, cues and timings kept) to its `link` (a `chapters` track’s cues replace the video’s chapters), with the owner’s token (scope upload), or without one to the `link` the owner was handed before the first upload',
  method: 'PUT',
  paths: [path],
  // Authorised by authorizeUpload: the owner's token, or the owner's upload capability.
  rawBody: {
    maxBytes: (config) => config.texttrackMaxBytes,
    tooLarge: (max) => invalidField('file', `Text track files are limited to ${max} bytes.`),
  },
  ownTransaction: true,
  async handle(ctx): Promise<Reply> {
    const { track, video, token } = await resolve(ctx, true);
    if (token.format !== 'vtt') throw deadLink();
    authorizeUpload(ctx, video.user_id, `upload/texttracks/${track.id}/v${track.file?.version ?? 0}`, 3430);
    const bytes = uploadedBytes(ctx, 'WebVTT or SRT file');
    const { blobs, media } = mediaAccess(ctx);
    const text = await readUpload(() => media.toWebVtt(bytes));
    // A chapters track is another way in: its cues become the video's chapters (checked before anything is written).
    const cues = track.type === 'chapters' ? chapterCues(text, video.duration) : null;
    return commitUpload(
      ctx,
      blobs,
      trackMediaPrefix(track),
      (key) => blobs.put(key, [Buffer.from(text)]),
      async (tx, key, info) => {
        const current = await tx.get<TexttrackRecord>('texttracks', track.id);
        if (!current) throw deadLink();
        const time = isoTime(ctx.now());
        await tx.update<TexttrackRecord>('texttracks', track.id, { file: { version: (current.file?.version ?? 0) + 1, key, size: info.size, time }, modified_time: time });
        if (cues) await replaceChapters(tx, video, cues, time);
        return current.file;
      },
    );
  },
});

export const mediaTexttrackOperations = [getTrackFile, putTrackFile];
