import type { Schema } from '../store/schema-types';

/** Collections of the people family (records in domain/people-records.ts). */
export const peopleCollections: Schema = {
  /** When each user last wrote through the API; `id` is the user's id. Drives `filter=online`. */
  user_activity: {
    id: 'text',
    fields: { last_active_time: 'string' },
    indexes: [['last_active_time']],
  },
  /** One row per follow a user made, kept for the follow rate limiter's window. */
  follow_log: {
    id: 'auto',
    fields: { user_id: 'string', created_time: 'string' },
    indexes: [['user_id', 'created_time']],
  },
};
