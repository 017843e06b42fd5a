import type { CommentRecord } from '../records/comment';
import type { UserRecord } from '../records';
import { since } from '../engine/versions';
import { connection, resourceKey, type RepresentContext } from './common';
import { representUserSummary } from './user';

export const commentUri = (comment: CommentRecord): string => `/videos/${comment.video_id}/comments/${comment.id}`;

/**
 * The Comment representation; `author` is the comment's user. Replies go one level deep, so a
 * reply's own replies connection is always empty and cannot be posted to.
 */
export function representComment(comment: CommentRecord, author: UserRecord, ctx: RepresentContext): Record<string, unknown> {
  const uri = commentUri(comment);
  const reply = comment.parent_id !== null;
  const out: Record<string, unknown> = {
    uri,
    type: reply ? 'reply' : 'comment',
    text: comment.text,
    link: `${ctx.baseUrl}/videos/${comment.video_id}#comment_${comment.id}`,
    created_on: comment.created_time,
    user: representUserSummary(author, ctx),
    resource_key: resourceKey('comment', comment.id),
  };
  if (since(ctx.version, 'connections')) {
    out.metadata = { connections: { replies: connection(`${uri}/replies`, comment.replies_total, reply ? ['GET'] : ['GET', 'POST']) } };
  }
  return out;
}
