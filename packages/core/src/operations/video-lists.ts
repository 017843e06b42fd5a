import type { Filter, OrderBy } from '../store/store';
import { and, eq } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import type { Context, Reply } from '../engine/operation';
import type { AlbumRecord } from '../records/album';
import { memberPage } from '../domain/memberships';
import { clipSorts, videoListFilter, type ClipSort } from '../domain/video-lists';
import type { UserVideoList } from '../domain/user-video-lists';
import { albumVideos, type AlbumVideoListParams } from '../domain/album-video-list';
import { representVideos } from './represent-videos';

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

/**
 * A page of the videos in `user`'s list that the caller may see, as Clips, filtered, sorted and
 * paged in the store. `date` is when the user added the video, the latest first: the time of its
 * row, the only record of it.
 */
export async function listUserVideos(ctx: Context<unknown>, list: UserVideoList, user: UserRecord, lastModified?: string | null): Promise<Reply> {
  const p = ctx.params as ListParams<ClipSort, 'embeddable'>;
  const sort = p.sort ?? 'date';
  const page = pageOf(p);
  const result = await memberPage<VideoRecord>(ctx.store, {
    rows: { collection: list.collection, where: eq('user_id', user.id), memberField: 'video_id' },
    members: { collection: 'videos', where: videoListFilter(ctx, p) },
    orderBy: orderOf(clipSorts, sort, p.direction),
    byRow: sort === 'date',
    page,
  });
  return listReply(ctx, page, result.total, await representVideos(ctx, result.items), 'video', lastModified);
}

/** albumVideos as a list of Clips. */
export async function albumVideoPage(ctx: Context<unknown>, album: AlbumRecord, p: AlbumVideoListParams): Promise<Reply> {
  const { page, total, videos } = await albumVideos(ctx, album, p);
  return listReply(ctx, page, total, await representVideos(ctx, videos), 'video');
}
