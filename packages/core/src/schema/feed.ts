import type { Schema } from '../store/schema-types';

/** Collections of the feed family (records in domain/feed-records.ts). */
export const feedCollections: Schema = {
  /** Feed events, newest last by `seq`; `subject` is the tag, category, channel… behind one. */
  activities: {
    id: 'auto',
    fields: { type: 'string', video_id: 'string', user_id: 'string', subject: 'string', seq: 'integer', created_time: 'string' },
    indexes: [['seq'], ['video_id', 'type'], ['user_id', 'type', 'seq'], ['subject', 'type', 'seq']],
    unindexed: ['created_time'],
  },
  /** `user_id` follows `category` (a slug); `name` is the category's name, for sorting. */
  category_follows: {
    id: 'auto',
    fields: { user_id: 'string', category: 'string', name: 'text', created_time: 'string' },
    indexes: [['user_id', 'created_time'], ['user_id', 'name']],
    unique: [['user_id', 'category']],
  },
};
