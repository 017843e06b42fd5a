import { object } from 'superstruct';
import { forbidden, invalidField, notFound } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { noContent, operation } from '../engine/operation';
import type { ChannelRecord, ChannelUserRecord } from '../records/channel';
import { channelListFilter, channelSorts, type ChannelSort } from '../domain/channel-lists';
import { addMember, isMember, removeMember } from '../domain/channel-members';
import { listChannelUsers } from './user-lists';
import { findChannel, loadChannel } from '../domain/channels';
import { representChannels } from './represent-channels';
import { canViewChannel } from '../domain/channel-visibility';
import { memberPage, memberSorts, type MemberSort } from '../domain/memberships';
import { actingUser, targetUser } from '../domain/users';
import { eq } from '../store/filters';

/** In a user's channel list, `date` is when they subscribed (or became a moderator). */
const joinedSorts = { date: by('created_time', 'desc') };

export const listUserChannels = operation({
  id: 'users.channels.list',
  summary: 'List the channels a user follows, or with filter=moderated the channels they moderate (owned ones included)',
  method: 'GET',
  paths: ['/me/channels', '/users/{user_id}/channels'],
  params: object(listParams({ sort: Object.keys(channelSorts) as ChannelSort[], filter: ['moderated'] as const, query: true })),
  async handle(ctx) {
    const user = await targetUser(ctx);
    const p = ctx.params as ListParams<ChannelSort, 'moderated'>;
    const page = pageOf(p);
    const sort = p.sort ?? 'date';
    const rows = { collection: p.filter === 'moderated' ? 'channel_moderators' : 'channel_followers', where: eq('user_id', user.id), memberField: 'channel_id' };
    const result = await memberPage<ChannelRecord>(ctx.store, {
      rows,
      members: { collection: 'channels', where: channelListFilter(ctx, p) },
      orderBy: orderOf(sort === 'date' ? joinedSorts : channelSorts, sort, p.direction),
      byRow: sort === 'date',
      page,
    });
    // SPEC.md: 304 when nothing was added since If-Modified-Since.
    const latest = await ctx.store.findOne<ChannelUserRecord>(rows.collection, rows.where, by('created_time', 'desc'));
    return listReply(ctx, page, result.total, await representChannels(ctx, result.items), 'channel', latest?.created_time ?? null);
  },
});

export const checkSubscription = operation({
  id: 'users.channels.check',
  summary: 'Check that a user follows a channel (204), 404 when they do not',
  method: 'GET',
  paths: ['/me/channels/{channel_id}', '/users/{user_id}/channels/{channel_id}'],
  async handle(ctx) {
    const user = await targetUser(ctx);
    const channel = await loadChannel(ctx);
    if (!(await isMember(ctx.store, 'channel_followers', channel, user.id))) throw notFound('subscription');
    return noContent();
  },
});

export const subscribe = operation({
  id: 'users.channels.subscribe',
  summary: 'Follow a channel (nothing changes when the user already does)',
  method: 'PUT',
  paths: ['/me/channels/{channel_id}', '/users/{user_id}/channels/{channel_id}'],
  scope: 'interact',
  async handle(ctx) {
    const user = await actingUser(ctx, 'subscribe to channels');
    await addMember(ctx.store, 'channel_followers', await loadChannel(ctx), user, ctx.now());
    return noContent();
  },
});

export const unsubscribe = operation({
  id: 'users.channels.unsubscribe',
  summary: 'Stop following a channel (nothing changes when the user does not follow it)',
  method: 'DELETE',
  paths: ['/me/channels/{channel_id}', '/users/{user_id}/channels/{channel_id}'],
  scope: 'interact',
  async handle(ctx) {
    const user = await actingUser(ctx, 'unsubscribe from channels');
    const channel = await findChannel(ctx.store, ctx.path.channel_id);
    // A follower may leave a channel that has since become hidden from them.
    const removed = channel !== null && (await removeMember(ctx.store, 'channel_followers', channel, user.id));
    // SPEC.md answers 403, not 404, to a channel that cannot be found here.
    if (!removed && !(channel && (await canViewChannel(ctx.store, channel, ctx.principal.user)))) {
      throw forbidden('The channel does not exist or is not visible to you.');
    }
    return noContent();
  },
});

export const listChannelFollowers = operation({
  id: 'channels.users.list',
  summary: "List a channel's followers, or with filter=moderators its moderators",
  method: 'GET',
  paths: ['/channels/{channel_id}/users'],
  params: object(listParams({ sort: Object.keys(memberSorts) as MemberSort[], filter: ['moderators'] as const, query: true })),
  async handle(ctx) {
    const p = ctx.params as ListParams<MemberSort, 'moderators'>;
    if (p.query !== undefined && p.filter !== 'moderators') throw invalidField('query', 'is only taken with filter=moderators');
    const channel = await loadChannel(ctx);
    return listChannelUsers(ctx, channel, p.filter === 'moderators' ? 'channel_moderators' : 'channel_followers', p);
  },
});

export const channelSubscriptionOperations = [listUserChannels, checkSubscription, subscribe, unsubscribe, listChannelFollowers];
