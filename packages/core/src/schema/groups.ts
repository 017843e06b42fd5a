import type { Schema } from '../store/schema-types';

/** Groups, who belongs to them and which videos are in them (records in domain/group-records.ts). */
export const groupCollections: Schema = {
  groups: {
    id: 'auto',
    fields: {
      user_id: 'string',
      name: 'text',
      description: 'text',
      privacy_view: 'string',
      featured: 'boolean',
      created_time: 'string',
      members_total: 'integer',
      videos_total: 'integer',
    },
    indexes: [['privacy_view', 'created_time'], ['featured', 'created_time'], ['name'], ['members_total'], ['videos_total']],
    search: [['name'], ['description']],
  },
  group_members: {
    id: 'auto',
    fields: { group_id: 'string', user_id: 'string', role: 'string', created_time: 'string' },
    indexes: [['group_id', 'created_time'], ['group_id', 'role', 'created_time'], ['user_id', 'role']],
    unique: [['group_id', 'user_id']],
  },
  group_videos: {
    id: 'auto',
    fields: { group_id: 'string', video_id: 'string', status: 'string', created_time: 'string' },
    indexes: [['group_id', 'status', 'video_id'], ['video_id']],
    unique: [['group_id', 'video_id']],
  },
};
