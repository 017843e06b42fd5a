import type { CollectionSchema, Schema } from '../store/schema-types';

/** A channel↔user membership: unique per pair, listed by channel and by user, newest first. */
const channelUser: CollectionSchema = {
  id: 'auto',
  fields: { channel_id: 'string', user_id: 'string', created_time: 'string' },
  indexes: [['channel_id', 'created_time'], ['user_id', 'created_time']],
  unique: [['channel_id', 'user_id']],
};

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
  },
  channel_followers: channelUser,
  /** The owner has a row too. */
  channel_moderators: channelUser,
  /** The view list of a `users` channel. */
  channel_access: channelUser,
  channel_videos: {
    id: 'auto',
    fields: { channel_id: 'string', video_id: 'string', position: 'integer', created_time: 'string' },
    indexes: [['channel_id', 'created_time'], ['channel_id', 'position'], ['video_id']],
    unique: [['channel_id', 'video_id']],
  },
  channel_categories: {
    id: 'auto',
    fields: { channel_id: 'string', category: 'string', created_time: 'string' },
    indexes: [['category', 'created_time']],
    unique: [['channel_id', 'category']],
  },
};
