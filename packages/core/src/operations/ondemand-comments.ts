import { object } from 'superstruct';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { operation } from '../engine/operation';
import { and } from '../store/filters';
import { matching } from '../store/search';
import { type CommentRecord } from '../records/comment';
import { pageComments } from '../domain/ondemand-page-lists';
import { loadVisiblePage } from '../domain/ondemand-pages';
import { representComments } from './comments';

const sorts = { date: by('created_time', 'desc') };

export const listPageComments = operation({
  id: 'ondemand.pages.comments.list',
  summary:
    "Extension (SPEC.md names no list of a page's comments; the hosted API's page names it in its connections): the comments on the videos of an On Demand page that the caller may see (top-level; replies are under each comment), newest first",
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/comments'],
  params: object(listParams({ query: true })),
  async handle(ctx) {
    const onPage = await loadVisiblePage(ctx);
    const p = ctx.params as ListParams;
    const page = pageOf(p);
    const query = p.query?.trim();
    const result = await ctx.store.find<CommentRecord>('comments', {
      where: and(pageComments(ctx.principal.user, onPage.id), matching(query)),
      orderBy: orderOf(sorts, 'date', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representComments(ctx, result.items), 'comment');
  },
});

export const ondemandCommentOperations = [listPageComments];
