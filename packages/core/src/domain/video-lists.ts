import type { Filter, OrderBy } from '../store/store';
import { and, contains, eq, or } from '../store/filters';
import type { VideoRecord } from '../records';
import { by, embeddableFilter, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import type { Context, Reply } from '../engine/operation';
import { representVideos } from './videos';
import { visibleVideos } from './visibility';

/** The sorts SPEC.md gives most lists of videos (likes, watch later, appearances, categories…). */
export const clipSorts = {
  alphabetical: by('name', 'asc'),
  comments: by('comments_total', 'desc'),
  date: by('created_time', 'desc'),
  duration: by('duration', 'desc'),
  likes: by('likes_total', 'desc'),
  plays: by('plays', 'desc'),
};
export type ClipSort = keyof typeof clipSorts;

export interface VideoListOptions {
  /** Which videos belong to the list (a membership semi-join, say); visibility is added here. */
  where: Filter;
  sorts: Record<string, OrderBy[]>;
  defaultSort: string;
  /** For `Last-Modified` and the If-Modified-Since 304 (engine/list.ts listReply). */
  lastModified?: string | null;
}

/**
 * A page of the videos in a list that the caller may see, as Clips in the list envelope. The
 * visibility rule, `query` (name or description) and `filter=embeddable` all filter in the store,
 * so `total` and paging stay true.
 */
export async function listVisibleVideos(ctx: Context<unknown>, params: ListParams, options: VideoListOptions): Promise<Reply> {
  const page = pageOf(params);
  const result = await ctx.store.find<VideoRecord>('videos', {
    where: and(options.where, videoListFilter(ctx, params)),
    orderBy: orderOf(options.sorts, params.sort ?? options.defaultSort, params.direction),
    offset: page.offset,
    limit: page.limit,
  });
  return listReply(ctx, page, result.total, await representVideos(ctx, result.items), 'video', options.lastModified);
}

/** The videos a list shows the caller: the visibility rule, `filter=embeddable` and `query` (name or description). */
export function videoListFilter(ctx: Context<unknown>, params: ListParams): Filter {
  const embeddable = embeddableFilter(params);
  const query = params.query?.trim();
  return and(
    visibleVideos(ctx.principal.user),
    embeddable === undefined ? undefined : eq('embeddable', embeddable),
    query ? or(contains('name', query), contains('description', query)) : undefined,
  );
}
