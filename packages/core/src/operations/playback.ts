import { boolean, object, optional } from 'superstruct';
import { oembedDiscovery } from '../domain/oembed';
import { forbidden, notFound } from '../engine/errors';
import { downloadName } from '../domain/media-files';
import { by } from '../engine/list';
import { ok, operation, type Context, type Reply } from '../engine/operation';
import { findById } from '../domain/lookup';
import { loadVisibleVideo } from '../domain/videos';
import type { TexttrackRecord, UserRecord, VideoRecord } from '../records';
import { where } from '../store/filters';
import { representContext } from './represent-context';
import { recordWatched, viewerCookie } from '../domain/plays';
import { doNotTrack, recordEvent } from '../domain/analytics-events';
import { representUserSummary } from '../representations/user';
import { clipPicture, reviewSubject, videoUri } from '../representations/video';
import { playBase } from '../media/play-links';
import { representTexttrack } from '../representations/texttrack';
import { representPlay } from '../representations/video-play';
import { representCustomLogo } from '../representations/custom-logo';
import type { CustomLogoRecord, EmbedPresetRecord } from '../records/embed';
import { frameAncestors, originSource } from '../domain/page-security';
import { inlineSource, pageHeaders } from '../support/page-security';
import { beaconsScriptPath, effectiveEmbed, playerPage, playerScripts, stateScripts, type PlayerPageInput, type PlayerState, type PlayerTrack } from '../domain/player-page';
import { viewParams, viewPassword } from '../domain/video-fields';
import { playerOptions } from '../domain/embed-params';
import type { ChapterRecord } from '../records/chapter';

/**
 * Playback: the video's file (bytes streamed by the transport, with ranges) and a small player
 * page. Core decides who may play or download; the transport only moves the bytes.
 */

/** The file of a visible video: 404/5006 when no upload finished yet. */
async function playable(ctx: Context<{ password?: string }>): Promise<VideoRecord & { file: NonNullable<VideoRecord['file']> }> {
  const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
  // The upload plays as it is while its renditions are made.
  if (!video.file || !['transcode_starting', 'transcoding', 'available'].includes(video.status)) throw notFound('video file', 5006);
  return video as VideoRecord & { file: NonNullable<VideoRecord['file']> };
}

/** May the viewer download (not just play) the video? Its owner always; others when privacy.download. */
export const mayDownload = (video: VideoRecord, viewer: UserRecord | null): boolean => viewer?.id === video.user_id || video.privacy.download;

export const getVideoFile = operation({
  id: 'videos.file.get',
  summary: "Play or download the video's file (byte ranges)",
  method: 'GET',
  paths: ['/videos/{video_id}/file'],
  // The owner's source file of a video anybody else is refused, or a download its privacy forbids others, is the hosted API's video_files.
  privateReads: ['private', 'video_files'],
  params: object({ password: viewPassword, download: optional(boolean()) }),
  async handle(ctx) {
    const video = await playable(ctx);
    if (ctx.params.download && !mayDownload(video, ctx.principal.user)) throw forbidden('The owner of this video does not allow downloads.');
    await recordWatched(ctx, video);
    const range = ctx.request.headers.range;
    // A download from its first byte is one (a resumed one asks for a later range).
    if (ctx.params.download && (!range || /^bytes=0-/.test(range.trim()))) await recordEvent(ctx, video, { type: 'download' });
    const ext = video.file.type === 'video/webm' ? 'webm' : 'mp4';
    return {
      status: 200,
      headers: { 'Cache-Control': 'private, max-age=0' },
      file: {
        ...video.file,
        ...(ctx.params.download ? { downloadName: downloadName(video, `.${ext}`) } : {}),
      },
    };
  },
});

export const getPlayer = operation({
  id: 'videos.player.get',
  summary: 'The player page: a <video> element honouring the embed settings',
  method: 'GET',
  paths: ['/videos/{video_id}/player'],
  params: viewParams,
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    return playerReply(ctx, video, ctx.params.password, await frameAncestors(ctx.store, video));
  },
});

export const getReviewPage = operation({
  id: 'videos.review.get',
  summary:
    "The review page a Clip's review_page.link names, while review_page.active: the video's player for whoever holds the link (its owner hands it to reviewers), whatever the video's privacy",
  method: 'GET',
  paths: ['/videos/{video_id}/review/{token}'],
  async handle(ctx) {
    const video = await findById<VideoRecord>(ctx.store, 'videos', ctx.path.video_id);
    // The link is a capability, like a media link: no video, a wrong token and a review page turned off all look alike.
    if (!video || !video.review_page_active || !ctx.links.verify(reviewSubject(video.id), ctx.path.token)) throw notFound('review page');
    // A page for reviewers to open, not to frame elsewhere.
    return playerReply(ctx, video, undefined, ["'none'"]);
  },
});

/**
 * The player page of a video the caller may play, with the security headers that allow exactly
 * what it loads.
 */
async function playerReply(ctx: Context<unknown>, video: VideoRecord, password: string | undefined, ancestors: string[]): Promise<Reply> {
  const input = await playerInput(ctx, video, password);
  const page = playerPage(input);
  return { status: 200, headers: { ...playerHeaders(input, page.style, ancestors), ...viewerCookie(ctx) }, html: page.html };
}

/**
 * What the player page of `video` shows and loads, with the video's own settings. Before the
 * video has renditions it says why (`playerState`), or, with no transcode to wait for, plays the
 * file (`password` carried along).
 */
export async function playerInput(ctx: Context<unknown>, video: VideoRecord, password: string | undefined): Promise<PlayerPageInput> {
  const owner = await ctx.store.get<UserRecord>('users', video.user_id);
  const rc = representContext(ctx);
  // Once transcoded: the HLS stream, and a progressive rendition for browsers that play neither
  // (the signed links of the Clip's `play`).
  const set = video.renditions;
  const base = set ? playBase(ctx.baseUrl, rc.links, video, set, rc.now).base : null;
  const hls = set ? `${base}/${set.master}` : null;
  const fallback = set ? progressiveFallback(set.list) : undefined;
  const src = fallback
    ? `${base}/${fallback.file}`
    : `${ctx.baseUrl}/videos/${video.id}/file${password ? `?password=${encodeURIComponent(password)}` : ''}`;
  const state = playerState(video);
  const preset = video.preset_id ? await ctx.store.get<EmbedPresetRecord>('presets', video.preset_id) : null;
  const embed = effectiveEmbed(video.embed, preset?.user_id === video.user_id ? preset.settings : null);
  return {
    video,
    embed,
    src,
    hls,
    storyboard: set?.storyboard ? `${base}/${set.storyboard.vtt}` : null,
    scripts: (hls ? playerScripts : state ? stateScripts : []).map((path) => `${ctx.baseUrl}${path}`),
    poster: sizedLink(clipPicture(video, videoUri(video.id), rc), 1280),
    owner: owner ? { name: owner.name, portrait: sizedLink(representUserSummary(owner, rc).pictures, 72) } : null,
    tracks: await playerTracks(ctx, video),
    logo: embed.logos?.custom?.active ? await customLogo(ctx, video) : null,
    link: `${ctx.baseUrl}/videos/${video.id}/player`,
    download: mayDownload(video, null),
    downloadLink: `${ctx.baseUrl}/videos/${video.id}/file?download=true`,
    oembed: await oembedDiscovery(ctx.store, ctx.baseUrl, video),
    // The page's own URL decides dnt=1 (a beacon's Referer is this page: the ingest checks it too).
    beacons: doNotTrack(ctx, `${ctx.baseUrl}${ctx.request.path}?${ctx.request.search.toString()}`)
      ? null
      : { endpoint: `${ctx.baseUrl}/videos/${video.id}/beacons`, script: `${ctx.baseUrl}${beaconsScriptPath}` },
    options: playerOptions(ctx.request.query, embed),
    qualities: set ? [...set.list].sort((a, b) => b.height * b.width - a.height * a.width).map((r) => r.name) : [],
    chapters: set ? await playerChapters(ctx, video) : [],
    state,
  };
}

/**
 * What the page says instead of playing, before the video has renditions: a failed transcode
 * leaves nothing that plays (the upload was not a video the tools could read); a queued or running
 * one, nothing yet — on a server without workers it stays queued, and the page says so meanwhile.
 * A replacement's transcode plays the current renditions meanwhile.
 */
function playerState(video: VideoRecord): PlayerState | null {
  if (video.renditions) return null;
  if (video.transcode_status === 'error') return 'failed';
  return video.status === 'transcode_starting' || video.status === 'transcoding' ? 'processing' : null;
}

/**
 * The security headers of a page showing `input`'s player (none: a page without one), whose one
 * inline style is `style`: they allow exactly what it loads (and `images`, the page's other
 * pictures), framed by `ancestors`.
 */
export function playerHeaders(input: PlayerPageInput | null, style: string, ancestors: string[], images: (string | null)[] = []): Record<string, string> {
  const hls = input?.hls ?? null;
  const security = pageHeaders({
    'style-src': [inlineSource(style)],
    ...(input?.scripts.length ? { 'script-src': origins([...input.scripts]) } : {}),
    // Text tracks load as media, and so does a stream played natively; hls.js plays through a
    // MediaSource at a blob: URL, fetching playlists and segments itself.
    ...(input ? { 'media-src': [...origins([input.src, hls, ...input.tracks.map((t) => t.src)]), ...(hls ? ['blob:'] : [])] } : {}),
    // hls.js transmuxes segments in a worker it starts from a blob: URL of its own code.
    ...(hls ? { 'connect-src': origins([hls]), 'worker-src': ['blob:'] } : {}),
    'img-src': origins([input?.poster ?? null, input?.owner?.portrait ?? null, input?.logo ?? null, ...images]),
    'frame-ancestors': ancestors,
  });
  return { 'Cache-Control': 'private, max-age=0', ...security };
}

/** The largest rendition up to 720p (by its short side, as rendition names go), else the smallest. */
function progressiveFallback<R extends { width: number; height: number }>(list: readonly R[]): R | undefined {
  const side = (r: R) => Math.min(r.width, r.height);
  const sorted = [...list].sort((a, b) => side(a) - side(b));
  return sorted.filter((r) => side(r) <= 720).pop() ?? sorted[0];
}

/** This server and each other origin the page loads from, once. */
const origins = (urls: (string | null)[]): string[] => [...new Set(["'self'", ...urls.flatMap(originSource)])];

/** The link of a Picture-shaped representation at `width` (the master when it has no such size). */
export function sizedLink(picture: unknown, width: number): string | null {
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
    .map((t) => ({ kind: t.type, srclang: t.language, label: t.name, src: representTexttrack(t, video, rc, now, null).link as string }));
}

/** The video's chapters in timecode order, as the player's menu and seek bar show them. */
async function playerChapters(ctx: Context<unknown>, video: VideoRecord): Promise<{ title: string; timecode: number }[]> {
  const { items } = await ctx.store.find<ChapterRecord>('chapters', { where: where({ video_id: video.id }), orderBy: by('timecode', 'asc') });
  return items.map((c) => ({ title: c.title, timecode: c.timecode }));
}

/** A small size of the owner's active custom logo, once it has an image. */
async function customLogo(ctx: Context<unknown>, video: VideoRecord): Promise<string | null> {
  const logo = await ctx.store.findOne<CustomLogoRecord>('custom_logos', where({ user_id: video.user_id, active: true }));
  return logo?.image ? sizedLink(representCustomLogo(logo, representContext(ctx)), 295) : null;
}

export const getPlayback = operation({
  id: 'videos.playback.get',
  summary: "Get how a video plays for the caller: its renditions and HLS stream at signed links (the Clip's `play`; its playback connection)",
  method: 'GET',
  paths: ['/videos/{video_id}/playback'],
  params: viewParams,
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    return ok(representPlay(video, representContext(ctx)), null);
  },
});

export const playbackOperations = [getVideoFile, getPlayer, getReviewPage, getPlayback];
