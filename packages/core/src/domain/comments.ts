import type { Store } from '../store/store';
import { where } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { ApiError, forbidden, invalidField, notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { findById } from './lookup';
import type { CommentRecord } from '../records/comment';

/** Comment codes of SPEC.md, Errors. */
export const commentCodes = {
  textMissing: 2207,
  spam: 3301,
  unverified: 3411,
  cannotComment: 3412,
  disabled: 3413,
  notAuthorEdit: 3414,
  notAuthorDelete: 3415,
} as const;

const maxTextLength = 10_000;

/** The comment a path names, on that video (404 otherwise). */
export async function loadComment(store: Store, video: VideoRecord, id: string): Promise<CommentRecord> {
  const comment = await findById<CommentRecord>(store, 'comments', id);
  if (!comment || comment.video_id !== video.id) throw notFound('comment');
  return comment;
}

/** The trimmed comment text: 400/2207 when missing or blank, 2204 when too long. */
export function commentText(text: string | undefined): string {
  const trimmed = text?.trim() ?? '';
  if (!trimmed) throw invalidField('text', 'is required and must not be empty', commentCodes.textMissing);
  if (trimmed.length > maxTextLength) throw invalidField('text', `must be at most ${maxTextLength} characters`);
  return trimmed;
}

/**
 * Whether `user` may write on `video` (SPEC.md, privacy.comments): `nobody` disables comments
 * for everyone, the owner included (3413); unverified users never comment (3411); `contacts`
 * admits the owner and the people the owner follows (3412 for anyone else).
 */
export async function assertMayComment(store: Store, video: VideoRecord, user: UserRecord): Promise<void> {
  if (video.privacy.comments === 'nobody') throw forbidden('Comments are disabled on this video.', commentCodes.disabled);
  if (user.verified === false) throw forbidden('Only verified users may comment.', commentCodes.unverified);
  if (video.privacy.comments !== 'contacts' || user.id === video.user_id) return;
  if (!(await store.findOne('follows', where({ user_id: video.user_id, target_id: user.id })))) {
    throw forbidden("Only people the video's owner follows may comment on it.", commentCodes.cannotComment);
  }
}

/** 403/3301 when the text holds a configured spam word or phrase as a whole word (case-insensitive). */
export function assertNotSpam(ctx: Context<unknown>, text: string): void {
  const hit = ctx.config.spamWords.find((word) => word.trim() && wholeWord(word.trim()).test(text));
  if (hit !== undefined) {
    throw new ApiError(403, commentCodes.spam, 'Your comment was flagged as spam.', 'The comment text contains a word the service treats as spam.');
  }
}

/** `word` not inside a longer word: neither side touches a letter or digit (any script). */
const wholeWord = (word: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');
