import type { Schema } from '../store/schema-types';

/** A video's chapters: listed by timecode, one chapter per timecode. */
export const chapterCollections: Schema = {
  chapters: {
    id: 'auto',
    fields: { video_id: 'string', timecode: 'number', created_time: 'string' },
    indexes: [['video_id', 'timecode']],
    unique: [['video_id', 'timecode']],
  },
};
