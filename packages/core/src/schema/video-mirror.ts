import type { FieldType, Mirror } from '../store/schema-types';

/** The videos collection's columns (collections.ts), and the types their mirrored copies take. */
export const videoFields = {
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
  preset_id: 'string',
} as const satisfies Record<string, FieldType>;

/**
 * Video fields a membership of videos (a tag's, a channel's) can mirror on its rows, so its lists
 * are filtered by the visibility rule and sorted by the videos' fields through the membership's
 * own indexes instead of a join over every member: paging deep into a tag with 100,000 videos
 * reads one index range. Only memberships with a few rows per video mirror (a video has at most
 * 20 tags and sits in a few channels): every change of a mirrored field rewrites those rows, which
 * for likes (thousands of rows for a popular video, whose plays change all day) would cost more
 * than the lists gain.
 */
export type MirroredVideoField = keyof typeof videoFields;

/** The name a membership row gives a mirrored video field: `plays` → `video_plays`. */
export const videoField = (field: string): string => `video_${field}`;

/**
 * The declared copies (to spread into the membership's `fields`) and the `mirror` of a membership
 * whose `video_id` names a video: `sorted` are the fields its lists sort by, on top of those the
 * visibility rule reads.
 */
export function mirrorVideo(sorted: readonly MirroredVideoField[]): { fields: Record<string, FieldType>; mirror: Mirror } {
  const mirrored = [...new Set<MirroredVideoField>(['user_id', 'privacy_view', ...sorted])];
  return {
    fields: Object.fromEntries(mirrored.map((field) => [videoField(field), videoFields[field]])),
    mirror: { collection: 'videos', key: 'video_id', fields: Object.fromEntries(mirrored.map((field) => [videoField(field), field])) },
  };
}

/**
 * Indexes for a membership's public lists (what anybody sees, the usual traffic), one per sort:
 * `[listKey, video_privacy_view, video_<sort>]`, each sort as `'plays desc'` or `'name'`.
 */
export const publicListIndexes = (listKey: string, sorts: readonly string[]): string[][] =>
  sorts.map((sort) => [listKey, videoField('privacy_view'), videoField(sort)]);
