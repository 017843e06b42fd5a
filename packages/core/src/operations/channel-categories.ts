import { array, object, optional, size, string } from 'superstruct';
import { ApiError, codes } from '../engine/errors';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { noContent, operation, type Context } from '../engine/operation';
import { loadCategory } from '../domain/categories';
import { channelsInCategory, setChannelCategories } from '../domain/channel-categories';
import { categoriesOfChannel } from '../catalog/categories';
import { channelSorts, type ChannelSort } from '../domain/channel-lists';
import { listVisibleChannels } from './represent-channels';
import type { ChannelRecord } from '../records/channel';
import { assertModerator, loadChannel } from '../domain/channels';
import { representCategories } from './categories';

/** The channel of a category write: one the caller may see (404) and moderates (403/3200). */
async function moderatedChannel(ctx: Context<unknown>): Promise<ChannelRecord> {
  const channel = await loadChannel(ctx);
  await assertModerator(ctx, channel, 'change its categories');
  return channel;
}

/** A category by URI (`/categories/{slug}`), slug or name; 404 when there is none. */
const categoryOf = (entry: string) => loadCategory(entry.trim().replace(/^\/categories\//, ''));

export const listChannelCategories = operation({
  id: 'channels.categories.list',
  summary: 'List the categories of a channel',
  method: 'GET',
  paths: ['/channels/{channel_id}/categories'],
  async handle(ctx) {
    const channel = await loadChannel(ctx);
    const data = await representCategories(ctx, categoriesOfChannel(channel));
    // At most two categories, kept on the channel itself: always one page.
    return listReply(ctx, pageOf({}), data.length, data, 'category');
  },
});

export const setChannelCategoryList = operation({
  id: 'channels.categories.set',
  summary: "Replace a channel's categories with those listed in `channels` (category URIs)",
  method: 'PUT',
  paths: ['/channels/{channel_id}/categories'],
  // SPEC.md names no scope, but an authenticated caller (401/8003 otherwise).
  auth: 'user',
  params: object({ channels: optional(size(array(size(string(), 1, 256)), 0, 100)) }),
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    if (ctx.params.channels === undefined) {
      throw new ApiError(400, codes.badBody, 'The request body could not be read.', 'The body must carry `channels`, a list of category URIs.');
    }
    await setChannelCategories(ctx.store, channel, ctx.params.channels.map(categoryOf), ctx.now(), 'channels');
    return noContent();
  },
});

export const addChannelCategory = operation({
  id: 'channels.categories.put',
  summary: 'Put a channel in a category (nothing changes when it is there already)',
  method: 'PUT',
  paths: ['/channels/{channel_id}/categories/{category}'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    const category = loadCategory(ctx.path.category);
    await setChannelCategories(ctx.store, channel, [...categoriesOfChannel(channel), category], ctx.now(), 'category');
    return noContent();
  },
});

export const removeChannelCategory = operation({
  id: 'channels.categories.delete',
  summary: 'Take a channel out of a category (nothing changes when it is not in it)',
  method: 'DELETE',
  paths: ['/channels/{channel_id}/categories/{category}'],
  scope: 'edit',
  async handle(ctx) {
    const channel = await moderatedChannel(ctx);
    const category = loadCategory(ctx.path.category);
    const kept = categoriesOfChannel(channel).filter((c) => c.slug !== category.slug);
    await setChannelCategories(ctx.store, channel, kept, ctx.now(), 'category');
    return noContent();
  },
});

export const listCategoryChannels = operation({
  id: 'categories.channels.list',
  summary: 'List the channels in a category or its subcategories that the caller may see',
  method: 'GET',
  paths: ['/categories/{category}/channels'],
  params: object(listParams({ sort: Object.keys(channelSorts) as ChannelSort[], query: true })),
  async handle(ctx) {
    const category = loadCategory(ctx.path.category);
    return listVisibleChannels(ctx, ctx.params as ListParams<ChannelSort>, { where: channelsInCategory(category), sorts: channelSorts, defaultSort: 'date' });
  },
});

export const channelCategoryOperations = [listChannelCategories, setChannelCategoryList, addChannelCategory, removeChannelCategory, listCategoryChannels];
