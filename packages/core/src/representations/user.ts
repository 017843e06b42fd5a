import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, interaction, isoTime, placeholderPicture, resourceKey, type RepresentContext } from './common';

/** Bytes a user may store; uploads arrive with a later issue, so nothing is used yet. */
const quotaBytes = 500 * 1024 ** 3;

export const userUri = (id: string): string => `/users/${id}`;

/** The User representation. */
export function representUser(user: UserRecord, ctx: RepresentContext): Record<string, unknown> {
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
    pictures: placeholderPicture(ctx, 'portrait'),
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
      albums: connection(`${uri}/albums`, 0),
      appearances: connection(`${uri}/appearances`, 0),
      categories: connection(`${uri}/categories`, 0),
      channels: connection(`${uri}/channels`, 0),
      feed: connection(`${uri}/feed`, 0),
      followers: connection(`${uri}/followers`, user.followers_total),
      following: connection(`${uri}/following`, user.following_total),
      groups: connection(`${uri}/groups`, 0),
      likes: connection(`${uri}/likes`, 0),
      pictures: connection(`${uri}/pictures`, 0, ['GET', 'POST']),
      videos: connection(`${uri}/videos`, user.videos_total, ['GET', 'POST']),
      watchlater: connection(`${uri}/watchlater`, 0),
      watched_videos: connection(`${uri}/watched/videos`, 0),
    };
    if (since(ctx.version, 'parentFolder')) connections.folders = connection(`${uri}/projects`, 0, ['GET', 'POST']);
    if (!since(ctx.version, 'noUserActivities')) connections.activities = connection(`${uri}/activities`, 0);
    out.metadata = {
      connections,
      interactions: ctx.viewer && !self ? { follow: interaction(`/users/${ctx.viewer.id}/following/${user.id}`, false, null) } : {},
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
    pictures: placeholderPicture(ctx, 'portrait'),
    resource_key: resourceKey('user', user.id),
  };
}

