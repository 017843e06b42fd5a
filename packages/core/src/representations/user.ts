import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, interaction, notReportable, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representPicture } from './picture';
import { spaceOf } from '../records/upload-space';
import type { UserFacts } from '../records/user-facts';

export const userUri = (id: string): string => `/users/${id}`;

/** The user's active portrait, or the service placeholder. */
const portraitOf = (user: UserRecord, ctx: RepresentContext) =>
  user.active_picture
    ? representPicture(user.active_picture, `/users/${user.id}/pictures/${user.active_picture.id}`, ctx, user.id)
    : placeholderPicture(ctx, 'portrait');

/** Blocking, which reelbase has no feature for, in its empty form: nobody is blocked, nowhere (`uri` null) to do nothing. */
const notBlocked = Object.freeze({ uri: null, options: Object.freeze([]), added: false, added_time: null });

/**
 * The methods the viewer may use on their follow of `user`: nobody follows themselves (the GET
 * check alone), and a viewer an administrator stopped from following may only unfollow.
 */
function followOptions(user: UserRecord, viewer: UserRecord): string[] {
  if (viewer.id === user.id) return ['GET'];
  return viewer.can_follow ? ['GET', 'PUT', 'DELETE'] : ['GET', 'DELETE'];
}

/** The User representation. */
export function representUser(user: UserRecord, ctx: RepresentContext, facts: UserFacts): Record<string, unknown> {
  const uri = userUri(user.id);
  const viewer = ctx.viewer;
  const out: Record<string, unknown> = { ...representUserSummary(user, ctx), short_bio: user.bio.slice(0, 140), content_filter: user.content_filter };
  if (viewer?.id === user.id) {
    out.preferences = { videos: { privacy: { ...user.video_defaults } } };
    // The space shown is the lifetime quota; there is no periodic one.
    const lifetime = spaceOf(user, ctx.uploadQuotaBytes);
    const quota: Record<string, unknown> = {
      space: { ...lifetime, showing: 'lifetime' },
      lifetime,
      periodic: { free: null, max: null, used: null, reset_date: null },
    };
    if (!since(ctx.version, 'noQuotaHdSd')) quota.quota = { hd: true, sd: true };
    out.upload_quota = quota;
  }
  if (since(ctx.version, 'connections')) {
    // What the viewer could list (issue 46 §7): the counters for the user themselves.
    const { listed } = facts;
    const connections: Record<string, unknown> = {
      albums: connection(`${uri}/albums`, listed?.albums ?? user.albums_total, ['GET', 'POST']),
      appearances: connection(`${uri}/appearances`, listed?.appearances ?? user.appearances_total),
      // reelbase has no blocking, portfolios or recommendations of channels and users: these lists are always empty.
      block: connection(`${uri}/block`, 0),
      categories: connection(`${uri}/categories`, listed?.categories ?? user.categories_total),
      channels: connection(`${uri}/channels`, listed?.channels ?? user.channels_total),
      // A feed is a stream, not a counted collection.
      feed: { uri: `${uri}/feed`, options: ['GET'] },
      followers: connection(`${uri}/followers`, user.followers_total),
      following: connection(`${uri}/following`, user.following_total, ['GET', 'POST']),
      groups: connection(`${uri}/groups`, listed?.groups ?? user.groups_total),
      likes: connection(`${uri}/likes`, listed?.likes ?? user.likes_total),
      moderated_channels: connection(`${uri}/channels?filter=moderated`, facts.moderatedChannels),
      pictures: connection(`${uri}/pictures`, user.pictures_total, ['GET', 'POST']),
      portfolios: connection(`${uri}/portfolios`, 0),
      recommended_channels: connection(`${uri}/recommendations/channels`, 0),
      recommended_users: connection(`${uri}/recommendations/users`, 0),
      shared: connection(`${uri}/shared/videos`, listed?.shared ?? facts.shared),
      videos: connection(`${uri}/videos`, listed?.videos ?? user.videos_total, ['GET', 'POST']),
      watchlater: connection(`${uri}/watchlater`, listed?.watchlater ?? user.watchlater_total),
      watched_videos: connection(`${uri}/watched/videos`, listed?.watched ?? user.watched_total, ['GET', 'DELETE']),
    };
    if (since(ctx.version, 'parentFolder')) connections.folders = connection(`${uri}/projects`, listed?.folders ?? user.folders_total, ['GET', 'POST']);
    // Before 3.3.8 the User also named its activities: reelbase's activity stream of a user is their
    // feed, so the connection leads there rather than to a path nothing answers (issue 22).
    if (!since(ctx.version, 'noUserActivities')) connections.activities = { uri: `${uri}/feed`, options: ['GET'] };
    const interactions: Record<string, unknown> = { block: notBlocked, report: notReportable };
    // Following is the signed-in viewer's: the check and the toggle are on their own following list.
    if (viewer) interactions.follow = interaction(`/users/${viewer.id}/following/${user.id}`, facts.followed !== null, facts.followed, followOptions(user, viewer));
    out.metadata = { connections, interactions };
  }
  return out;
}

/**
 * A User as embedded in other representations (video owner, comment author…): the fields that
 * need nothing but the record. The full form (representUser) needs the viewer's facts, loaded per
 * user (domain/users.ts loadUserFacts).
 */
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
    websites: user.websites,
    resource_key: resourceKey('user', user.id),
  };
}
