import { array, object, optional, size, string } from 'superstruct';
import { ApiError, codes } from '../engine/errors';
import { listParams, type ListParams } from '../engine/list';
import { ok, operation, type Context } from '../engine/operation';
import { addMember } from '../domain/channel-members';
import { listChannelUsers } from './user-lists';
import type { ChannelRecord } from '../records/channel';
import { assertChannelOwner, loadChannel } from '../domain/channels';
import { targetUser } from '../domain/users';
import { representOneUser, representUsers } from './represent-users';
import { resolveUsers } from '../domain/video-access';

/**
 * The channel of a view-list operation: one the caller may see (404) and owns (403/3200), whose
 * privacy is `users` (SPEC.md: 404/2204, "the user cannot be added to a channel of this type").
 */
async function userListChannel(ctx: Context<unknown>): Promise<ChannelRecord> {
  const channel = await loadChannel(ctx);
  assertChannelOwner(ctx, channel, 'manage who may view it');
  if (channel.privacy_view !== 'users') {
    throw new ApiError(404, codes.invalidInput, "Users can't be added to a channel of this type.", 'Only a channel with privacy users has a list of users who may view it.');
  }
  return channel;
}

export const listChannelViewers = operation({
  id: 'channels.privacy.users.list',
  summary: 'List the users who may view a users-privacy channel (owner only), the latest added first',
  method: 'GET',
  paths: ['/channels/{channel_id}/privacy/users'],
  auth: 'user',
  params: object(listParams({})),
  async handle(ctx) {
    const channel = await userListChannel(ctx);
    return listChannelUsers(ctx, channel, 'channel_access', ctx.params as ListParams<'date'>);
  },
});

export const addChannelViewers = operation({
  id: 'channels.privacy.users.add',
  summary: 'Let a list of users (URIs or ids) view a users-privacy channel; answers those Users',
  method: 'PUT',
  paths: ['/channels/{channel_id}/privacy/users'],
  scope: 'edit',
  params: object({ users: optional(size(array(size(string(), 1, 256)), 0, 100)) }),
  async handle(ctx) {
    const channel = await userListChannel(ctx);
    if (ctx.params.users === undefined) {
      throw new ApiError(400, codes.badBody, 'The request body could not be read.', 'The body must carry `users`, a list of user URIs or ids.');
    }
    const users = await resolveUsers(ctx.store, ctx.params.users);
    for (const user of users) await addMember(ctx.store, 'channel_access', channel, user, ctx.now());
    return ok(await representUsers(ctx, users), 'user');
  },
});

export const addChannelViewer = operation({
  id: 'channels.privacy.users.put',
  summary: 'Let one user view a users-privacy channel; answers the User',
  method: 'PUT',
  paths: ['/channels/{channel_id}/privacy/users/{user_id}'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await userListChannel(ctx);
    const user = await targetUser(ctx);
    await addMember(ctx.store, 'channel_access', channel, user, ctx.now());
    return ok(await representOneUser(ctx, user), 'user');
  },
});

export const channelPrivacyOperations = [listChannelViewers, addChannelViewers, addChannelViewer];
