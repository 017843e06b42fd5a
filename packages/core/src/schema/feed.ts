import type { Schema } from '../store/schema-types';

/** Collections of the feed family (records in domain/feed-records.ts). */
export const feedCollections: Schema = {
  /** Feed events, newest last by `seq`; `subject` is the tag, category, channel… behind one. */
  activities: {
    id: 'auto',
    fields: { type: 'string', video_id: 'string', user_id: 'string', subject: 'string', seq: 'integer', created_time: 'string' },
    // An unlike's withdrawal names video, type and user (and subject IS NULL): two of them only, and
    // SQLite, without statistics, weighed the subject index the same and walked every event without one.
    indexes: [['seq'], ['video_id', 'type', 'user_id'], ['user_id', 'type', 'seq'], ['subject', 'type', 'seq']],
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
