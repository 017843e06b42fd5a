import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, interaction, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representPicture } from './picture';

/** Bytes a user may store; uploads arrive with a later issue, so nothing is used yet. */
const quotaBytes = 500 * 1024 ** 3;

export const userUri = (id: string): string => `/users/${id}`;

/** The user's active portrait, or the service placeholder. */
const portraitOf = (user: UserRecord, ctx: RepresentContext) =>
  user.active_picture
    ? representPicture(user.active_picture, `/users/${user.id}/pictures/${user.active_picture.id}`, ctx, user.id)
    : placeholderPicture(ctx, 'portrait');

/** The User representation. */
export function representUser(user: UserRecord, ctx: RepresentContext, followed: string | null = null): Record<string, unknown> {
  const uri = userUri(user.id);
  const self = ctx.viewer?.id === user.id;
  const out: Record<string, unknown> = {
    uri,
    name: user.name,
    link: `${ctx.baseUrl}/users/${user.link ?? user.id}`,
    location: user.location,
    bio: user.bio,
    short_bio: user.bio.slice(0, 140),
    created_time: user.created_time,
    account: user.account,
    pictures: portraitOf(user, ctx),
    websites: user.websites,
    content_filter: user.content_filter,
    resource_key: resourceKey('user', user.id),
  };
  if (self) {
    out.preferences = { videos: { privacy: { ...user.video_defaults } } };
    const quota: Record<string, unknown> = { space: { free: quotaBytes, max: quotaBytes, used: 0, showing: 'lifetime' } };
    if (!since(ctx.version, 'noQuotaHdSd')) quota.quota = { hd: true, sd: true };
    out.upload_quota = quota;
  }
  if (since(ctx.version, 'connections')) {
    const connections: Record<string, unknown> = {
      albums: connection(`${uri}/albums`, user.albums_total, ['GET', 'POST']),
      appearances: connection(`${uri}/appearances`, user.appearances_total),
      categories: connection(`${uri}/categories`, user.categories_total),
      channels: connection(`${uri}/channels`, user.channels_total),
      // A feed is a stream, not a counted collection.
      feed: { uri: `${uri}/feed`, options: ['GET'] },
      followers: connection(`${uri}/followers`, user.followers_total),
      following: connection(`${uri}/following`, user.following_total, ['GET', 'POST']),
      groups: connection(`${uri}/groups`, user.groups_total),
      likes: connection(`${uri}/likes`, user.likes_total),
      pictures: connection(`${uri}/pictures`, user.pictures_total, ['GET', 'POST']),
      videos: connection(`${uri}/videos`, user.videos_total, ['GET', 'POST']),
      watchlater: connection(`${uri}/watchlater`, user.watchlater_total),
      watched_videos: connection(`${uri}/watched/videos`, user.watched_total, ['GET', 'DELETE']),
    };
    if (since(ctx.version, 'parentFolder')) connections.folders = connection(`${uri}/projects`, user.folders_total, ['GET', 'POST']);
    // Before 3.3.8 the User also named its activities: reelbase's activity stream of a user is their
    // feed, so the connection leads there rather than to a path nothing answers (issue 22).
    if (!since(ctx.version, 'noUserActivities')) connections.activities = { uri: `${uri}/feed`, options: ['GET'] };
    out.metadata = {
      connections,
      interactions: ctx.viewer && !self ? { follow: interaction(`/users/${ctx.viewer.id}/following/${user.id}`, followed !== null, followed) } : {},
    };
  }
  return out;
}

/** A User as embedded in other representations (video owner, comment author…). */
export function representUserSummary(user: UserRecord, ctx: RepresentContext): Record<string, unknown> {
  return {
    uri: userUri(user.id),
    name: user.name,
    link: `${ctx.baseUrl}/users/${user.link ?? user.id}`,
    location: user.location,
    bio: user.bio,
    created_time: user.created_time,
    account: user.account,
    pictures: portraitOf(user, ctx),
    resource_key: resourceKey('user', user.id),
  };
}

