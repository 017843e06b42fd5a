import { categoriesOfChannel } from '../catalog/categories';
import type { ChannelRecord } from '../records/channel';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { representCategory } from './category';
import { connection, interaction, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representTag } from './tag';
import { representUserSummary } from './user';

export const channelUri = (id: string): string => `/channels/${id}`;

/** What the viewer is to a channel, loaded by the caller for a page of channels at once. */
export interface ChannelViewerState {
  /** When the viewer subscribed, if they did. */
  followed: string | null;
  /** Whether the viewer moderates the channel (its owner does). */
  moderates: boolean;
  /**
   * In the list of channels a video may be added to (GET /videos/{id}/available_channels): that
   * video, and what the viewer may do with it in this channel (GET finds it there, PUT adds it, DELETE takes it out).
   */
  addTo?: { videoId: string; options: string[] };
}

/**
 * The Channel representation. An interaction's `options` are the methods this viewer may use on
 * its `uri`; a connection's are the methods its `uri` answers.
 */
export function representChannel(
  channel: ChannelRecord,
  owner: UserRecord,
  ctx: RepresentContext,
  state: ChannelViewerState,
): Record<string, unknown> {
  const uri = channelUri(channel.id);
  const out: Record<string, unknown> = {
    uri,
    name: channel.name,
    description: channel.description,
    link: `${ctx.baseUrl}/channels/${channel.link ?? channel.id}`,
    created_time: channel.created_time,
    modified_time: channel.modified_time,
    user: representUserSummary(owner, ctx),
    pictures: placeholderPicture(ctx, 'thumbnail'),
    // Every version served has it (SPEC.md, Versioning 3.1); no header can be uploaded yet.
    header: placeholderPicture(ctx, 'thumbnail'),
    categories: categoriesOfChannel(channel).map((c) => representCategory(c, ctx)),
    tags: channel.tags.map((t) => representTag(t)),
    privacy: { view: channel.privacy_view },
    resource_key: resourceKey('channel', channel.id),
  };
  if (since(ctx.version, 'connections')) {
    // Only a `users` channel has a view list: on any other its operations answer 404/2204 (SPEC.md).
    const listed = channel.privacy_view === 'users';
    const isOwner = ctx.viewer?.id === channel.user_id;
    const interactions: Record<string, unknown> = {
      // Anybody who may see the channel may list its moderators and videos; its owner changes the one, its moderators the other.
      add_moderators: { uri: `${uri}/moderators`, options: isOwner ? ['GET', 'PUT', 'PATCH', 'DELETE'] : ['GET'] },
      moderate_videos: { uri: `${uri}/videos`, options: state.moderates ? ['GET', 'PUT', 'DELETE'] : ['GET'] },
      add_to: state.addTo ? { uri: `${uri}/videos/${state.addTo.videoId}`, options: state.addTo.options } : null,
    };
    // Following needs somebody to follow as: anonymous viewers have no follow interaction.
    if (ctx.viewer) {
      const role = state.moderates ? 'moderator' : state.followed !== null ? 'subscriber' : null;
      interactions.follow = { ...interaction(`/users/${ctx.viewer.id}/channels/${channel.id}`, state.followed !== null, state.followed), type: role };
    }
    out.metadata = {
      connections: {
        users: connection(`${uri}/users`, channel.followers_total),
        videos: connection(`${uri}/videos`, channel.videos_total, ['GET', 'PUT', 'DELETE']),
        moderators: connection(`${uri}/moderators`, channel.moderators_total, ['GET', 'PUT', 'PATCH', 'DELETE']),
        categories: connection(`${uri}/categories`, channel.categories.length, ['GET', 'PUT']),
        tags: connection(`${uri}/tags`, channel.tags.length, ['GET', 'PUT']),
        privacy_users: connection(`${uri}/privacy/users`, listed ? channel.privacy_users_total : 0, listed ? ['GET', 'PUT'] : []),
      },
      interactions,
    };
  }
  return out;
}
