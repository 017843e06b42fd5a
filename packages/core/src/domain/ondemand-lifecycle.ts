import { boolean, object, optional, size, string, type Infer } from 'superstruct';
import { invalidField } from '../engine/errors';
import type { Context } from '../engine/operation';
import { and, eq, inSelect, lte, ne } from '../store/filters';
import type { Store } from '../store/store';
import { isoTime } from '../support/time';
import { readDateTime } from './date-time';
import { recordActivity } from './activities';
import type { OndemandPageRecord, PageVideoRecord } from '../records/ondemand';

/**
 * The On Demand page lifecycle (SPEC.md, States): draft → published by PATCH publish.active, by a
 * pre-order reaching preorder.publish_time, or by publish_when_ready once the videos are available.
 */

/**
 * Why a page cannot be published (or pre-ordered) yet, or null when it can: it needs a genre to be
 * found under (SPEC.md, Limits: a page has at least one genre, and a page starts with none). A main
 * video is not needed (SPEC.md's state table: "allowed"); a page without one sells nothing, and
 * says so in its interactions (ondemand-offers.ts).
 */
export function publishBlocker(page: OndemandPageRecord): string | null {
  if (page.genres.length === 0) return 'the page needs a genre before it can be published';
  return null;
}

/**
 * True when publish_when_ready may publish the page: it can be published, has a main video, and
 * every one of its videos is available (transcoded). SPEC.md's condition is "all videos finished
 * transcoding"; we read it as "the page's videos are ready", which a page without a main video is
 * not: with none, nothing has finished, and publishing (which cannot be undone) an empty page the
 * instant the flag is set would surprise its owner. It waits for a main video instead; publishing
 * such a page stays one explicit PATCH publish.active away.
 */
async function videosReady(store: Store, page: OndemandPageRecord): Promise<boolean> {
  if (publishBlocker(page) || page.main_total === 0) return false;
  const pending = and(inSelect('id', 'ondemand_videos', 'video_id', eq('page_id', page.id)), ne('status', 'available'));
  return (await store.count('videos', pending)) === 0;
}

/**
 * The page lifecycle's clock-driven half. Pre-orders whose `preorder.publish_time` has come are
 * published at that time, and drafts with `publish_when_ready` whose videos are all available are
 * published now. Every page read and list, the purchases and the feed (which announces
 * publications) run it first, so state always reflects the (injected) clock and the videos'
 * status without a background timer.
 */
export async function publishDuePages(ctx: Context<unknown>): Promise<void> {
  const now = isoTime(ctx.now());
  const [due, waiting] = await Promise.all([
    ctx.store.find<OndemandPageRecord>('ondemand_pages', { where: and(eq('status', 'preorder'), lte('preorder_time', now)) }),
    ctx.store.find<OndemandPageRecord>('ondemand_pages', { where: and(eq('publish_when_ready', true), eq('status', 'draft')) }),
  ]);
  const ready: OndemandPageRecord[] = [];
  for (const page of waiting.items) if (await videosReady(ctx.store, page)) ready.push(page);
  if (due.items.length === 0 && ready.length === 0) return;
  await ctx.store.transaction(async (tx) => {
    // Concurrent requests (or servers) may find the same page due: only the one that still sees
    // it unpublished inside its transaction publishes it, so a page is announced exactly once.
    const publish = async (page: OndemandPageRecord, was: OndemandPageRecord['status'], time: OndemandPageRecord['publish_time']) => {
      if ((await tx.get<OndemandPageRecord>('ondemand_pages', page.id))?.status !== was) return;
      await tx.update<OndemandPageRecord>('ondemand_pages', page.id, { status: 'published', publish_time: time });
      await announcePublished(tx, page, ctx.now());
    };
    for (const page of due.items) await publish(page, 'preorder', page.preorder_time);
    for (const page of ready) await publish(page, 'draft', now);
  });
}

/** A published page reaches its owner's followers' feeds through its main videos. */
export async function announcePublished(store: Store, page: OndemandPageRecord, now: Date): Promise<void> {
  const { items } = await store.find<PageVideoRecord>('ondemand_videos', { where: and(eq('page_id', page.id), eq('type', 'main')) });
  for (const row of items) {
    await recordActivity(store, { type: 'ondemand_publish', video_id: row.video_id, user_id: page.user_id, subject: page.id }, now);
  }
}

/**
 * A page published without a main video announced nothing; it is announced when a main video
 * first arrives (`page` as it was before that video was put on it).
 */
export async function announceLatePublication(store: Store, page: OndemandPageRecord, type: PageVideoRecord['type'], now: Date): Promise<void> {
  if (page.status !== 'published' || page.main_total > 0 || type !== 'main') return;
  if (await store.count('activities', and(eq('type', 'ondemand_publish'), eq('subject', page.id)))) return;
  await announcePublished(store, page, now);
}

/** The body of PATCH /ondemand/pages/{id}. */
export const editFields = object({
  link: optional(size(string(), 0, 64)),
  preorder: optional(object({ active: optional(boolean()), publish_time: optional(size(string(), 1, 64)) })),
  publish: optional(object({ active: optional(boolean()) })),
  publish_when_ready: optional(boolean()),
});

/** The page's next status and the fields that go with it, by SPEC.md's state table; each refusal a 400 naming the field. */
export async function nextState(ctx: Context<Infer<typeof editFields>>, page: OndemandPageRecord): Promise<Partial<OndemandPageRecord>> {
  const { preorder, publish } = ctx.params;
  const now = ctx.now();
  const out: Partial<OndemandPageRecord> = {};
  let preorderTime = page.preorder_time;
  if (preorder?.publish_time !== undefined) {
    const at = readDateTime(preorder.publish_time, 'preorder.publish_time');
    if (at <= now) throw invalidField('preorder.publish_time', 'must be in the future');
    if (page.status === 'published') throw invalidField('preorder.publish_time', 'the page is already published');
    preorderTime = out.preorder_time = isoTime(at);
  }
  if (publish?.active && preorder?.active) throw invalidField('preorder.active', 'cannot be true together with publish.active');
  if (publish?.active === false && page.status === 'published') throw invalidField('publish.active', 'a published page cannot be unpublished');
  if (publish?.active && page.status !== 'published') {
    const blocker = publishBlocker(page);
    if (blocker) throw invalidField('publish.active', blocker);
    Object.assign(out, { status: 'published', publish_time: isoTime(now) });
  }
  if (preorder?.active && page.status !== 'preorder') {
    if (page.status === 'published') throw invalidField('preorder.active', 'the page is already published');
    if (!preorderTime) throw invalidField('preorder.publish_time', 'is required when preorder.active is true');
    if (preorderTime <= isoTime(now)) throw invalidField('preorder.publish_time', 'must be in the future');
    const blocker = publishBlocker(page);
    if (blocker) throw invalidField('preorder.active', blocker);
    Object.assign(out, { status: 'preorder', preorder_start_time: isoTime(now), preorder_cancel_time: null });
  }
  if (preorder?.active === false && page.status === 'preorder') {
    if (await ctx.store.count('ondemand_purchases', eq('page_id', page.id))) {
      throw invalidField('preorder.active', 'the page has pre-orders, so it can no longer go back to draft');
    }
    Object.assign(out, { status: 'draft', preorder_cancel_time: isoTime(now) });
  }
  return out;
}

