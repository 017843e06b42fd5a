import type { Filter, Store } from '../store/store';
import { eq, inSelect, or, where } from '../store/filters';
import type { UserRecord } from '../records';
import { forbidden, notFound } from '../engine/errors';
import { isoTime } from '../support/time';
import { moderatorRoles, type GroupMemberRecord, type GroupRecord, type GroupRole } from '../records/group';
import { findById } from './lookup';

/** The group a path names (404 when missing). Anyone may read a group; its contents may be closed. */
export async function loadGroup(store: Store, id: string): Promise<GroupRecord> {
  const group = await findById<GroupRecord>(store, 'groups', id);
  if (!group) throw notFound('group');
  return group;
}

export const membershipOf = (store: Store, groupId: string, user: UserRecord | null): Promise<GroupMemberRecord | null> =>
  user ? store.findOne<GroupMemberRecord>('group_members', where({ group_id: groupId, user_id: user.id })) : Promise.resolve(null);

export const isModerator = (membership: GroupMemberRecord | null): boolean => !!membership && moderatorRoles.includes(membership.role);

/** Groups are community actions, like comments: unverified users may neither create nor join them (403/3411). */
export function assertMayUseGroups(user: UserRecord, action: string): void {
  if (user.verified === false) throw forbidden(`Only verified users may ${action} groups.`, 3411);
}

/** 403 unless `user` owns the group. */
export function assertGroupOwner(group: GroupRecord, user: UserRecord | null, action: string): void {
  if (group.user_id !== user?.id) throw forbidden(`Only the group's owner may ${action} it.`);
}

/** A `members` group shows its videos and members to its members only (403 for anyone else). */
export function assertCanSeeContents(group: GroupRecord, membership: GroupMemberRecord | null): void {
  if (group.privacy_view === 'members' && !membership) throw forbidden("Only the group's members may see its videos and members.");
}

/** Groups `viewer` finds listed: public ones and the ones they belong to, in the store. */
export function listableGroups(viewer: UserRecord | null): Filter {
  if (!viewer) return eq('privacy_view', 'anybody');
  return or(eq('privacy_view', 'anybody'), inSelect('id', 'group_members', 'group_id', eq('user_id', viewer.id)));
}

/** Makes `userId` a member, keeping the group's and the user's counters exact. */
export async function addMember(store: Store, groupId: string, userId: string, role: GroupRole, now: Date): Promise<GroupMemberRecord> {
  const member = await store.insert<GroupMemberRecord>('group_members', { group_id: groupId, user_id: userId, role, created_time: isoTime(now) });
  await store.increment('users', userId, 'groups_total', 1);
  await store.increment('groups', groupId, 'members_total', 1);
  return member;
}

export async function removeMember(store: Store, member: GroupMemberRecord): Promise<void> {
  await store.delete('group_members', member.id);
  await store.increment('users', member.user_id, 'groups_total', -1);
  await store.increment('groups', member.group_id, 'members_total', -1);
}

/** Deletes a group with its memberships (each member's groups_total drops) and its video list. */
export async function deleteGroupRecords(store: Store, group: GroupRecord): Promise<void> {
  const { items } = await store.find<GroupMemberRecord>('group_members', { where: eq('group_id', group.id) });
  for (const member of items) await store.increment('users', member.user_id, 'groups_total', -1);
  await store.deleteWhere('group_members', eq('group_id', group.id));
  await store.deleteWhere('group_videos', eq('group_id', group.id));
  await store.delete('groups', group.id);
}
