import type { Filter, FindResult, OrderBy } from '../store/store';
import { and, eq } from '../store/filters';
import { matching } from '../store/search';
import type { UserRecord, VideoRecord } from '../records';
import { by, embeddableFilter, type ListParams, type Page } from '../engine/list';
import type { Context } from '../engine/operation';
import { videoField } from '../schema/video-mirror';
import { memberPage } from './memberships';
import { visibleVideos, type VideoFields } from './visibility';
import { listFilter } from './viewer-filters';

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

/** The videos a list shows the caller: the visibility rule, `filter=embeddable` and `query` (name or description). */
export function videoListFilter(ctx: Context<unknown>, params: ListParams): Filter {
  const embeddable = embeddableFilter(params);
  const query = params.query?.trim();
  return and(
    visibleVideos(ctx.principal.user),
    embeddable === undefined ? undefined : eq('embeddable', embeddable),
    matching(query),
  );
}

/** A membership of videos whose rows mirror their video (schema/video-mirror.ts), and the list (its rows' `field` is `id`). */
export interface VideoMembership {
  collection: 'video_tags' | 'channel_videos';
  field: 'tag' | 'channel_id';
  id: string;
}

const mirroredFields: VideoFields = { id: 'video_id', user_id: videoField('user_id'), privacy_view: videoField('privacy_view') };

/**
 * The rows of a membership list whose videos `viewer` may see (those that are embeddable or not,
 * when `embeddable` is given), by the visibility rule on the mirrored fields; shared per viewer
 * and list (viewer-filters.ts listFilter).
 */
export const visibleMembers = (viewer: UserRecord | null, list: VideoMembership, embeddable?: boolean): Filter =>
  listFilter(viewer, `${list.collection}\u0000${list.id}\u0000${embeddable}`, () =>
    and(eq(list.field, list.id), visibleVideos(viewer, mirroredFields), embeddable === undefined ? undefined : eq(videoField('embeddable'), embeddable)),
  );

/** Sorts on video fields as a membership's rows read them, on the mirrored copies (`plays` → `video_plays`). */
export const onMirror = <K extends string>(sorts: Record<K, OrderBy[]>): Record<K, OrderBy[]> =>
  Object.fromEntries(Object.entries<OrderBy[]>(sorts).map(([name, order]) => [name, order.map((o) => ({ ...o, field: videoField(o.field) }))])) as Record<K, OrderBy[]>;

/**
 * A page of the videos of a membership list the caller may see, filtered, sorted (`orderBy` names
 * row fields or mirrored ones) and paged on the membership's rows, so a deep page of a big list
 * is one index range. Only `query` reads the videos themselves (among this list's: memberPage).
 */
export function memberVideosPage(ctx: Context<unknown>, params: ListParams, list: VideoMembership, orderBy: OrderBy[], page: Page): Promise<FindResult<VideoRecord>> {
  const embeddable = embeddableFilter(params);
  const query = params.query?.trim();
  return memberPage<VideoRecord>(ctx.store, {
    rows: {
      collection: list.collection,
      where: visibleMembers(ctx.principal.user, list, embeddable),
      memberField: 'video_id',
    },
    members: { collection: 'videos', where: matching(query) },
    orderBy,
    byRow: true,
    page,
  });
}
