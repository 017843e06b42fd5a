import type { TagWord } from './tag';

/** Who may see a channel: anybody, its moderators (the owner among them), or its moderators and a user list. */
export type ChannelPrivacy = 'anybody' | 'moderators' | 'users';

/** A channel as stored. Counters are kept in step, in the same transaction, by the operations that change them. */
export type ChannelRecord = {
  id: string;
  /** The owner; always one of the moderators. */
  user_id: string;
  name: string;
  description: string;
  /** Custom alias usable in place of the id in paths; unique when set. */
  link: string | null;
  privacy_view: ChannelPrivacy;
  /** Set by the service's staff (no endpoint sets it): `GET /channels?filter=featured`. */
  featured: boolean;
  /** At most 20, in the order added. */
  tags: TagWord[];
  /** Category slugs (rows in `channel_categories` too, for the category's channel list). */
  categories: string[];
  followers_total: number;
  videos_total: number;
  moderators_total: number;
  /** Users on the view list of a `users` channel. */
  privacy_users_total: number;
  created_time: string;
  modified_time: string;
};

/** A channel↔user membership (followers, moderators, view list): unique per pair. */
export type ChannelUserRecord = { id: string; channel_id: string; user_id: string; created_time: string };

/** A video in a channel: `created_time` is when it was added, `position` its place in the manual order. */
export type ChannelVideoRecord = {
  id: string;
  channel_id: string;
  video_id: string;
  /** Who added it. */
  user_id: string;
  position: number;
  created_time: string;
};

/** A category of a channel (`category` is a slug); the channel's `categories` array mirrors these rows. */
export type ChannelCategoryRecord = { id: string; channel_id: string; category: string; created_time: string };
