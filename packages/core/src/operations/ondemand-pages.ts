import { is, object } from 'superstruct';
import { invalidField, forbidden } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, deleted, ok, operation } from '../engine/operation';
import { since } from '../engine/versions';
import { and, eq } from '../store/filters';
import type { Store } from '../store/store';
import { checkPageRules, newPage, pageFields, pageLink } from '../domain/ondemand-page-fields';
import { announcePublished, editFields, nextState, publishDuePages } from '../domain/ondemand-lifecycle';
import { deletePageRecords, loadOwnedPage, loadVisiblePage, visiblePages } from '../domain/ondemand-pages';
import type { OndemandPageRecord } from '../records/ondemand';
import { representOnePage, representPages } from './represent-ondemand';
import { actingUser, targetUser } from '../domain/users';
import { isoTime } from '../support/time';
import { pageMediaPrefixes } from '../domain/ondemand-media';

const kind = 'ondemand.page';

/** 400 naming `field` when another page already uses `value` there (links and domains are unique). */
async function assertFree(store: Store, field: 'link' | 'domain_link', value: string | null, pageId?: string): Promise<void> {
  if (value === null) return;
  const other = await store.findOne<OndemandPageRecord>('ondemand_pages', eq(field, value));
  if (other && other.id !== pageId) throw invalidField(field, `"${value}" is already used by another page`);
}

export const createPage = operation({
  id: 'ondemand.pages.create',
  summary: 'Create an On Demand page; it starts as a draft',
  method: 'POST',
  paths: ['/me/ondemand/pages', '/users/{user_id}/ondemand/pages'],
  scope: 'create',
  params: pageFields,
  async handle(ctx) {
    const owner = await actingUser(ctx, 'create On Demand pages');
    checkPageRules(ctx.params);
    const record = newPage(owner.id, ctx.params, ctx.now());
    await assertFree(ctx.store, 'link', record.link);
    await assertFree(ctx.store, 'domain_link', record.domain_link);
    const page = await ctx.store.insert<OndemandPageRecord>('ondemand_pages', record);
    const body = await representOnePage(ctx, page);
    return since(ctx.version, 'ondemandCurrentForm') ? created(body, kind) : ok(body, kind);
  },
});

/** `date` and `added` both mean creation; `alphabetical` and `name` both mean the name. */
const sorts = {
  added: by('created_time', 'desc'),
  alphabetical: by('name', 'asc'),
  date: by('created_time', 'desc'),
  modified_time: by('modified_time', 'desc'),
  name: by('name', 'asc'),
  'publish.time': by('publish_time', 'desc'),
  rating: by('rating_rank', 'asc'),
};
type Sort = keyof typeof sorts;

export const listUserPages = operation({
  id: 'ondemand.pages.list',
  summary: "List a user's On Demand pages (drafts only to their owner)",
  method: 'GET',
  paths: ['/me/ondemand/pages', '/users/{user_id}/ondemand/pages'],
  params: object(listParams({ sort: Object.keys(sorts) as Sort[], filter: ['film', 'series'] })),
  async handle(ctx) {
    const user = await targetUser(ctx);
    await publishDuePages(ctx);
    const p = ctx.params as ListParams<Sort, 'film' | 'series'>;
    const page = pageOf(p);
    const result = await ctx.store.find<OndemandPageRecord>('ondemand_pages', {
      where: and(eq('user_id', user.id), visiblePages(ctx.principal.user), p.filter ? eq('type', p.filter) : undefined),
      orderBy: orderOf(sorts, p.sort ?? 'date', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representPages(ctx, result.items), kind);
  },
});

export const getPage = operation({
  id: 'ondemand.pages.get',
  summary: 'Get an On Demand page by id or custom link (a draft only to its owner)',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}'],
  async handle(ctx) {
    return ok(await representOnePage(ctx, await loadVisiblePage(ctx)), kind);
  },
});

export const updatePage = operation({
  id: 'ondemand.pages.update',
  summary: 'Edit an On Demand page: its link, and publishing (now, by pre-order, or when its videos are ready)',
  method: 'PATCH',
  paths: ['/ondemand/pages/{ondemand_id}'],
  scope: 'edit',
  params: editFields,
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'edit the page');
    const patch: Partial<OndemandPageRecord> = await nextState(ctx, page);
    const { link } = ctx.params;
    if (link !== undefined) {
      // An empty link removes the custom URL.
      if (link !== '' && !is(link, pageLink)) throw invalidField('link', 'may hold letters, digits, - and _ only, and not only digits');
      patch.link = link === '' ? null : link.toLowerCase();
      await assertFree(ctx.store, 'link', patch.link, page.id);
    }
    if (ctx.params.publish_when_ready !== undefined) patch.publish_when_ready = ctx.params.publish_when_ready;
    await ctx.store.update<OndemandPageRecord>('ondemand_pages', page.id, { ...patch, modified_time: isoTime(ctx.now()) });
    if (patch.status === 'published') await announcePublished(ctx.store, page, ctx.now());
    await publishDuePages(ctx);
    return ok(await representOnePage(ctx, (await ctx.store.get<OndemandPageRecord>('ondemand_pages', page.id))!), kind);
  },
});

export const deletePage = operation({
  id: 'ondemand.pages.delete',
  summary: 'Delete a draft On Demand page',
  method: 'DELETE',
  paths: ['/ondemand/pages/{ondemand_id}'],
  scope: 'delete',
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'delete the page');
    if (page.status !== 'draft') throw forbidden(`Only draft pages can be deleted; this page is ${page.status === 'preorder' ? 'up for pre-order' : 'published'}.`);
    await deletePageRecords(ctx.store, page.id);
    return deleted(pageMediaPrefixes(page.id));
  },
});

export const ondemandPageOperations = [createPage, listUserPages, getPage, updatePage, deletePage];
