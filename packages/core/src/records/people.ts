/** When a user last wrote through the API (`id` is the user's id). */
export type UserActivityRecord = { id: string; last_active_time: string };

/** One follow `user_id` made at `created_time`: the follow rate limiter counts these over its window. */
export type FollowLogRecord = { id: string; user_id: string; created_time: string };
