import type { Filter, OrderBy } from '../store/store';
import { and, contains, eq, inSelect } from '../store/filters';
import { matches } from '../store/search';
import type { VideoRecord } from '../records';
import { invalidField } from '../engine/errors';
import { by, orderOf, pageOf, type ListParams, type Page } from '../engine/list';
import type { Context } from '../engine/operation';
import type { AlbumRecord, AlbumVideoRecord } from '../records/album';
import { idsOf, inOrderOf, withMembers } from './memberships';
import { clipSorts, videoListFilter } from './video-lists';
import { readVideoUri } from './video-uris';

/** The `sort` values of GET .../albums/{album_id}/videos (SPEC.md). */
export const albumVideoSorts = ['alphabetical', 'comments', 'date', 'default', 'duration', 'likes', 'manual', 'modified_time', 'plays'] as const;
export type AlbumVideoSort = (typeof albumVideoSorts)[number];

export interface AlbumVideoListParams extends ListParams<AlbumVideoSort, 'embeddable'> {
  containing_uri?: string;
  weak_search?: boolean;
}

/** Orders that follow the membership rows (manual position, time added) rather than a field of the video. */
const rowOrders: Record<string, OrderBy[]> = {
  manual: by('position', 'asc'),
  arranged: by('position', 'asc'),
  // Videos added together (one replace-all) keep their manual order among themselves.
  added_first: [...by('created_time', 'desc'), ...by('position', 'asc')],
  added_last: [...by('created_time', 'asc'), ...by('position', 'asc')],
};
const videoOrders: Record<string, OrderBy[]> = {
  ...clipSorts,
  modified_time: by('modified_time', 'desc'),
  newest: by('created_time', 'desc'),
  oldest: by('created_time', 'asc'),
};

type PageFetch = (offset: number, limit: number) => Promise<{ total: number; videos: VideoRecord[] }>;

/**
 * A page of an album's videos that the caller may see. `sort=default` follows the album's own
 * sort. Visibility, `filter=embeddable` and `query` filter in the store; membership orders
 * (manual, time added) sort the `album_videos` rows, the others sort the videos.
 * `containing_uri` answers the page that holds that video.
 */
export async function albumVideos(ctx: Context<unknown>, album: AlbumRecord, p: AlbumVideoListParams): Promise<{ page: Page; total: number; videos: VideoRecord[] }> {
  const technique = !p.sort || p.sort === 'default' ? album.sort : p.sort;
  const onRows = Object.hasOwn(rowOrders, technique);
  const orderBy = orderOf(onRows ? rowOrders : videoOrders, technique, p.direction);
  const shown = and(videoListFilter(ctx, { ...p, query: undefined }), search(p));
  const fetch: PageFetch = onRows
    ? async (offset, limit) => {
        const where = withMembers({ collection: 'album_videos', where: eq('album_id', album.id) }, 'video_id', 'videos', shown);
        const rows = await ctx.store.find<AlbumVideoRecord>('album_videos', { where, orderBy, offset, limit });
        return { total: rows.total, videos: await inOrderOf<VideoRecord>(ctx.store, 'videos', idsOf(rows.items, 'video_id')) };
      }
    : async (offset, limit) => {
        const where = and(inSelect('id', 'album_videos', 'video_id', eq('album_id', album.id)), shown);
        const found = await ctx.store.find<VideoRecord>('videos', { where, orderBy, offset, limit });
        return { total: found.total, videos: found.items };
      };
  const asked = pageOf(p);
  const page =
    p.containing_uri === undefined ? asked : pageOf({ per_page: asked.perPage, page: await pageContaining(fetch, p.containing_uri, asked.perPage) });
  return { page, ...(await fetch(page.offset, page.limit)) };
}

/**
 * `query` searches as the public search does: the name or description of videos anybody may
 * see. `weak_search` matches part of the name instead, over every video of the list the caller
 * may see, private ones included (for the album's owner, their own private videos).
 */
function search(p: AlbumVideoListParams): Filter | undefined {
  const query = p.query?.trim();
  if (!query) return undefined;
  return p.weak_search ? contains('name', query) : and(eq('privacy_view', 'anybody'), matches(query));
}

const scanSize = 100;

/** The page number at which `uri` appears in the list, scanning it in the store's order (400 when it is not in it). */
async function pageContaining(fetch: PageFetch, uri: string, perPage: number): Promise<number> {
  const id = readVideoUri(uri, 'containing_uri');
  for (let offset = 0; ; offset += scanSize) {
    const { total, videos } = await fetch(offset, scanSize);
    const at = videos.findIndex((v) => v.id === id);
    if (at >= 0) return Math.floor((offset + at) / perPage) + 1;
    if (offset + scanSize >= total) throw invalidField('containing_uri', 'names no video of this list');
  }
}
