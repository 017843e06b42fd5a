import { object, optional, refine, size, string, trimmed } from 'superstruct';
import { badRequest } from '../engine/errors';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation, updated, type Context } from '../engine/operation';
import { since } from '../engine/versions';
import { creditAdded, creditRemoved } from '../domain/appearances';
import { creditedUser, loadCredit, userUriPattern } from '../domain/credits';
import { loadOwnedVideo } from '../domain/owned-video';
import { stripUndefined } from '../domain/patch';
import { representContext } from './represent-context';
import { videoFields } from '../domain/video-fields';
import { loadVisibleVideo } from '../domain/videos';
import { pathChannel } from '../domain/channel-videos';
import type { CreditRecord, UserRecord, VideoRecord } from '../records';
import { isoTime } from '../support/time';
import { representCredit } from '../representations/credit';
import { eq, isIn } from '../store/filters';

const text = (max: number) => size(trimmed(string()), 1, max);
const email = refine(size(trimmed(string()), 3, 254), 'email', (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) || 'must be an email address');
const userUri = refine(string(), 'user_uri', (v) => userUriPattern.test(v) || 'must be the URI of a user, /users/{id}');
const { password } = videoFields;

export const createCredit = operation({
  id: 'videos.credits.create',
  summary: 'Credit a user on a video',
  method: 'POST',
  paths: ['/videos/{video_id}/credits', '/channels/{channel_id}/videos/{video_id}/credits'],
  // SPEC.md names no scope for this row; crediting someone edits the video.
  scope: 'edit',
  params: object({ email, name: text(256), role: text(128), user_uri: userUri }),
  async handle(ctx) {
    await pathChannel(ctx);
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'add credits to');
    const caller = ctx.principal.user as UserRecord;
    if (caller.verified === false) throw badRequest('Only users with a verified email address may add credits.');
    // Blocks between users do not exist yet, so SPEC.md's "user block" 400 cannot arise.
    const user = await creditedUser(ctx.store, ctx.params.user_uri);
    const now = isoTime(ctx.now());
    const { email, name, role } = ctx.params;
    // The collection's unique key (video, user, role) answers a duplicate with 400.
    const credit = await ctx.store.insert<CreditRecord>('credits', {
      video_id: video.id,
      user_id: user.id,
      creator_id: caller.id,
      name,
      role,
      email,
      created_time: now,
      modified_time: now,
    });
    await ctx.store.increment('videos', video.id, 'credits_total', 1);
    await creditAdded(ctx.store, credit, ctx.now());
    if (!since(ctx.version, 'creditOnCreate')) return { status: 201 };
    return created(representCredit(credit, user, video, representContext(ctx)), 'credit');
  },
});

export const listCredits = operation({
  id: 'videos.credits.list',
  summary: "List a video's credits, in the order they were added",
  method: 'GET',
  paths: ['/videos/{video_id}/credits'],
  params: object({ ...listParams({ direction: false }), password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const page = pageOf(ctx.params as ListParams);
    const result = await ctx.store.find<CreditRecord>('credits', {
      where: eq('video_id', video.id),
      orderBy: by('created_time', 'asc'),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representCredits(ctx, video, result.items), 'credit');
  },
});

export const getCredit = operation({
  id: 'videos.credits.get',
  summary: 'Get a credit of a video',
  method: 'GET',
  paths: ['/videos/{video_id}/credits/{credit_id}'],
  params: object({ password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    return ok(await representOneCredit(ctx, video, await loadCredit(ctx.store, video, ctx.path.credit_id)), 'credit');
  },
});

export const updateCredit = operation({
  id: 'videos.credits.update',
  summary: "Change a credit's name, role or email",
  method: 'PATCH',
  paths: ['/videos/{video_id}/credits/{credit_id}'],
  scope: 'edit',
  params: object({ name: optional(text(256)), role: optional(text(128)), email: optional(email) }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'edit the credits of');
    const credit = await loadCredit(ctx.store, video, ctx.path.credit_id);
    const patch = stripUndefined({ ...ctx.params, modified_time: isoTime(ctx.now()) });
    const saved = (await ctx.store.update<CreditRecord>('credits', credit.id, patch))!;
    return updated(ctx, await representOneCredit(ctx, video, saved), 'credit');
  },
});

export const deleteCredit = operation({
  id: 'videos.credits.delete',
  summary: 'Remove a credit from a video (its creator or the credited user)',
  method: 'DELETE',
  paths: ['/videos/{video_id}/credits/{credit_id}'],
  scope: 'edit',
  params: object({ password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const credit = await loadCredit(ctx.store, video, ctx.path.credit_id);
    const caller = ctx.principal.user?.id;
    if (caller !== credit.creator_id && caller !== credit.user_id) {
      throw badRequest('Only the user who added the credit or the credited user may remove it.');
    }
    await ctx.store.delete('credits', credit.id);
    await ctx.store.increment('videos', video.id, 'credits_total', -1);
    await creditRemoved(ctx.store, credit);
    return noContent();
  },
});

export const creditOperations = [createCredit, listCredits, getCredit, updateCredit, deleteCredit];

/** Credit representations of one video's credits, the credited users loaded in one query. */
async function representCredits(ctx: Context<unknown>, video: VideoRecord, credits: CreditRecord[]): Promise<Record<string, unknown>[]> {
  if (credits.length === 0) return [];
  const ids = [...new Set(credits.map((c) => c.user_id))];
  const { items } = await ctx.store.find<UserRecord>('users', { where: isIn('id', ids) });
  const users = new Map(items.map((u) => [u.id, u]));
  const rc = representContext(ctx);
  return credits.map((c) => representCredit(c, users.get(c.user_id)!, video, rc));
}

const representOneCredit = async (ctx: Context<unknown>, video: VideoRecord, credit: CreditRecord): Promise<Record<string, unknown>> =>
  (await representCredits(ctx, video, [credit]))[0];
