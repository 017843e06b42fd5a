import { object, optional, size, string } from 'superstruct';
import { forbidden, invalidField } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation, updated, type Context, type Reply } from '../engine/operation';
import { assertMayComment, assertNotSpam, commentCodes, commentText, loadComment } from '../domain/comments';
import type { CommentRecord } from '../records/comment';
import { representContext } from './represent-context';
import { loadVisibleVideo } from '../domain/videos';
import { pathChannel } from '../domain/channel-videos';
import type { UserRecord } from '../records';
import { representComment } from '../representations/comment';
import { isoTime } from '../support/time';
import { and, eq, isIn } from '../store/filters';
import { matching } from '../store/search';

/** Every comment operation answers 401 with 8003, and 8000 before 3.4 (SPEC.md, Errors). */
const family = { earlierInvalidCredentials: { code: 8000, until: 'commentsInvalidCredentials8003' } } as const;

/** The password of a password-protected video, as for GET /videos/{video_id}. */
const password = optional(size(string(), 1, 128));
const viewParams = object({ password });
const writeParams = object({ text: optional(string()), password });

/** The caller of an operation with a scope: the engine has already refused anonymous callers. */
const caller = (ctx: Context<unknown>): UserRecord => ctx.principal.user as UserRecord;

/** Adds a comment, or with `parentId` a reply to a top-level comment; the video counts both. */
async function addComment(ctx: Context<{ text?: string; password?: string }>, parentId?: string): Promise<Reply> {
  const text = commentText(ctx.params.text);
  const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
  const parent = parentId === undefined ? null : await loadComment(ctx.store, video, parentId);
  // Threads are one level deep, as on the platform SPEC.md describes.
  if (parent?.parent_id) throw invalidField('comment_id', 'names a reply; replies can only be made to top-level comments');
  const user = caller(ctx);
  await assertMayComment(ctx.store, video, user);
  assertNotSpam(ctx, text);
  const comment = await ctx.store.insert<CommentRecord>('comments', {
    video_id: video.id,
    user_id: user.id,
    parent_id: parent?.id ?? null,
    text,
    created_time: isoTime(ctx.now()),
    replies_total: 0,
  });
  await ctx.store.increment('videos', video.id, 'comments_total', 1);
  if (parent) await ctx.store.increment('comments', parent.id, 'replies_total', 1);
  return created(representComment(comment, user, representContext(ctx)), 'comment');
}

export const createComment = operation({
  ...family,
  id: 'videos.comments.create',
  summary: 'Comment on a video',
  method: 'POST',
  paths: ['/videos/{video_id}/comments', '/channels/{channel_id}/videos/{video_id}/comments'],
  scope: 'interact',
  params: writeParams,
  async handle(ctx) {
    await pathChannel(ctx);
    return addComment(ctx);
  },
});

const commentSorts = { date: by('created_time', 'desc') };

export const listComments = operation({
  ...family,
  id: 'videos.comments.list',
  summary: "List a video's comments (top-level; replies are under each comment), newest first",
  method: 'GET',
  paths: ['/videos/{video_id}/comments'],
  params: object({ ...listParams({ query: true }), password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const p = ctx.params as ListParams;
    const page = pageOf(p);
    const query = p.query?.trim();
    const result = await ctx.store.find<CommentRecord>('comments', {
      where: and(eq('video_id', video.id), eq('parent_id', null), matching(query)),
      orderBy: orderOf(commentSorts, 'date', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representComments(ctx, result.items), 'comment');
  },
});

export const getComment = operation({
  ...family,
  id: 'videos.comments.get',
  summary: 'Get a comment or reply',
  method: 'GET',
  paths: ['/videos/{video_id}/comments/{comment_id}'],
  params: viewParams,
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const comment = await loadComment(ctx.store, video, ctx.path.comment_id);
    return ok((await representComments(ctx, [comment]))[0], 'comment');
  },
});

export const updateComment = operation({
  ...family,
  id: 'videos.comments.update',
  summary: 'Edit the text of a comment the caller wrote',
  method: 'PATCH',
  paths: ['/videos/{video_id}/comments/{comment_id}'],
  scope: 'edit',
  params: writeParams,
  async handle(ctx) {
    const text = commentText(ctx.params.text);
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const comment = await loadComment(ctx.store, video, ctx.path.comment_id);
    const user = caller(ctx);
    if (comment.user_id !== user.id) throw forbidden('Only the author of a comment may edit it.', commentCodes.notAuthorEdit);
    await assertMayComment(ctx.store, video, user);
    assertNotSpam(ctx, text);
    const saved = await ctx.store.update<CommentRecord>('comments', comment.id, { text });
    return updated(ctx, representComment(saved!, user, representContext(ctx)), 'comment');
  },
});

export const deleteComment = operation({
  ...family,
  id: 'videos.comments.delete',
  summary: "Delete a comment with its replies (its author or the video's owner)",
  method: 'DELETE',
  paths: ['/videos/{video_id}/comments/{comment_id}'],
  scope: 'delete',
  params: viewParams,
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    // A comment deleted before (with its thread, or on its own) answers 404/5000 like a missing one.
    const comment = await loadComment(ctx.store, video, ctx.path.comment_id);
    const user = caller(ctx);
    // The owner moderates the conversation on their video.
    if (comment.user_id !== user.id && video.user_id !== user.id) {
      throw forbidden("Only the author of a comment or the video's owner may delete it.", commentCodes.notAuthorDelete);
    }
    const replies = await ctx.store.deleteWhere('comments', eq('parent_id', comment.id));
    await ctx.store.delete('comments', comment.id);
    await ctx.store.increment('videos', video.id, 'comments_total', -(1 + replies));
    if (comment.parent_id) await ctx.store.increment('comments', comment.parent_id, 'replies_total', -1);
    return noContent();
  },
});

export const createReply = operation({
  ...family,
  id: 'videos.comments.replies.create',
  summary: 'Reply to a comment',
  method: 'POST',
  paths: ['/videos/{video_id}/comments/{comment_id}/replies'],
  scope: 'interact',
  params: writeParams,
  handle: (ctx) => addComment(ctx, ctx.path.comment_id),
});

export const listReplies = operation({
  ...family,
  id: 'videos.comments.replies.list',
  summary: 'List the replies to a comment, oldest first',
  method: 'GET',
  paths: ['/videos/{video_id}/comments/{comment_id}/replies'],
  params: object({ ...listParams({ direction: false }), password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const comment = await loadComment(ctx.store, video, ctx.path.comment_id);
    const page = pageOf(ctx.params as ListParams);
    const result = await ctx.store.find<CommentRecord>('comments', {
      where: eq('parent_id', comment.id),
      // A thread reads in the order it was written.
      orderBy: by('created_time', 'asc'),
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, await representComments(ctx, result.items), 'comment');
  },
});

export const commentOperations = [createComment, listComments, getComment, updateComment, deleteComment, createReply, listReplies];

/** Comment representations for a page of comments, their authors loaded in one query. */
export async function representComments(ctx: Context<unknown>, comments: CommentRecord[]): Promise<Record<string, unknown>[]> {
  if (comments.length === 0) return [];
  const { items } = await ctx.store.find<UserRecord>('users', { where: isIn('id', [...new Set(comments.map((c) => c.user_id))]) });
  const authors = new Map(items.map((u) => [u.id, u]));
  const rc = representContext(ctx);
  return comments.map((c) => representComment(c, authors.get(c.user_id)!, rc));
}
