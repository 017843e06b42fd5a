import { categoriesOfChannel } from '../domain/channel-categories';
import type { ChannelRecord } from '../domain/channel-records';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { representCategory } from './category';
import { connection, interaction, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representTag } from './tag';
import { representUserSummary } from './user';

export const channelUri = (id: string): string => `/channels/${id}`;

/** The Channel representation; `followed` is when the viewer subscribed, if they did. */
export function representChannel(channel: ChannelRecord, owner: UserRecord, ctx: RepresentContext, followed: string | null = null): Record<string, unknown> {
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
    const connections: Record<string, unknown> = {
      users: connection(`${uri}/users`, channel.followers_total),
      videos: connection(`${uri}/videos`, channel.videos_total, ['GET', 'PUT', 'DELETE']),
      moderators: connection(`${uri}/moderators`, channel.moderators_total, ['GET', 'PUT', 'PATCH', 'DELETE']),
      categories: connection(`${uri}/categories`, channel.categories.length, ['GET', 'PUT']),
      tags: connection(`${uri}/tags`, channel.tags.length, ['GET', 'PUT']),
    };
    if (channel.privacy_view === 'users') connections.privacy_users = connection(`${uri}/privacy/users`, channel.privacy_users_total, ['GET', 'PUT']);
    out.metadata = {
      connections,
      interactions: ctx.viewer ? { follow: interaction(`/users/${ctx.viewer.id}/channels/${channel.id}`, followed !== null, followed) } : {},
    };
  }
  return out;
}
