import type { UserRecord, VideoRecord } from '../records';
import { since } from '../engine/versions';
import { connection, interaction, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representUserSummary } from './user';

export const videoUri = (id: string): string => `/videos/${id}`;

/** The Clip representation. `owner` is the video's user, loaded by the caller. */
export function representVideo(video: VideoRecord, owner: UserRecord, ctx: RepresentContext): Record<string, unknown> {
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
    pictures: placeholderPicture(ctx, 'thumbnail'),
    tags: [],
    privacy: { view: video.privacy_view, ...video.privacy },
    embed: { ...video.embed, html: embedHtml(link, video) },
    spatial: video.spatial,
    external_links: video.external_links,
    ratings: video.ratings,
    stats: { plays: video.plays },
    status: video.status,
    transcode: { status: video.transcode_status },
    upload: {
      status: video.upload.status,
      approach: video.upload.approach,
      size: video.upload.size,
      upload_link: null,
      redirect_url: video.upload.redirect_url,
      link: video.upload.link,
      form: null,
    },
    resource_key: resourceKey('video', video.id),
  };
  if (video.scheduled_start_time) out.scheduled_start_time = video.scheduled_start_time;
  const reviewLink = `${ctx.baseUrl}/videos/${video.id}/review/${resourceKey('review', video.id).slice(0, 10)}`;
  if (since(ctx.version, 'reviewPage')) out.review_page = { active: video.review_page_active, link: isOwner ? reviewLink : null };
  else out.review_link = isOwner && video.review_page_active ? reviewLink : null;
  if (since(ctx.version, 'parentFolder')) out.parent_folder = video.parent_folder;
  if (since(ctx.version, 'clipCategories')) out.categories = [];
  if (since(ctx.version, 'connections')) {
    const connections: Record<string, unknown> = {
      comments: connection(`${uri}/comments`, video.comments_total, ['GET', 'POST']),
      credits: connection(`${uri}/credits`, 0, ['GET', 'POST']),
      likes: connection(`${uri}/likes`, video.likes_total),
      pictures: connection(`${uri}/pictures`, 0, ['GET', 'POST']),
      texttracks: connection(`${uri}/texttracks`, 0, ['GET', 'POST']),
      users_with_access: connection(`${uri}/privacy/users`, 0, ['GET', 'PUT']),
      available_channels: connection(`${uri}/available_channels`, 0),
      albums: connection(`${uri}/albums`, 0),
      versions: connection(`${uri}/versions`, 1, ['GET', 'POST']),
    };
    if (since(ctx.version, 'clipCategories')) connections.recommendations = { uri: `${uri}/recommendations`, options: ['GET'] };
    const viewer = ctx.viewer?.id;
    out.metadata = {
      connections,
      interactions: viewer
        ? {
            like: interaction(`/users/${viewer}/likes/${video.id}`, false, null),
            watchlater: interaction(`/users/${viewer}/watchlater/${video.id}`, false, null),
            watched: interaction(`/users/${viewer}/watched/videos/${video.id}`, false, null, ['DELETE']),
          }
        : {},
    };
  }
  return out;
}

function embedHtml(link: string, video: VideoRecord): string {
  const w = video.width || 640;
  const h = video.height || 360;
  const title = video.name.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<iframe src="${link}" width="${w}" height="${h}" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${title}"></iframe>`;
}
