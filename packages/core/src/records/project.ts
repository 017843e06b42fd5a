/** A project (folder) of a user's own videos; a video is in at most one, named by its `parent_folder`. */
export type ProjectRecord = {
  id: string;
  user_id: string;
  name: string;
  /** The videos whose `parent_folder` is this project, kept in step in the same transaction. */
  videos_total: number;
  created_time: string;
  modified_time: string;
};
