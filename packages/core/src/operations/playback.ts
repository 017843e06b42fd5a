import { boolean, object, optional, size, string } from 'superstruct';
import { forbidden, notFound } from '../engine/errors';
import { by } from '../engine/list';
import { operation, type Context } from '../engine/operation';
import { loadVisibleVideo } from '../domain/videos';
import type { TexttrackRecord, UserRecord, UserVideoRecord, VideoRecord } from '../records';
import { isoTime } from '../representations/common';
import { where } from '../store/filters';
import { representContext } from '../domain/users';
import { representUserSummary } from '../representations/user';
import { clipPicture, videoUri } from '../representations/video';
import { representTexttrack } from '../representations/texttrack';
import { representCustomLogo } from '../representations/custom-logo';
import type { CustomLogoRecord, EmbedPresetRecord } from '../domain/embed-records';
import { frameAncestors, inlineSource, originSource, pageHeaders } from '../domain/page-security';
import { effectiveEmbed, playerPage, type PlayerTrack } from '../domain/player-page';

/**
 * Playback: the video's file (bytes streamed by the transport, with ranges) and a small player
 * page. Core decides who may play or download; the transport only moves the bytes.
 */

/** The file of a visible video: 404/5006 when no upload finished yet. */
async function playable(ctx: Context<{ password?: string }>): Promise<VideoRecord & { file: NonNullable<VideoRecord['file']> }> {
  const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
  if (!video.file || video.status !== 'available') throw notFound('video file', 5006);
  return video as VideoRecord & { file: NonNullable<VideoRecord['file']> };
}

/** May the viewer download (not just play) the video? Its owner always; others when privacy.download. */
export const mayDownload = (video: VideoRecord, viewer: UserRecord | null): boolean => viewer?.id === video.user_id || video.privacy.download;

/** A play: counted once per request that starts at the first byte; the viewer's history records it. */
async function countPlay(ctx: Context<unknown>, video: VideoRecord): Promise<void> {
  const range = ctx.request.headers.range;
  if (range && !/^bytes=0-/.test(range.trim())) return;
  const viewer = ctx.principal.user;
  const time = isoTime(ctx.now());
  await ctx.store.transaction(async (tx) => {
    await tx.increment<VideoRecord>('videos', video.id, 'plays', 1);
    if (!viewer) return;
    const row = await tx.findOne<UserVideoRecord>('watched', where({ user_id: viewer.id, video_id: video.id }));
    if (row) await tx.update<UserVideoRecord>('watched', row.id, { created_time: time });
    else {
      await tx.insert<UserVideoRecord>('watched', { user_id: viewer.id, video_id: video.id, created_time: time });
      await tx.increment('users', viewer.id, 'watched_total', 1);
    }
  });
}

export const getVideoFile = operation({
  id: 'videos.file.get',
  summary: "Play or download the video's file (byte ranges)",
  method: 'GET',
  paths: ['/videos/{video_id}/file'],
  params: object({ password: optional(size(string(), 1, 128)), download: optional(boolean()) }),
  async handle(ctx) {
    const video = await playable(ctx);
    if (ctx.params.download && !mayDownload(video, ctx.principal.user)) throw forbidden('The owner of this video does not allow downloads.');
    await countPlay(ctx, video);
    const ext = video.file.type === 'video/webm' ? 'webm' : 'mp4';
    return {
      status: 200,
      headers: { 'Cache-Control': 'private, max-age=0' },
      file: {
        ...video.file,
        ...(ctx.params.download ? { downloadName: `${video.name.replace(/[^\w .-]+/g, '_').trim() || `video-${video.id}`}.${ext}` } : {}),
      },
    };
  },
});

export const getPlayer = operation({
  id: 'videos.player.get',
  summary: 'The player page: a <video> element honouring the embed settings',
  method: 'GET',
  paths: ['/videos/{video_id}/player'],
  params: object({ password: optional(size(string(), 1, 128)) }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const owner = await ctx.store.get<UserRecord>('users', video.user_id);
    const rc = representContext(ctx);
    const src = `${ctx.baseUrl}/videos/${video.id}/file${ctx.params.password ? `?password=${encodeURIComponent(ctx.params.password)}` : ''}`;
    const preset = video.preset_id ? await ctx.store.get<EmbedPresetRecord>('presets', video.preset_id) : null;
    const embed = effectiveEmbed(video.embed, preset?.user_id === video.user_id ? preset.settings : null);
    const portrait = owner ? sizedLink(representUserSummary(owner, rc).pictures, 72) : null;
    const poster = sizedLink(clipPicture(video, videoUri(video.id), rc), 1280);
    const tracks = await playerTracks(ctx, video);
    const logo = embed.logos?.custom?.active ? await customLogo(ctx, video) : null;
    const page = playerPage({
      video,
      embed,
      src,
      poster,
      owner: owner ? { name: owner.name, portrait } : null,
      tracks,
      logo,
      link: `${ctx.baseUrl}/videos/${video.id}/player`,
      download: mayDownload(video, null),
    });
    const security = pageHeaders({
      'style-src': [inlineSource(page.style)],
      // Text tracks load as media.
      'media-src': origins([src, ...tracks.map((t) => t.src)]),
      'img-src': origins([poster, portrait, logo]),
      'frame-ancestors': await frameAncestors(ctx.store, video),
    });
    return { status: 200, headers: { 'Cache-Control': 'private, max-age=0', ...security }, html: page.html };
  },
});

/** This server and each other origin the page loads from, once. */
const origins = (urls: (string | null)[]): string[] => [...new Set(["'self'", ...urls.flatMap(originSource)])];

/** The link of a Picture-shaped representation at `width` (the master when it has no such size). */
function sizedLink(picture: unknown, width: number): string | null {
  const p = picture as { link?: string; sizes?: { width: number; link: string }[] } | undefined;
  return p?.sizes?.find((s) => s.width === width)?.link ?? p?.link ?? null;
}

/** The video's active text tracks that have a file, in the order they were added. */
async function playerTracks(ctx: Context<unknown>, video: VideoRecord): Promise<PlayerTrack[]> {
  const { items } = await ctx.store.find<TexttrackRecord>('texttracks', {
    where: where({ video_id: video.id, active: true }),
    orderBy: by('created_time', 'asc'),
  });
  const rc = representContext(ctx);
  const now = ctx.now();
  return items
    .filter((t) => t.file)
    .map((t) => ({ kind: t.type, srclang: t.language, label: t.name, src: representTexttrack(t, rc, now).link as string }));
}

/** A small size of the owner's active custom logo, once it has an image. */
async function customLogo(ctx: Context<unknown>, video: VideoRecord): Promise<string | null> {
  const logo = await ctx.store.findOne<CustomLogoRecord>('custom_logos', where({ user_id: video.user_id, active: true }));
  return logo?.image ? sizedLink(representCustomLogo(logo, representContext(ctx)), 295) : null;
}

export const playbackOperations = [getVideoFile, getPlayer];
