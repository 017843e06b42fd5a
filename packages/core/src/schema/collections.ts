import type { Schema } from '../store/schema-types';

/**
 * Every collection core stores, with the fields it filters and sorts on. Drivers build tables
 * and indexes from this; a family that needs a collection adds it here.
 */
export const schema: Schema = {
  users: {
    id: 'auto',
    fields: { name: 'text', link: 'string', created_time: 'string', videos_total: 'integer', followers_total: 'integer' },
    indexes: [['created_time'], ['followers_total'], ['videos_total']],
    unique: [['link']],
  },
  tokens: {
    id: 'text',
    fields: { user_id: 'string', created_time: 'string' },
  },
  videos: {
    id: 'auto',
    fields: {
      user_id: 'string',
      name: 'text',
      description: 'text',
      privacy_view: 'string',
      embeddable: 'boolean',
      status: 'string',
      created_time: 'string',
      modified_time: 'string',
      duration: 'number',
      plays: 'integer',
      likes_total: 'integer',
      comments_total: 'integer',
      parent_folder: 'string',
    },
    indexes: [
      ['user_id', 'created_time'],
      ['user_id', 'name'],
      ['user_id', 'modified_time'],
      ['user_id', 'duration'],
      ['user_id', 'plays'],
      ['user_id', 'likes_total'],
      ['user_id', 'comments_total'],
      ['privacy_view', 'created_time'],
      // What others see of a user's videos (listableVideos), newest first.
      ['user_id', 'privacy_view', 'created_time'],
    ],
  },
};
