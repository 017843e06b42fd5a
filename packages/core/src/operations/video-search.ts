import { enums, integer, min, object, optional, size, string } from 'superstruct';
import { invalidField } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { visibleVideos } from '../domain/visibility';
import { representVideos } from './represent-videos';
import { clipSorts } from '../domain/video-lists';
import { isoTime } from '../support/time';
import type { VideoRecord } from '../records';
import { and, gte, inSelect, isIn, lte } from '../store/filters';
import { matches, RELEVANCE } from '../store/search';
import type { Filter, OrderBy } from '../store/store';

const sorts = {
  relevant: [{ field: RELEVANCE, direction: 'desc' }, ...by('plays', 'desc')] as OrderBy[],
  ...clipSorts,
};
type Sort = keyof typeof sorts;

const filters = ['categories', 'duration', 'minimum_likes', 'upload_date'] as const;
type SearchFilter = (typeof filters)[number];

/** How far back `filter_upload_date` reaches, in days. */
const uploadPeriods = { day: 1, week: 7, month: 30, year: 365 } as const;

type Params = ListParams<Sort, SearchFilter> & {
  filter_categories?: string;
  min_duration?: number;
  max_duration?: number;
  min_likes?: number;
  filter_upload_date?: keyof typeof uploadPeriods;
};

/** Each filter's own parameters: required with it, refused without it. */
const filterParams: Record<SearchFilter, readonly (keyof Params)[]> = {
  categories: ['filter_categories'],
  duration: ['min_duration', 'max_duration'],
  minimum_likes: ['min_likes'],
  upload_date: ['filter_upload_date'],
};

export const searchVideos = operation({
  id: 'videos.search',
  summary:
    'Extension (the hosted API\'s search_videos): search the videos the caller may see by name, tags and description (see docs/search.md for the query syntax). query is required, as in the hosted API (a user\'s videos are listed by GET /users/{user_id}/videos). sort=relevant (the default) ranks name matches before tag matches before description matches; filter=categories (filter_categories, a comma list), duration (min_duration and/or max_duration, in seconds), minimum_likes (min_likes) or upload_date (filter_upload_date: day, week, month, year)',
  method: 'GET',
  paths: ['/videos'],
  params: object({
    ...listParams({ sort: Object.keys(sorts) as Sort[], filter: filters, query: true }),
    filter_categories: optional(size(string(), 1, 500)),
    min_duration: optional(min(integer(), 0)),
    max_duration: optional(min(integer(), 0)),
    min_likes: optional(min(integer(), 0)),
    filter_upload_date: optional(enums(Object.keys(uploadPeriods) as (keyof typeof uploadPeriods)[])),
  }),
  async handle(ctx) {
    const p = ctx.params as Params;
    const query = p.query?.trim();
    // Required as in the hosted API, which lists videos per user, channel, album… rather than all at once.
    if (!query) throw invalidField('query', 'is required: GET /videos searches; list a user\'s videos with GET /me/videos or GET /users/{user_id}/videos');
    for (const [filter, names] of Object.entries(filterParams) as [SearchFilter, (keyof Params)[]][]) {
      const given = names.filter((name) => p[name] !== undefined);
      if (p.filter !== filter && given.length) throw invalidField(given[0], `is only taken with filter=${filter}`);
      if (p.filter === filter && !given.length) throw invalidField(names[0], `is required when filter is ${filter}`);
    }
    const page = pageOf(p);
    const result = await ctx.store.find<VideoRecord>('videos', {
      where: and(visibleVideos(ctx.principal.user), matches(query), filterOf(p, ctx.now())),
      orderBy: orderOf(sorts, p.sort ?? 'relevant', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representVideos(ctx, result.items), 'video');
  },
});

function filterOf(p: Params, now: Date): Filter | undefined {
  switch (p.filter) {
    case 'categories': {
      const categories = p.filter_categories!.split(',').map((c) => c.trim()).filter(Boolean);
      if (!categories.length) throw invalidField('filter_categories', 'names no category');
      return inSelect('id', 'video_categories', 'video_id', isIn('category', categories));
    }
    case 'duration':
      return and(p.min_duration === undefined ? undefined : gte('duration', p.min_duration), p.max_duration === undefined ? undefined : lte('duration', p.max_duration));
    case 'minimum_likes':
      return gte('likes_total', p.min_likes!);
    case 'upload_date':
      return gte('created_time', isoTime(new Date(now.getTime() - uploadPeriods[p.filter_upload_date!] * 86_400_000)));
    default:
      return undefined;
  }
}

export const videoSearchOperations = [searchVideos];
