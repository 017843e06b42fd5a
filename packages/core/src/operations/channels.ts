import { enums, literal, object, optional, size, string, union } from 'superstruct';
import { forbidden, invalidField } from '../engine/errors';
import { by, listParams, type ListParams } from '../engine/list';
import { created, noContent, ok, operation, updated } from '../engine/operation';
import { since } from '../engine/versions';
import type { ChannelRecord } from '../records/channel';
import { channelSorts } from '../domain/channel-lists';
import { listVisibleChannels } from './represent-channels';
import { addMember } from '../domain/channel-members';
import { assertChannelOwner, deleteChannelRecords, loadChannel, newChannel } from '../domain/channels';
import { representOneChannel } from './represent-channels';
import { stripUndefined } from '../domain/patch';
import type { UserRecord } from '../records';
import { isoTime } from '../support/time';
import { eq } from '../store/filters';
import { RELEVANCE } from '../store/search';
import { StoreConflictError, type OrderBy } from '../store/store';
import { channelCategoryOperations } from './channel-categories';
import { channelModeratorOperations } from './channel-moderators';
import { channelPrivacyOperations } from './channel-privacy';
import { channelSubscriptionOperations } from './channel-subscriptions';
import { channelTagOperations } from './channel-tags';
import { channelVideoOperations } from './channel-videos';
import { slug } from './users';
import { videoRecommendationOperations } from './video-recommendations';

const name = size(string(), 1, 128);
const description = size(string(), 0, 5000);
/** A custom alias in place of the id; an empty string removes it. */
const link = union([literal(''), slug]);

/** Writes a channel, answering 400 naming `link` when another channel has that alias. */
async function withUniqueLink<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof StoreConflictError) throw invalidField('link', 'is already the alias of another channel');
    throw e;
  }
}

const listSorts = {
  ...channelSorts,
  // How well `query` matches (name before description), then the most followed first.
  relevant: [{ field: RELEVANCE, direction: 'desc' }, ...by('followers_total', 'desc')] as OrderBy[],
};
type ListSort = keyof typeof listSorts;

export const listChannels = operation({
  id: 'channels.list',
  summary: 'List the channels the caller may see',
  method: 'GET',
  paths: ['/channels'],
  params: object(listParams({ sort: Object.keys(listSorts) as ListSort[], filter: ['featured'] as const, query: true })),
  async handle(ctx) {
    const p = ctx.params as ListParams<ListSort, 'featured'>;
    const query = p.query?.trim();
    if (p.sort === 'relevant' && !query) throw invalidField('query', 'is required when sort is relevant');
    const where = p.filter === 'featured' ? eq('featured', true) : undefined;
    return listVisibleChannels(ctx, p, { where, sorts: listSorts, defaultSort: query ? 'relevant' : 'date' });
  },
});

export const createChannel = operation({
  id: 'channels.create',
  summary: 'Create a channel; its creator owns, moderates and follows it',
  method: 'POST',
  paths: ['/channels'],
  scope: 'create',
  params: object({ name, privacy: enums(['anybody', 'moderators', 'user']), description: optional(description), link: optional(link) }),
  async handle(ctx) {
    const user = ctx.principal.user as UserRecord;
    if (user.verified === false) throw forbidden('Only users with a verified email address may create channels.');
    const now = ctx.now();
    const time = isoTime(now);
    const p = ctx.params;
    // Creation spells it `user`, editing `users` (SPEC.md, Channel); it is stored one way.
    const privacy_view = p.privacy === 'user' ? 'users' : p.privacy;
    const channel = await withUniqueLink(() =>
      ctx.store.insert<ChannelRecord>('channels', newChannel(user.id, { name: p.name, description: p.description ?? '', link: p.link || null, privacy_view }, time)),
    );
    await addMember(ctx.store, 'channel_moderators', channel, user, now);
    await addMember(ctx.store, 'channel_followers', channel, user, now);
    const body = await representOneChannel(ctx, (await ctx.store.get<ChannelRecord>('channels', channel.id))!);
    // 200 from 3.2 (SPEC.md, Versioning 3.2), 201 before.
    return since(ctx.version, 'patchReturnsResource') ? ok(body, 'channel') : created(body, 'channel');
  },
});

export const getChannel = operation({
  id: 'channels.get',
  summary: 'Get a channel (by id or alias)',
  method: 'GET',
  paths: ['/channels/{channel_id}'],
  async handle(ctx) {
    return ok(await representOneChannel(ctx, await loadChannel(ctx)), 'channel');
  },
});

export const updateChannel = operation({
  id: 'channels.update',
  summary: 'Edit a channel (its owner only)',
  method: 'PATCH',
  paths: ['/channels/{channel_id}'],
  scope: 'edit',
  params: object({
    name: optional(name),
    description: optional(description),
    link: optional(link),
    privacy: optional(enums(['anybody', 'moderators', 'users'])),
  }),
  async handle(ctx) {
    const channel = await loadChannel(ctx);
    assertChannelOwner(ctx, channel, 'edit it');
    const p = ctx.params;
    const patch = stripUndefined<Partial<ChannelRecord>>({
      name: p.name,
      description: p.description,
      privacy_view: p.privacy,
      modified_time: isoTime(ctx.now()),
    });
    if (p.link !== undefined) patch.link = p.link || null;
    const saved = await withUniqueLink(() => ctx.store.update<ChannelRecord>('channels', channel.id, patch));
    return updated(ctx, await representOneChannel(ctx, saved!), 'channel');
  },
});

export const deleteChannel = operation({
  id: 'channels.delete',
  summary: 'Delete a channel (its owner only); its videos stay, only their place in it goes',
  method: 'DELETE',
  paths: ['/channels/{channel_id}'],
  scope: 'delete',
  async handle(ctx) {
    const channel = await loadChannel(ctx);
    assertChannelOwner(ctx, channel, 'delete it');
    await deleteChannelRecords(ctx.store, channel);
    return noContent();
  },
});

export const channelOperations = [
  listChannels,
  createChannel,
  getChannel,
  updateChannel,
  deleteChannel,
  ...channelSubscriptionOperations,
  ...channelModeratorOperations,
  ...channelVideoOperations,
  ...channelCategoryOperations,
  ...channelTagOperations,
  ...channelPrivacyOperations,
  ...videoRecommendationOperations,
];
