import { categories } from '../catalog/categories';
import { iframeHtml } from './embed-html';
import type { UserRecord, VideoRecord } from '../records';
import { since } from '../engine/versions';
import { representCategory } from './category';
import { connection, interaction, notReportable, placeholderPicture, resourceKey, type RepresentContext } from './common';
import type { ProjectRecord } from '../records/project';
import { representPicture, representVideoFrame } from './picture';
import { frameSource } from '../media/image-links';
import { pictureAccess } from '../media/link-access';
import { representProject } from './project';
import { representTag } from './tag';
import { representFiles, representPlay } from './video-play';
import { representUserSummary, userUri } from './user';
import { ondemandConnections, ondemandInteractions, runningAt } from './video-ondemand';
import type { ClipPurchases, ClipOndemand } from '../records/ondemand';
import { uploadLinks } from '../media/upload-links';
import { Remembered } from '../support/remembered';
import { splice } from './spliced';
import { isShared } from '../store/copy-json';

/** What the viewer has done with a video: the times they liked, queued and last watched it. */
export interface ViewerState {
  liked: string | null;
  watchlater: string | null;
  watched: string | null;
  /** Channels the viewer moderates: where they may add or remove the video. */
  moderatedChannels: number;
  /** The viewer's albums the video may be added to (GET /videos/{id}/available_albums). */
  availableAlbums: number;
  /** The viewer's latest purchases of the video's On Demand page. */
  purchases: ClipPurchases;
}

export const noViewerState: ViewerState = { liked: null, watchlater: null, watched: null, moderatedChannels: 0, availableAlbums: 0, purchases: {} };

export const videoUri = (id: string): string => `/videos/${id}`;

/** What a review page link signs: the video (the page answers while the video's review_page.active). */
export const reviewSubject = (id: string): string => `review/${id}`;

/** The Clip representation. `owner` is the video's user and `state` the viewer's, loaded by the caller. */
export function representVideo(
  video: VideoRecord,
  owner: UserRecord,
  ctx: RepresentContext,
  state: ViewerState = noViewerState,
  folder: ProjectRecord | null = null,
  od: ClipOndemand | null = null,
): Record<string, unknown> {
  return withViewerState(clipBase(video, owner, ctx, folder, od), video, ctx, state, od);
}

/**
 * The Clip as the viewer's role shows it (the owner's, or anybody else's), without what this
 * viewer has done with it: the same for every viewer in that role, so it can be built once and
 * shared (domain/videos.ts). `withViewerState` completes it.
 */
export function clipBase(video: VideoRecord, owner: UserRecord, ctx: RepresentContext, folder: ProjectRecord | null, od: ClipOndemand | null): Record<string, unknown> {
  const uri = videoUri(video.id);
  const isOwner = ctx.viewer?.id === video.user_id;
  const link = `${ctx.baseUrl}/videos/${video.id}/player`;
  const out: Record<string, unknown> = {
    uri,
    name: video.name,
    description: video.description,
    type: 'video',
    link,
    player_embed_url: link,
    duration: video.duration,
    width: video.width,
    height: video.height,
    language: video.locale,
    license: video.license,
    content_rating: video.content_rating,
    created_time: video.created_time,
    modified_time: video.modified_time,
    release_time: video.release_time,
    user: representUserSummary(owner, ctx),
    pictures: clipPicture(video, uri, ctx),
    tags: video.tags.map((t) => representTag(t)),
    privacy: { view: video.privacy_view, ...video.privacy },
    embed: embedSettings(video, link),
    spatial: video.spatial,
    external_links: video.external_links,
    ratings: video.ratings,
    stats: { plays: video.plays },
    status: video.status,
    // Why a transcode failed is the owner's to read (an extension of the hosted API's object).
    transcode: isOwner && video.transcode_error ? { status: video.transcode_status, error: video.transcode_error } : { status: video.transcode_status },
    upload: {
      status: video.upload.status,
      approach: video.upload.approach,
      size: video.upload.size,
      redirect_url: video.upload.redirect_url,
      link: video.upload.link,
      // The links are capabilities: only the owner sees them.
      ...(isOwner ? uploadLinks(video.upload, ctx.baseUrl, video.id) : { upload_link: null, form: null }),
    },
    resource_key: resourceKey('video', video.id),
    // How the video reaches the viewer when not through a feed: its owner uploaded it.
    context: { action: 'Uploaded by', resource: { uri: userUri(owner.id), name: owner.name, link: `${ctx.baseUrl}/users/${owner.link ?? owner.id}` }, resource_type: 'user' },
  };
  out.play = representPlay(video, ctx);
  if (video.file) {
    // The source and its renditions: files for the owner whose token holds video_files; downloads
    // for them too, and for everybody with privacy.download.
    const ownFiles = isOwner && ctx.ownerFiles === true;
    if (ownFiles) out.files = representFiles(video, ctx, false);
    out.download = ownFiles || video.privacy.download ? representFiles(video, ctx, true) : [];
  }
  if (video.scheduled_start_time) out.scheduled_start_time = video.scheduled_start_time;
  // The owner's to hand out, and only while the page answers (as review_link always was). Signed
  // like a media link: whoever holds it may watch, so it cannot be a guessable key (issue 22).
  const review = isOwner && video.review_page_active ? `${ctx.baseUrl}/videos/${video.id}/review/${ctx.links.sign(reviewSubject(video.id))}` : null;
  if (since(ctx.version, 'reviewPage')) out.review_page = { active: video.review_page_active, link: review };
  else out.review_link = review;
  // The folder is the owner's (a video lives only in its owner's projects), and only theirs to open.
  if (since(ctx.version, 'parentFolder')) out.parent_folder = folder && isOwner ? representProject(folder, owner, ctx) : null;
  // Before 3.3 the Clip named its embed preset (SPEC.md, Versioning 3.3: embed_presets removed).
  if (!since(ctx.version, 'clipCategories')) {
    out.embed_presets = video.preset_id ? { uri: `/users/${video.user_id}/presets/${video.preset_id}` } : null;
  }
  if (since(ctx.version, 'clipCategories')) {
    out.categories = video.categories.flatMap((slug) => {
      const category = categories.get(slug);
      return category ? [representCategory(category, ctx)] : [];
    });
  }
  if (since(ctx.version, 'connections')) {
    const connections: Record<string, unknown> = {
      comments: connection(`${uri}/comments`, video.comments_total, ['GET', 'POST']),
      credits: connection(`${uri}/credits`, video.credits_total, ['GET', 'POST']),
      likes: connection(`${uri}/likes`, video.likes_total),
      pictures: connection(`${uri}/pictures`, video.pictures_total, ['GET', 'POST']),
      texttracks: connection(`${uri}/texttracks`, video.texttracks_total, ['GET', 'POST']),
      users_with_access: connection(`${uri}/privacy/users`, video.users_with_access_total, ['GET', 'PUT', 'DELETE']),
      available_channels: connection(`${uri}/available_channels`, 0),
      available_albums: connection(`${uri}/available_albums`, 0),
      albums: connection(`${uri}/albums`, video.albums_total),
      versions: connection(`${uri}/versions`, video.versions_total, ['POST']),
      playback: { uri: `${uri}/playback`, options: ['GET'] },
      ...ondemandConnections(od),
    };
    // Related content is what recommendations lists (from 3.3, with it).
    const recommendations = since(ctx.version, 'clipCategories') ? { uri: `${uri}/recommendations`, options: ['GET'] } : null;
    if (recommendations) connections.recommendations = recommendations;
    connections.related = recommendations;
    out.metadata = { connections, interactions: {} };
  }
  return out;
}

/**
 * A Clip base with what the viewer has done with the video spliced in as its `metadata`: the rest
 * is the base's own, so serialising it reuses the base's text (representations/spliced.ts). A
 * shared base remembers its last few viewers' Clips: the same viewer reading the same video
 * again (an app's one token reading for all its users, a client polling) gets the same object,
 * whose text was written once.
 */
export function withViewerState(base: Record<string, unknown>, video: VideoRecord, ctx: RepresentContext, state: ViewerState, od: ClipOndemand | null): Record<string, unknown> {
  const viewer = ctx.viewer?.id;
  const metadata = base.metadata as { connections: Record<string, unknown> } | undefined;
  if (!viewer || !metadata) return base;
  const uri = videoUri(video.id);
  const build = () => {
    const connections = {
      ...metadata.connections,
      available_channels: connection(`${uri}/available_channels`, state.moderatedChannels),
      available_albums: connection(`${uri}/available_albums`, state.availableAlbums),
    };
    const interactions = {
      like: interaction(`/users/${viewer}/likes/${video.id}`, state.liked !== null, state.liked),
      watchlater: interaction(`/users/${viewer}/watchlater/${video.id}`, state.watchlater !== null, state.watchlater),
      watched: interaction(`/users/${viewer}/watched/videos/${video.id}`, state.watched !== null, state.watched, ['GET', 'PUT', 'DELETE']),
      ...ondemandInteractions(od, state.purchases, ctx),
      // Moving the video in or out of a channel is the channel's connection's; nobody reports videos here.
      channel: null,
      report: notReportable,
    };
    return { connections, interactions };
  };
  if (!isShared(base)) return { ...base, metadata: build() };
  return viewerClips.get(base, viewerKey(viewer, state, ctx.now), () => splice(base, 'metadata', build()));
}

/**
 * Everything a viewer's `metadata` shows beyond the base, as a key: a rental shows as running
 * until it expires. Built for every Clip of a page, and most are ones the viewer has done
 * nothing with, so the common part is a short text and the rest is added only when there is some.
 */
function viewerKey(viewer: string, state: ViewerState, now: Date): string {
  let key = `${viewer}\u0000${state.moderatedChannels}\u0000${state.availableAlbums}`;
  if (state.liked !== null || state.watchlater !== null || state.watched !== null) key += `\u0000${state.liked}\u0000${state.watchlater}\u0000${state.watched}`;
  for (const [type, purchase] of Object.entries(state.purchases)) key += `\u0000${type}:${purchase.id}@${purchase.expires_time}:${runningAt(purchase, now.toISOString())}`;
  return key;
}

/** Viewers' Clips, per shared base (a frozen one is never rebuilt in place). */
const viewerClips = new Remembered<Record<string, unknown>>(4);

/**
 * The video's embed settings, and under the hosted API's names what reelbase's player does: the
 * service logo (`logos.vimeo`, SPEC.md's `logos.service`), and speed controls, which the
 * browser's own controls offer wherever the player shows its controls (`playbar`).
 */
function embedSettings(video: VideoRecord, link: string): Record<string, unknown> {
  const e = video.embed;
  return { ...e, logos: { ...e.logos, vimeo: e.logos.service }, speed: e.playbar !== false, html: embedHtml(link, video) };
}

function embedHtml(link: string, video: VideoRecord): string {
  return iframeHtml(link, video.width || 640, video.height || 360, video.name);
}

/** The Clip's picture: the chosen one, else a frame of the video, else (no file yet) the placeholder. */
export function clipPicture(video: VideoRecord, uri: string, ctx: RepresentContext): Readonly<Record<string, unknown>> {
  const frame = frameSource(video);
  if (video.active_picture) return representPicture(video.active_picture, `${uri}/pictures/${video.active_picture.id}`, ctx, video.user_id, video);
  return frame ? representVideoFrame(frame, ctx, pictureAccess(video, ctx.now)) : placeholderPicture(ctx, 'thumbnail');
}
