import type { CollectionSchema, Schema } from '../store/schema-types';
import { mirrorVideo, publicListIndexes } from './video-mirror';

/** A channel↔user membership: unique per pair, listed by channel and by user, newest first. */
const channelUser: CollectionSchema = {
  id: 'auto',
  fields: { channel_id: 'string', user_id: 'string', created_time: 'string' },
  indexes: [['channel_id', 'created_time'], ['user_id', 'created_time']],
  unique: [['channel_id', 'user_id']],
};

/** Channel lists sort by every Clip sort (SPEC.md, GET /channels/{channel_id}/videos). */
const channelMirror = mirrorVideo(['embeddable', 'name', 'created_time', 'modified_time', 'duration', 'plays', 'likes_total', 'comments_total']);

export const channelCollections: Schema = {
  channels: {
    id: 'auto',
    fields: {
      user_id: 'string',
      name: 'text',
      description: 'text',
      link: 'string',
      privacy_view: 'string',
      featured: 'boolean',
      followers_total: 'integer',
      videos_total: 'integer',
      created_time: 'string',
    },
    indexes: [['name'], ['created_time'], ['followers_total'], ['videos_total'], ['privacy_view', 'created_time'], ['featured', 'created_time']],
    unique: [['link']],
    search: [['name'], ['description']],
  },
  channel_followers: channelUser,
  /** The owner has a row too. */
  channel_moderators: channelUser,
  /** The view list of a `users` channel. */
  channel_access: channelUser,
  /** A video in a channel; the rows mirror their video's fields for the channel's list of videos. */
  channel_videos: {
    id: 'auto',
    fields: { channel_id: 'string', video_id: 'string', position: 'integer', created_time: 'string', ...channelMirror.fields },
    indexes: [
      ['channel_id', 'created_time desc'],
      ['channel_id', 'position'],
      ['video_id'],
      // The channel's own order (when added) as anybody sees it, then the videos' dates, plays and names.
      ['channel_id', 'video_privacy_view', 'created_time desc'],
      ...publicListIndexes('channel_id', ['created_time desc', 'plays desc', 'name']),
    ],
    unique: [['channel_id', 'video_id']],
    mirror: channelMirror.mirror,
  },
  channel_categories: {
    id: 'auto',
    fields: { channel_id: 'string', category: 'string', created_time: 'string' },
    indexes: [['category', 'created_time']],
    unique: [['channel_id', 'category']],
  },
};
