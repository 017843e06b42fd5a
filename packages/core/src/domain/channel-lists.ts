import type { Filter } from '../store/store';
import { and } from '../store/filters';
import { matching } from '../store/search';
import { by, type ListParams } from '../engine/list';
import type { Context } from '../engine/operation';
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
