import { moderatorRoles, type GroupMemberRecord, type GroupRecord } from '../records/group';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, interaction, placeholderPicture, resourceKey, type RepresentContext } from './common';
import { representUserSummary } from './user';

export const groupUri = (id: string): string => `/groups/${id}`;

/**
 * The viewer's membership as the `join` interaction. `options` are what they may do: the owner
 * cannot leave, and only a verified viewer joins, only a group open to all; `type` is their role
 * (the owner and former owners moderate); reelbase gives members no titles.
 */
function joinInteraction(group: GroupRecord, viewer: UserRecord, membership: GroupMemberRecord | null) {
  const open = viewer.verified !== false && group.privacy_view === 'anybody' && group.privacy.join === 'anybody';
  const options = membership ? ['GET', 'PUT', ...(membership.role === 'owner' ? [] : ['DELETE'])] : ['GET', ...(open ? ['PUT'] : [])];
  return {
    ...interaction(`/users/${viewer.id}/groups/${group.id}`, membership !== null, membership?.created_time ?? null, options),
    title: null,
    type: membership ? (moderatorRoles.includes(membership.role) ? 'moderator' : 'member') : null,
  };
}

/**
 * The Group representation. `owner` is the group's owner; `membership` is the viewer's, which
 * fills the `join` interaction.
 */
export function representGroup(
  group: GroupRecord,
  owner: UserRecord,
  ctx: RepresentContext,
  membership: GroupMemberRecord | null,
): Record<string, unknown> {
  const uri = groupUri(group.id);
  const { join, videos, comment, invite, forums } = group.privacy;
  const out: Record<string, unknown> = {
    uri,
    name: group.name,
    description: group.description,
    link: `${ctx.baseUrl}/groups/${group.id}`,
    created_time: group.created_time,
    modified_time: group.modified_time,
    user: representUserSummary(owner, ctx),
    pictures: placeholderPicture(ctx, 'portrait'),
    privacy: { view: group.privacy_view, join, videos, comment, invite, ...(since(ctx.version, 'noGroupForums') ? {} : { forums }) },
    resource_key: resourceKey('group', group.id),
  };
  if (since(ctx.version, 'connections')) {
    out.metadata = {
      connections: {
        users: connection(`${uri}/users`, group.members_total),
        videos: connection(`${uri}/videos`, group.videos_total),
      },
      interactions: ctx.viewer ? { join: joinInteraction(group, ctx.viewer, membership) } : {},
    };
  }
  return out;
}
