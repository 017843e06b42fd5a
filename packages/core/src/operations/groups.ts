import { enums, object, optional, refine, size, string } from 'superstruct';
import { invalidField } from '../engine/errors';
import { listParams, type ListParams } from '../engine/list';
import { noContent, ok, operation, updated, type Context } from '../engine/operation';
import { since } from '../engine/versions';
import { groupPrivacyValues, type GroupMemberRecord, type GroupRecord } from '../records/group';
import { groupSorts } from '../domain/group-lists';
import { listGroups, representGroups } from './represent-groups';
import { addMember, assertGroupOwner, assertMayUseGroups, deleteGroupRecords, loadGroup, membershipOf } from '../domain/groups';
import { stripUndefined } from '../domain/patch';
import { userIdOf } from '../domain/video-access';
import { findUser } from '../domain/users';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { eq, where } from '../store/filters';
import { RELEVANCE } from '../store/search';
import type { OrderBy } from '../store/store';
import { categoryGroupOperations } from './category-groups';
import { groupMemberOperations } from './group-members';
import { groupVideoOperations } from './group-videos';

const name = refine(size(string(), 1, 128), 'name', (v) => v.trim() !== '' || 'must not be blank');
const description = size(string(), 0, 5000);

/** A group's followers are its members; `relevant` ranks by how well the query matches, then by members. */
const groupListSorts = {
  alphabetical: groupSorts.alphabetical,
  date: groupSorts.date,
  followers: groupSorts.members,
  relevant: [{ field: RELEVANCE, direction: 'desc' }, ...groupSorts.members] as OrderBy[],
  videos: groupSorts.videos,
};
type GroupListSort = keyof typeof groupListSorts;

export const listAllGroups = operation({
  id: 'groups.list',
  summary: 'List the groups the caller finds listed (public ones and their own). filter=featured keeps those an administrator featured; followers sorts by members; sort=relevant needs a query and ranks name matches before description matches, then by members',
  method: 'GET',
  paths: ['/groups'],
  params: object(
    listParams<GroupListSort, 'featured'>({ sort: Object.keys(groupListSorts) as GroupListSort[], filter: ['featured'], query: true }),
  ),
  async handle(ctx) {
    const p = ctx.params as ListParams<GroupListSort, 'featured'>;
    if (p.sort === 'relevant' && !p.query?.trim()) throw invalidField('query', 'is required when sort is relevant');
    return listGroups(ctx, p, { where: p.filter === 'featured' ? eq('featured', true) : undefined, sorts: groupListSorts, defaultSort: 'date' });
  },
});

/** The Group representation of one group, for the caller. */
const representOneGroup = async (ctx: Context<unknown>, group: GroupRecord) => (await representGroups(ctx, [group]))[0];

export const createGroup = operation({
  id: 'groups.create',
  summary: 'Create a group owned by the caller, who becomes its first member. name is required, description optional (the contract form where it is optional); 403/3411 for an unverified user',
  method: 'POST',
  paths: ['/groups'],
  scope: 'create',
  params: object({ name, description: optional(description) }),
  async handle(ctx) {
    const caller = ctx.principal.user as UserRecord;
    assertMayUseGroups(caller, 'create');
    const time = isoTime(ctx.now());
    const group = await ctx.store.insert<GroupRecord>('groups', {
      user_id: caller.id,
      name: ctx.params.name.trim(),
      description: ctx.params.description ?? '',
      privacy_view: 'anybody',
      privacy: { join: 'anybody', videos: 'members', comment: 'all', invite: 'all', forums: 'all' },
      featured: false,
      members_total: 0,
      videos_total: 0,
      videos_modified_time: time,
      created_time: time,
      modified_time: time,
    });
    await addMember(ctx.store, group.id, caller.id, 'owner', ctx.now());
    return ok(await representOneGroup(ctx, (await ctx.store.get<GroupRecord>('groups', group.id))!), 'group');
  },
});

export const getGroup = operation({
  id: 'groups.get',
  summary: 'Get a group (anyone may read a group; a members-only group keeps its videos and members to its members)',
  method: 'GET',
  paths: ['/groups/{group_id}'],
  async handle(ctx) {
    return ok(await representOneGroup(ctx, await loadGroup(ctx.store, ctx.path.group_id)), 'group');
  },
});

const option = <K extends keyof typeof groupPrivacyValues>(key: K) => optional(enums([...groupPrivacyValues[key]]));

export const updateGroup = operation({
  id: 'groups.update',
  summary:
    "Edit a group (owner only): name, description, privacy (view anybody|members, join anybody|members, videos all|members|moderators — moderators holds other members' videos pending for the owner's approval —, comment, invite; forums before 3.4), and `owner` (a member's user URI) to hand the group over; the former owner stays on as a moderator",
  method: 'PATCH',
  paths: ['/groups/{group_id}'],
  scope: 'edit',
  params: object({
    name: optional(name),
    description: optional(description),
    privacy: optional(
      object({ view: option('view'), join: option('join'), videos: option('videos'), comment: option('comment'), invite: option('invite'), forums: option('forums') }),
    ),
    owner: optional(size(string(), 1, 256)),
  }),
  async handle(ctx) {
    const group = await loadGroup(ctx.store, ctx.path.group_id);
    assertGroupOwner(group, ctx.principal.user, 'edit');
    const { view, forums, ...privacy } = ctx.params.privacy ?? {};
    const owner = ctx.params.owner === undefined ? undefined : await transferTo(ctx, group, ctx.params.owner);
    const saved = await ctx.store.update<GroupRecord>(
      'groups',
      group.id,
      stripUndefined<Partial<GroupRecord>>({
        name: ctx.params.name?.trim(),
        description: ctx.params.description,
        privacy_view: view,
        // privacy.forums no longer exists from 3.4 (SPEC.md, Versioning): a value sent there is checked but not kept.
        privacy: { ...group.privacy, ...stripUndefined(privacy), ...(forums && !since(ctx.version, 'noGroupForums') ? { forums } : {}) },
        user_id: owner,
        modified_time: isoTime(ctx.now()),
      }),
    );
    return updated(ctx, await representOneGroup(ctx, saved!), 'group');
  },
});

/** Hands the group to the member `ref` names (400 naming `owner` otherwise); answers the new owner's id. */
async function transferTo(ctx: Context<unknown>, group: GroupRecord, ref: string): Promise<string> {
  const id = userIdOf(ref);
  const user = id ? await findUser(ctx.store, id) : null;
  if (!user) throw invalidField('owner', `"${ref}" is not the URI (/users/{id}) of an existing user`);
  if (user.id === group.user_id) return user.id;
  const member = await membershipOf(ctx.store, group.id, user);
  if (!member) throw invalidField('owner', 'must be a member of the group');
  await ctx.store.update<GroupMemberRecord>('group_members', member.id, { role: 'owner' });
  const former = await ctx.store.findOne<GroupMemberRecord>('group_members', where({ group_id: group.id, user_id: group.user_id }));
  await ctx.store.update<GroupMemberRecord>('group_members', former!.id, { role: 'moderator' });
  return user.id;
}

export const deleteGroup = operation({
  id: 'groups.delete',
  summary: 'Delete a group with its memberships and video list (owner only)',
  method: 'DELETE',
  paths: ['/groups/{group_id}'],
  scope: 'delete',
  async handle(ctx) {
    const group = await loadGroup(ctx.store, ctx.path.group_id);
    assertGroupOwner(group, ctx.principal.user, 'delete');
    await deleteGroupRecords(ctx.store, group);
    return noContent();
  },
});

export const groupOperations = [
  listAllGroups,
  createGroup,
  getGroup,
  updateGroup,
  deleteGroup,
  ...groupMemberOperations,
  ...groupVideoOperations,
  ...categoryGroupOperations,
];
