/**
 * The allowed values of a group's privacy settings. `view` and `join` take `members` to close the
 * group (SPEC.md, Group: such a group cannot be joined); `videos` says who adds videos: `all`
 * (anyone), `members`, or `moderators` (members may add, but their videos wait, pending, until
 * the group's owner approves them).
 */
export const groupPrivacyValues = {
  view: ['anybody', 'members'],
  join: ['anybody', 'members'],
  videos: ['all', 'members', 'moderators'],
  comment: ['all', 'members'],
  invite: ['all', 'members', 'moderators'],
  /** Represented and writable before 3.4 only (SPEC.md, Versioning 3.4). */
  forums: ['all', 'members'],
} as const;

type Values<K extends keyof typeof groupPrivacyValues> = (typeof groupPrivacyValues)[K][number];

export type GroupPrivacy = { [K in Exclude<keyof typeof groupPrivacyValues, 'view'>]: Values<K> };

/** A group as stored; the counters are kept in step by the operations that change them. */
export type GroupRecord = {
  id: string;
  /** The owner. */
  user_id: string;
  name: string;
  description: string;
  /** Indexed copy of privacy.view: who sees the group's videos and members and finds it listed. */
  privacy_view: Values<'view'>;
  privacy: GroupPrivacy;
  /** Set by an administrator (directly in the store); `GET /groups?filter=featured` lists these. */
  featured: boolean;
  members_total: number;
  /** Approved videos; pending ones are not counted. */
  videos_total: number;
  /** The last time the group's video list changed (a video added, approved or removed), for If-Modified-Since. */
  videos_modified_time: string;
  created_time: string;
  modified_time: string;
};

/** `owner` is the group's owner; `moderator` is a former owner, who still adds videos without approval. */
export type GroupRole = 'owner' | 'moderator' | 'member';
export const moderatorRoles: GroupRole[] = ['owner', 'moderator'];

export type GroupMemberRecord = { id: string; group_id: string; user_id: string; role: GroupRole; created_time: string };

/** A video in a group; `user_id` added it. Pending videos wait for the owner's approval. */
export type GroupVideoRecord = {
  id: string;
  group_id: string;
  video_id: string;
  user_id: string;
  status: 'pending' | 'approved';
  created_time: string;
  approved_time: string | null;
};
