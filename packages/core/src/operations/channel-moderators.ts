import { object } from 'superstruct';
import { forbidden, notFound } from '../engine/errors';
import { listParams, type ListParams } from '../engine/list';
import { noContent, ok, operation, type Context } from '../engine/operation';
import type { ChannelRecord, ChannelUserRecord } from '../records/channel';
import { addMember, isMember, removeMember } from '../domain/channel-members';
import { listChannelUsers } from './user-lists';
import { assertChannelOwner, loadChannel } from '../domain/channels';
import { memberSorts, type MemberSort } from '../domain/memberships';
import { readUriList } from '../domain/uri-list';
import { findUser, targetUser } from '../domain/users';
import { representOneUser, representUsers } from './represent-users';
import { userIdOf } from '../domain/video-access';
import type { UserRecord } from '../records';
import { where } from '../store/filters';

/** SPEC.md, Limits: at most 100 users in a moderator list (400/2908). */
const maxModeratorList = 100;
const moderatorListCode = 2908;

/** The channel of a moderator write: one the caller may see (404) and owns (403). */
async function ownedChannel(ctx: Context<unknown>): Promise<ChannelRecord> {
  const channel = await loadChannel(ctx);
  assertChannelOwner(ctx, channel, 'change its moderators');
  return channel;
}

/** The users a `user_uri` body names, each once; 404 for one that does not exist. */
async function namedUsers(ctx: Context<unknown>): Promise<UserRecord[]> {
  const users = new Map<string, UserRecord>();
  for (const uri of readUriList(ctx, 'user_uri', maxModeratorList, moderatorListCode)) {
    const id = userIdOf(uri);
    const user = id === null ? null : await findUser(ctx.store, id);
    if (!user) throw notFound('user');
    users.set(user.id, user);
  }
  return [...users.values()];
}

/** 403 unless the caller (the owner) follows `user`: only people they follow can become moderators. */
async function assertFollowed(ctx: Context<unknown>, user: UserRecord): Promise<void> {
  if (!(await ctx.store.findOne('follows', where({ user_id: ctx.principal.user!.id, target_id: user.id })))) {
    throw forbidden(`The channel's owner must follow ${user.name} (user ${user.id}) to make them a moderator.`);
  }
}

/** Makes `user` a moderator: 403 when they already are one or the caller does not follow them. */
async function appoint(ctx: Context<unknown>, channel: ChannelRecord, user: UserRecord): Promise<void> {
  if (await isMember(ctx.store, 'channel_moderators', channel, user.id)) throw forbidden(`User ${user.id} already moderates the channel.`);
  await assertFollowed(ctx, user);
  await addMember(ctx.store, 'channel_moderators', channel, user, ctx.now());
}

/** Takes `user` off the moderators: 403 for the owner and for a user who is not a moderator. */
async function dismiss(ctx: Context<unknown>, channel: ChannelRecord, user: UserRecord): Promise<void> {
  if (user.id === channel.user_id) throw forbidden("The channel's owner always moderates it.");
  if (!(await removeMember(ctx.store, 'channel_moderators', channel, user.id))) throw forbidden(`User ${user.id} does not moderate the channel.`);
}

export const listModerators = operation({
  id: 'channels.moderators.list',
  summary: "List a channel's moderators (its owner among them)",
  method: 'GET',
  paths: ['/channels/{channel_id}/moderators'],
  params: object(listParams({ sort: Object.keys(memberSorts) as MemberSort[], query: true })),
  async handle(ctx) {
    return listChannelUsers(ctx, await loadChannel(ctx), 'channel_moderators', ctx.params as ListParams<MemberSort>);
  },
});

export const addModerators = operation({
  id: 'channels.moderators.add',
  summary: 'Add moderators to a channel (user_uri: one URI, or a JSON list of {"user_uri": …}); answers the Users added',
  method: 'PUT',
  paths: ['/channels/{channel_id}/moderators'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await ownedChannel(ctx);
    const users = await namedUsers(ctx);
    for (const user of users) await appoint(ctx, channel, user);
    return ok(await representUsers(ctx, users), 'user');
  },
});

export const replaceModerators = operation({
  id: 'channels.moderators.replace',
  summary: "Replace a channel's moderators with the users listed (the owner always stays one); answers the moderators",
  method: 'PATCH',
  paths: ['/channels/{channel_id}/moderators'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await ownedChannel(ctx);
    const listed = (await namedUsers(ctx)).filter((u) => u.id !== channel.user_id);
    const keep = new Set(listed.map((u) => u.id));
    const { items: current } = await ctx.store.find<ChannelUserRecord>('channel_moderators', { where: where({ channel_id: channel.id }) });
    for (const row of current) {
      if (row.user_id !== channel.user_id && !keep.has(row.user_id)) await removeMember(ctx.store, 'channel_moderators', channel, row.user_id);
    }
    const already = new Set(current.map((row) => row.user_id));
    for (const user of listed) if (!already.has(user.id)) await appoint(ctx, channel, user);
    const owner = (await findUser(ctx.store, channel.user_id))!;
    return ok(await representUsers(ctx, [owner, ...listed]), 'user');
  },
});

export const removeModerators = operation({
  id: 'channels.moderators.remove',
  summary: 'Remove moderators from a channel (user_uri: one URI, or a JSON list of {"user_uri": …})',
  method: 'DELETE',
  paths: ['/channels/{channel_id}/moderators'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await ownedChannel(ctx);
    for (const user of await namedUsers(ctx)) await dismiss(ctx, channel, user);
    return noContent();
  },
});

export const getModerator = operation({
  id: 'channels.moderators.get',
  summary: 'Get a moderator of a channel (404 when the user does not moderate it)',
  method: 'GET',
  paths: ['/channels/{channel_id}/moderators/{user_id}'],
  async handle(ctx) {
    const channel = await loadChannel(ctx);
    const user = await targetUser(ctx);
    if (!(await isMember(ctx.store, 'channel_moderators', channel, user.id))) throw notFound('moderator');
    return ok(await representOneUser(ctx, user), 'user');
  },
});

export const addModerator = operation({
  id: 'channels.moderators.put',
  summary: 'Make a user a moderator of a channel',
  method: 'PUT',
  paths: ['/channels/{channel_id}/moderators/{user_id}'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await ownedChannel(ctx);
    await appoint(ctx, channel, await targetUser(ctx));
    return noContent();
  },
});

export const removeModerator = operation({
  id: 'channels.moderators.delete',
  summary: 'Take a user off the moderators of a channel',
  method: 'DELETE',
  paths: ['/channels/{channel_id}/moderators/{user_id}'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await ownedChannel(ctx);
    await dismiss(ctx, channel, await targetUser(ctx));
    return noContent();
  },
});

export const channelModeratorOperations = [
  listModerators,
  addModerators,
  replaceModerators,
  removeModerators,
  getModerator,
  addModerator,
  removeModerator,
];
