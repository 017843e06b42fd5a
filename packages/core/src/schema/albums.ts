import type { Schema } from '../store/schema-types';

/** Albums with their video memberships, and projects (folders); album logos live in `pictures`. */
export const albumCollections: Schema = {
  albums: {
    id: 'auto',
    fields: {
      user_id: 'string',
      name: 'text',
      description: 'text',
      privacy_view: 'string',
      created_time: 'string',
      modified_time: 'string',
      duration: 'number',
      videos_total: 'integer',
    },
    indexes: [['user_id', 'created_time'], ['user_id', 'name'], ['user_id', 'duration'], ['user_id', 'videos_total']],
    search: [['name'], ['description']],
  },
  album_videos: {
    id: 'auto',
    fields: { album_id: 'string', video_id: 'string', position: 'integer', created_time: 'string' },
    indexes: [['album_id', 'position'], ['album_id', 'created_time'], ['video_id']],
    unique: [['album_id', 'video_id']],
  },
  projects: {
    id: 'auto',
    fields: { user_id: 'string', name: 'text', created_time: 'string', modified_time: 'string' },
    indexes: [['user_id', 'created_time'], ['user_id', 'modified_time'], ['user_id', 'name']],
  },
};
