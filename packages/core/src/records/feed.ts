/** The `type` values of feed items (SPEC.md, Feed). */
export const activityTypes = [
  'appears',
  'category_featured',
  'channel',
  'facebook_feed',
  'following',
  'group',
  'likes',
  'ondemand_publish',
  'share',
  'tagged_with',
  'twitter_timeline',
  'uploads',
] as const;
export type ActivityType = (typeof activityTypes)[number];

/**
 * Something that happened to a video, for the feeds it reaches (domain/activities.ts says whose).
 * `user_id` is the user behind it; `subject` the tag word, category slug, channel, group or
 * On Demand page id for the types about one; `seq` orders activities as they were recorded.
 */
export type ActivityRecord = {
  id: string;
  type: ActivityType;
  video_id: string;
  user_id: string;
  subject: string | null;
  seq: number;
  created_time: string;
};

/** A category a user follows (`category` is its slug). */
export type CategoryFollowRecord = { id: string; user_id: string; category: string; name: string; created_time: string };
