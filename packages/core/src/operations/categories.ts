import { array, object, optional, size, string } from 'superstruct';
import { topLevelCategories, type Category } from '../catalog/categories';
import { notFound } from '../engine/errors';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { created, ok, operation, type Context } from '../engine/operation';
import { categoriesOfVideo, checkSuggestionLimits, inCategory, lastVideoTime, loadCategory, setVideoCategories, videoInCategory } from '../domain/categories';
import { loadOwnedVideo } from '../domain/owned-video';
import { clipSorts, type ClipSort } from '../domain/video-lists';
import { listVisibleVideos } from './video-lists';
import { loadVisibleVideo } from '../domain/videos';
import { representOne } from './represent-videos';
import { categoryUserOperations } from './category-users';
import { representCategory } from '../representations/category';
import { representContext } from './represent-context';
import { categoryFollowTimes } from '../domain/category-follows';
import { categoryStats } from '../domain/category-stats';

const password = optional(size(string(), 1, 128));

export const listVideoCategories = operation({
  id: 'videos.categories.list',
  summary: 'List the categories suggested for a video',
  method: 'GET',
  paths: ['/videos/{video_id}/categories'],
  params: object({ password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const data = await representCategories(ctx, categoriesOfVideo(video));
    // At most three categories, kept on the video itself: always one page.
    return listReply(ctx, pageOf({}), data.length, data, 'category');
  },
});

export const suggestVideoCategories = operation({
  id: 'videos.categories.set',
  summary: "Suggest a video's categories (by slug or name), replacing the earlier suggestion: up to two categories and one subcategory",
  method: 'PUT',
  paths: ['/videos/{video_id}/categories'],
  scope: 'edit',
  params: object({ category: size(array(size(string(), 1, 100)), 0, 20) }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'categorise');
    const chosen = [...new Set(ctx.params.category.map(loadCategory))];
    checkSuggestionLimits(chosen);
    await setVideoCategories(ctx.store, video, chosen, ctx.now());
    return created(await representCategories(ctx, chosen), 'category');
  },
});

type CategorySort = 'last_video_featured_time' | 'name';

export const listCategories = operation({
  id: 'categories.list',
  summary: 'List the top-level categories',
  method: 'GET',
  paths: ['/categories'],
  params: object(listParams<CategorySort, never>({ sort: ['last_video_featured_time', 'name'] })),
  async handle(ctx) {
    const p = ctx.params as ListParams<CategorySort>;
    const page = pageOf(p);
    const sorted = await sortCategories(ctx, topLevelCategories(), p.sort ?? 'name', p.direction);
    const data = await representCategories(ctx, sorted.slice(page.offset, page.offset + page.limit));
    return listReply(ctx, page, sorted.length, data, 'category');
  },
});

/**
 * The tree is a fixed catalog, so it sorts in memory. The service features no videos itself, so
 * `last_video_featured_time` is the latest time a video the caller may see was put in the
 * category or one of its subcategories: newest first by default, categories without one counting
 * as oldest, ties by name.
 */
async function sortCategories(ctx: Context<unknown>, list: Category[], sort: CategorySort, direction?: 'asc' | 'desc'): Promise<Category[]> {
  const byName = (a: Category, b: Category) => a.name.localeCompare(b.name);
  if (sort === 'name') return [...list].sort(direction === 'desc' ? (a, b) => byName(b, a) : byName);
  const latest = new Map<string, string>();
  for (const category of list) latest.set(category.slug, (await lastVideoTime(ctx.store, category, ctx.principal.user)) ?? '');
  const sign = direction === 'asc' ? 1 : -1;
  return [...list].sort((a, b) => sign * latest.get(a.slug)!.localeCompare(latest.get(b.slug)!) || byName(a, b));
}

export const getCategory = operation({
  id: 'categories.get',
  summary: 'Get a category (by slug or name)',
  method: 'GET',
  paths: ['/categories/{category}'],
  async handle(ctx) {
    return ok((await representCategories(ctx, [loadCategory(ctx.path.category)], { withStats: true }))[0], 'category');
  },
});


export const listCategoryVideos = operation({
  id: 'categories.videos.list',
  summary: 'List the videos in a category or its subcategories that the caller may see',
  method: 'GET',
  paths: ['/categories/{category}/videos'],
  params: object(listParams({ sort: Object.keys(clipSorts) as ClipSort[], filter: ['embeddable'] as const, query: true, filterEmbeddable: true })),
  async handle(ctx) {
    const category = loadCategory(ctx.path.category);
    return listVisibleVideos(ctx, ctx.params as ListParams<ClipSort, 'embeddable'>, { where: inCategory(category), sorts: clipSorts, defaultSort: 'date' });
  },
});

export const getCategoryVideo = operation({
  id: 'categories.videos.get',
  summary: 'Get a video of a category (404 when it is not in the category)',
  method: 'GET',
  paths: ['/categories/{category}/videos/{video_id}'],
  params: object({ password }),
  async handle(ctx) {
    const category = loadCategory(ctx.path.category);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    if (!videoInCategory(video, category)) throw notFound('video');
    return ok(await representOne(ctx, video), 'video');
  },
});

export const categoryOperations = [
  listVideoCategories,
  suggestVideoCategories,
  listCategories,
  getCategory,
  listCategoryVideos,
  getCategoryVideo,
  ...categoryUserOperations,
];

/**
 * Category representations for the caller, with the caller's follow of each (`followed`, when the
 * caller already has the times; else one query for all). Only a category read by itself carries
 * its stats (`withStats`): each is a count over every video of the category the caller may see
 * (seconds for a list of categories cold at 300,000 videos), so lists show the connections
 * without totals, as an embedded category does.
 */
export async function representCategories(
  ctx: Context<unknown>,
  list: readonly Category[],
  { followed, withStats = false }: { followed?: ReadonlyMap<string, string>; withStats?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const viewer = ctx.principal.user;
  const rc = representContext(ctx);
  const [times, stats] = await Promise.all([
    followed ?? categoryFollowTimes(ctx.store, viewer, list.map((c) => c.slug)),
    withStats ? Promise.all(list.map((c) => categoryStats(ctx.store, c, viewer))) : null,
  ]);
  return list.map((c, i) => representCategory(c, rc, times.get(c.slug) ?? null, stats?.[i] ?? null));
}
