import type { Filter, OrderBy } from '../store/store';
import { and } from '../store/filters';
import { matching } from '../store/search';
import { by, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import type { Context, Reply } from '../engine/operation';
import type { ChannelRecord } from '../records/channel';
import { representChannels, type AddToChannels } from './channels';
import { visibleChannels } from './channel-visibility';

/** How lists of channels sort by the channels' own fields. */
export const channelSorts = {
  alphabetical: by('name', 'asc'),
  date: by('created_time', 'desc'),
  followers: by('followers_total', 'desc'),
  videos: by('videos_total', 'desc'),
};
export type ChannelSort = keyof typeof channelSorts;

/** The channels a list shows the caller: the channel visibility rule and `query` (name or description). */
export function channelListFilter(ctx: Context<unknown>, params: ListParams): Filter {
  const query = params.query?.trim();
  return and(visibleChannels(ctx.principal.user), matching(query));
}

export interface ChannelListOptions {
  /** Which channels belong to the list (a category's, the featured ones…); visibility is added here. */
  where?: Filter;
  sorts: Record<string, OrderBy[]>;
  defaultSort: string;
  /** The video the channels are listed for adding to (each channel's `add_to` interaction). */
  addTo?: AddToChannels;
}

/** A page of the channels in a list that the caller may see, filtered, sorted and paged in the store. */
export async function listVisibleChannels(ctx: Context<unknown>, params: ListParams, options: ChannelListOptions): Promise<Reply> {
  const page = pageOf(params);
  const result = await ctx.store.find<ChannelRecord>('channels', {
    where: and(options.where, channelListFilter(ctx, params)),
    orderBy: orderOf(options.sorts, params.sort ?? options.defaultSort, params.direction),
    offset: page.offset,
    limit: page.limit,
  });
  return listReply(ctx, page, result.total, await representChannels(ctx, result.items, options.addTo), 'channel');
}
