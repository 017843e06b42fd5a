import type { Filter } from '../store/store';
import { and, eq, inSelect } from '../store/filters';
import type { UserRecord } from '../records';
import type { Context } from '../engine/operation';
import { withMembers } from './memberships';
import type { OndemandPageRecord, PageTotals } from '../records/ondemand';
import { visibleVideos } from './visibility';

/**
 * The lists an On Demand page gathers from its videos, each the same for its operation and for
 * the total the page's connection gives: only what the viewer may see of the videos counts.
 */

/** The `ondemand_videos` rows matching `rows` whose video `viewer` may see. */
export const viewableRows = (viewer: UserRecord | null, rows: Filter): Filter =>
  withMembers({ collection: 'ondemand_videos', where: rows }, 'video_id', 'videos', visibleVideos(viewer));

/** Users who liked a video of the page (of the rows `rows` names) that `viewer` may see: likes of the others would tell who watches them. */
export const pageLikers = (viewer: UserRecord | null, rows: Filter): Filter =>
  inSelect('id', 'likes', 'user_id', withMembers({ collection: 'likes', where: inSelect('video_id', 'ondemand_videos', 'video_id', rows) }, 'video_id', 'videos', visibleVideos(viewer)));

/** Top-level comments on the page's videos that `viewer` may see (replies are under each comment, as on a video). */
export const pageComments = (viewer: UserRecord | null, pageId: string): Filter =>
  and(eq('parent_id', null), inSelect('video_id', 'ondemand_videos', 'video_id', viewableRows(viewer, eq('page_id', pageId))));

/** The totals for one page: none to count on a page without videos, and the owner sees every video. */
export async function pageTotals(ctx: Context<unknown>, page: OndemandPageRecord): Promise<PageTotals> {
  if (page.videos_total === 0) return { viewable: 0, likes: 0, comments: 0 };
  const viewer = ctx.principal.user;
  const rows = eq('page_id', page.id);
  const [viewable, likes, comments] = await Promise.all([
    viewer?.id === page.user_id ? page.videos_total : ctx.store.count('ondemand_videos', viewableRows(viewer, rows)),
    ctx.store.count('users', pageLikers(viewer, rows)),
    ctx.store.count('comments', pageComments(viewer, page.id)),
  ]);
  return { viewable, likes, comments };
}
