import { object } from 'superstruct';
import { forbidden, notFound } from '../engine/errors';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { noContent, operation } from '../engine/operation';
import { moderatorRoles } from '../records/group';
import { groupSorts } from '../domain/group-lists';
import { listGroups } from './represent-groups';
import { addMember, assertCanSeeContents, assertMayUseGroups, loadGroup, membershipOf, removeMember } from '../domain/groups';
import { memberUsers, memberSorts, type MemberSort } from '../domain/memberships';
import { actingUser, targetUser } from '../domain/users';
import { representUsers } from './represent-users';
import { and, eq, inSelect, isIn } from '../store/filters';

export const listGroupMembers = operation({
  id: 'groups.users.list',
  summary: "List a group's members; filter=moderators keeps its owner and moderators",
  method: 'GET',
  paths: ['/groups/{group_id}/users'],
  params: object(listParams<MemberSort, 'moderators'>({ sort: Object.keys(memberSorts) as MemberSort[], filter: ['moderators'], query: true })),
  async handle(ctx) {
    const group = await loadGroup(ctx.store, ctx.path.group_id);
    assertCanSeeContents(group, await membershipOf(ctx.store, group.id, ctx.principal.user));
    const p = ctx.params as ListParams<MemberSort, 'moderators'>;
    const page = pageOf(p);
    const rows = and(eq('group_id', group.id), p.filter === 'moderators' ? isIn('role', moderatorRoles) : undefined);
    const result = await memberUsers(ctx.store, 'group_members', rows, 'user_id', { sort: p.sort ?? 'date', direction: p.direction, query: p.query?.trim(), page });
    return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
  },
});

type UserGroupSort = keyof typeof groupSorts;

export const listUserGroups = operation({
  id: 'users.groups.list',
  summary: "List the groups a user belongs to (members-only ones only to their members); filter=moderated keeps those they own or moderate",
  method: 'GET',
  paths: ['/me/groups', '/users/{user_id}/groups'],
  params: object(listParams<UserGroupSort, 'moderated'>({ sort: Object.keys(groupSorts) as UserGroupSort[], filter: ['moderated'], query: true })),
  async handle(ctx) {
    const user = await targetUser(ctx);
    const p = ctx.params as ListParams<UserGroupSort, 'moderated'>;
    const rows = and(eq('user_id', user.id), p.filter === 'moderated' ? isIn('role', moderatorRoles) : undefined);
    return listGroups(ctx, p, { where: inSelect('id', 'group_members', 'group_id', rows), sorts: groupSorts, defaultSort: 'date' });
  },
});

export const checkUserGroup = operation({
  id: 'users.groups.check',
  summary: 'Check that a user belongs to a group (204); 404 when the group is missing or they do not',
  method: 'GET',
  paths: ['/me/groups/{group_id}', '/users/{user_id}/groups/{group_id}'],
  async handle(ctx) {
    const user = await targetUser(ctx);
    const group = await loadGroup(ctx.store, ctx.path.group_id);
    // Who belongs to a members-only group is for its members to know.
    if (group.privacy_view === 'members' && user.id !== ctx.principal.user?.id && !(await membershipOf(ctx.store, group.id, ctx.principal.user))) {
      throw notFound('group membership');
    }
    if (!(await membershipOf(ctx.store, group.id, user))) throw notFound('group membership');
    return noContent();
  },
});

export const joinGroup = operation({
  id: 'users.groups.join',
  summary: 'Join a group (nothing changes for a member); 403/3411 for an unverified user; 403 when the group is not public (privacy.view members) or its privacy.join is members',
  method: 'PUT',
  paths: ['/me/groups/{group_id}', '/users/{user_id}/groups/{group_id}'],
  scope: 'interact',
  async handle(ctx) {
    const user = await actingUser(ctx, 'join groups');
    const group = await loadGroup(ctx.store, ctx.path.group_id);
    if (await membershipOf(ctx.store, group.id, user)) return noContent();
    assertMayUseGroups(user, 'join');
    if (group.privacy_view !== 'anybody') throw forbidden('The group is not public: only its members can bring others in.');
    if (group.privacy.join !== 'anybody') throw forbidden("The group's privacy is members: new members join by invitation only.");
    await addMember(ctx.store, group.id, user.id, 'member', ctx.now());
    return noContent();
  },
});

export const leaveGroup = operation({
  id: 'users.groups.leave',
  summary: 'Leave a group; its owner must first hand it to another member (PATCH /groups/{group_id} with owner)',
  method: 'DELETE',
  paths: ['/me/groups/{group_id}', '/users/{user_id}/groups/{group_id}'],
  scope: 'interact',
  async handle(ctx) {
    const user = await actingUser(ctx, 'leave groups');
    const group = await loadGroup(ctx.store, ctx.path.group_id);
    const member = await membershipOf(ctx.store, group.id, user);
    if (!member) throw notFound('group membership');
    if (member.role === 'owner') throw forbidden('The owner cannot leave the group: hand it to another member first (PATCH /groups/{group_id} with owner).');
    await removeMember(ctx.store, member);
    return noContent();
  },
});

export const groupMemberOperations = [listGroupMembers, listUserGroups, checkUserGroup, joinGroup, leaveGroup];
