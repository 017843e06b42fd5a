import { object } from 'superstruct';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { and, eq } from '../store/filters';
import { matching } from '../store/search';
import type { UserRecord } from '../records';
import { pageLikers } from '../domain/ondemand-page-lists';
import { loadVisiblePage } from '../domain/ondemand-pages';
import type { VideoKind } from '../records/ondemand';
import { videoKinds } from '../domain/ondemand-videos';
import { representUsers } from './represent-users';

/** `date` is the users' join date: a user who liked several of the page's videos is listed once. */
const sorts = { alphabetical: by('name', 'asc'), date: by('created_time', 'desc') };
type Sort = keyof typeof sorts;

export const listPageLikes = operation({
  id: 'ondemand.pages.likes.list',
  summary: "List the users who liked videos of an On Demand page (of one type with filter), once each",
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/likes'],
  params: object(listParams({ sort: Object.keys(sorts) as Sort[], filter: videoKinds, query: true })),
  async handle(ctx) {
    const onPage = await loadVisiblePage(ctx);
    const p = ctx.params as ListParams<Sort, VideoKind>;
    const page = pageOf(p);
    const pageVideos = and(eq('page_id', onPage.id), p.filter ? eq('type', p.filter) : undefined);
    const query = p.query?.trim();
    const result = await ctx.store.find<UserRecord>('users', {
      where: and(pageLikers(ctx.principal.user, pageVideos), matching(query)),
      orderBy: orderOf(sorts, p.sort ?? 'date', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representUsers(ctx, result.items), 'user');
  },
});

export const ondemandLikeOperations = [listPageLikes];
