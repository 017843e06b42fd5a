import { boolean, object, optional, size, string } from 'superstruct';
import { forbidden, notFound } from '../engine/errors';
import { operation, type Context } from '../engine/operation';
import { loadVisibleVideo } from '../domain/videos';
import type { UserRecord, UserVideoRecord, VideoRecord } from '../records';
import { escapeHtml, isoTime } from '../representations/common';
import { where } from '../store/filters';
import { representContext } from '../domain/users';
import { representUserSummary } from '../representations/user';
import { frameAncestors, inlineSource, originSource, pageHeaders } from '../domain/page-security';

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
    const src = `${ctx.baseUrl}/videos/${video.id}/file${ctx.params.password ? `?password=${encodeURIComponent(ctx.params.password)}` : ''}`;
    const summary = owner ? representUserSummary(owner, representContext(ctx)) : null;
    const portrait = (summary?.pictures as { link?: string } | undefined)?.link ?? null;
    const page = playerPage(video, owner, portrait, src);
    const security = pageHeaders({
      'style-src': [inlineSource(page.style)],
      'media-src': ["'self'", ...originSource(src)],
      'img-src': ["'self'", ...originSource(portrait)],
      'frame-ancestors': await frameAncestors(ctx.store, video),
    });
    return { status: 200, headers: { 'Cache-Control': 'private, max-age=0', ...security }, html: page.html };
  },
});

/** The page and its one inline style, whose hash the CSP allows. */
function playerPage(video: VideoRecord, owner: UserRecord | null, portrait: string | null, src: string): { html: string; style: string } {
  const e = video.embed;
  const color = /^#?[0-9a-fA-F]{3,8}$/.test(e.color ?? '') ? `#${e.color.replace(/^#/, '')}` : '#00adef';
  const showTitle = e.title?.name !== 'hide';
  const showOwner = e.title?.owner !== 'hide' && owner;
  const showPortrait = e.title?.portrait !== 'hide' && owner;
  const controlsList = [!e.buttons?.fullscreen && 'nofullscreen', !mayDownload(video, null) && 'nodownload'].filter(Boolean).join(' ');
  const header = [
    showPortrait && portrait ? `<img class="portrait" src="${escapeHtml(portrait)}" alt="">` : '',
    showTitle ? `<h1 class="title">${escapeHtml(video.name)}</h1>` : '',
    showOwner ? `<p class="owner">${escapeHtml(owner.name)}</p>` : '',
  ].join('');
  const style = `html,body{margin:0;height:100%;background:#000;color:#fff;font:14px system-ui,sans-serif}
video{width:100%;height:100%;accent-color:${color}}header{position:absolute;top:0;left:0;padding:8px;display:flex;gap:8px;align-items:center}
.title{font-size:16px;margin:0;color:${color}}.owner{margin:0}.portrait{width:32px;height:32px;border-radius:50%}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(video.name)}</title>
<style>${style}</style></head>
<body data-video-id="${video.id}" data-color="${color}"><header>${header}</header>
<video id="player" src="${escapeHtml(src)}" preload="metadata" playsinline${e.playbar === false ? '' : ' controls'}${controlsList ? ` controlslist="${controlsList}"` : ''}${video.width ? ` width="${video.width}" height="${video.height}"` : ''}></video>
</body></html>
`;
  return { html, style };
}

export const playbackOperations = [getVideoFile, getPlayer];
