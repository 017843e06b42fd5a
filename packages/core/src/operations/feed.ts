import { enums, object, optional, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { listParams, pageOf, type ListParams, type Page } from '../engine/list';
import { ok, operation, type Context, type Reply } from '../engine/operation';
import { feedFilter } from '../domain/activities';
import { categoryFollowTimes, followedCategorySlugs } from '../domain/category-follows';
import { decodeCursor, encodeCursor, type FeedCursor } from '../domain/feed-cursor';
import { readFeed, type FeedPage } from '../domain/feed-page';
import { activityTypes, type ActivityRecord, type ActivityType } from '../records/feed';
import { inOrderOf } from '../domain/memberships';
import { publishDuePages } from '../domain/ondemand-lifecycle';
import { actingUser } from '../domain/users';
import { representContext } from './represent-context';
import { representVideos } from './represent-videos';
import type { UserRecord, VideoRecord } from '../records';
import { representActivity } from '../representations/activity';
import { userUri } from '../representations/user';
import { and, eq } from '../store/filters';
import { appearanceOperations } from './appearances';
import { followedCategoryOperations } from './followed-categories';

export const getFeed = operation({
  id: 'users.feed.list',
  summary: "The user's feed: what the users, categories and tags they follow did, newest first (Activity 3.1 items)",
  method: 'GET',
  paths: ['/me/feed', '/users/{user_id}/feed'],
  scope: 'private',
  params: object({
    ...listParams({ direction: false }),
    offset: optional(size(string(), 1, 200)),
    type: optional(enums(activityTypes)),
  }),
  async handle(ctx) {
    const user = await actingUser(ctx, 'read their feed');
    // Pages whose pre-order time came, or whose videos got ready, announce themselves first.
    await publishDuePages(ctx);
    const p = ctx.params as ListParams & { offset?: string; type?: ActivityType };
    const cursor = p.offset === undefined ? null : decodeCursor(p.offset, user.id);
    const page = pageOf(p);
    const reader = { user, categories: await followedCategorySlugs(ctx.store, user.id) };
    const feed = await readFeed(ctx.store, feedFilter(reader, p.type), user.id, page, cursor);
    return feedReply(ctx, page, feed, await representFeed(ctx, user, feed.activities));
  },
});

export const getActivity = operation({
  id: 'users.feed.get',
  summary: "One item of the user's feed, at the uri its Activity names (404 when the feed does not hold it, or no longer shows its video)",
  method: 'GET',
  paths: ['/me/feed/{activity_id}', '/users/{user_id}/feed/{activity_id}'],
  scope: 'private',
  async handle(ctx) {
    const user = await actingUser(ctx, 'read their feed');
    const reader = { user, categories: await followedCategorySlugs(ctx.store, user.id) };
    const id = ctx.path.activity_id;
    // The feed's own rule decides, as for the list: an activity the feed does not show is not found.
    const activity = /^\d{1,18}$/.test(id) ? await ctx.store.findOne<ActivityRecord>('activities', and(eq('id', id), feedFilter(reader))) : null;
    const [item] = activity ? await representFeed(ctx, user, [activity]) : [];
    if (!item) throw notFound('activity');
    return ok(item, 'activity');
  },
});

/**
 * The list envelope. `next` and `previous` carry the cursors (with the page number they lead to,
 * as a label); `first` and `last` are plain page numbers. The other query parameters are kept.
 */
function feedReply(ctx: Context<unknown>, page: Page, feed: FeedPage, data: unknown[]): Reply {
  const link = (n: number, at?: FeedCursor): string => {
    const q = new URLSearchParams(ctx.request.search);
    for (const name of ['offset', 'page', 'per_page']) q.delete(name);
    if (at) q.set('offset', encodeCursor(at));
    q.set('page', String(n));
    q.set('per_page', String(page.perPage));
    return `${ctx.request.path}?${q.toString()}`;
  };
  const paging = {
    next: feed.next && link(page.page + 1, feed.next),
    previous: feed.previous && link(Math.max(1, page.page - 1), feed.previous),
    first: link(1),
    last: link(Math.max(1, Math.ceil(feed.total / page.perPage))),
  };
  return { status: 200, kind: 'activity', body: { total: feed.total, page: page.page, per_page: page.perPage, paging, data } };
}

/** Activity items for a page: videos, their Clips and the users behind them in one query each. */
async function representFeed(ctx: Context<unknown>, reader: UserRecord, activities: ActivityRecord[]): Promise<Record<string, unknown>[]> {
  const videoIds = [...new Set(activities.map((a) => a.video_id))];
  const videos = await inOrderOf<VideoRecord>(ctx.store, 'videos', videoIds);
  const clips = await representVideos(ctx, videos);
  const byVideo = new Map(videos.map((v, i) => [v.id, { video: v, clip: clips[i] }]));
  const users = new Map(
    (await inOrderOf<UserRecord>(ctx.store, 'users', [...new Set(activities.map((a) => a.user_id))])).map((u) => [u.id, u]),
  );
  const categories = activities.flatMap((a) => (a.type === 'category_featured' && a.subject ? [a.subject] : []));
  const followedCategories = await categoryFollowTimes(ctx.store, reader, categories);
  const feed = `${userUri(reader.id)}/feed`;
  const rc = representContext(ctx);
  // A video deleted since the page was read drops out rather than failing the page.
  return activities.flatMap((a) => {
    const video = byVideo.get(a.video_id);
    return video ? [representActivity(a, { ...video, feed, user: users.get(a.user_id), followedCategories }, rc)] : [];
  });
}

export const feedOperations = [getFeed, getActivity, ...appearanceOperations, ...followedCategoryOperations];
