/** A comment on a video; a reply is a comment whose `parent_id` names a top-level comment. */
export type CommentRecord = {
  id: string;
  video_id: string;
  user_id: string;
  parent_id: string | null;
  text: string;
  created_time: string;
  /** Kept in step by the operations that add and delete replies. */
  replies_total: number;
};
