import { invalidField, notFound } from '../engine/errors';
import type { Store } from '../store/store';
import { and, eq } from '../store/filters';
import type { VideoRecord } from '../records';
import type { ChapterRecord } from '../records/chapter';
import { findById } from './lookup';

/** A video's chapters, earliest first (the order they play in). */
export const chaptersOf = (store: Store, videoId: string, page: { offset?: number; limit?: number } = {}) =>
  store.find<ChapterRecord>('chapters', { where: eq('video_id', videoId), orderBy: [{ field: 'timecode', direction: 'asc' }], ...page });

/** A chapter of `video` (404 when missing or another video's). */
export async function loadChapter(store: Store, video: VideoRecord, id: string): Promise<ChapterRecord> {
  const chapter = await findById<ChapterRecord>(store, 'chapters', id);
  if (!chapter || chapter.video_id !== video.id) throw notFound('chapter');
  return chapter;
}

/**
 * 400 naming `timecode` when it lies at or beyond the end of the video, or another chapter of the
 * video (not `self`) starts there. A duration of 0 means the video is not transcoded yet, so any
 * timecode may still be right (as a picture's `time`).
 */
export async function assertTimecode(store: Store, video: VideoRecord, timecode: number, self: string | null = null): Promise<void> {
  if (video.duration > 0 && timecode >= video.duration) {
    throw invalidField('timecode', `must be before the end of the video (${video.duration} seconds)`);
  }
  const { items } = await store.find<ChapterRecord>('chapters', { where: and(eq('video_id', video.id), eq('timecode', timecode)), limit: 1 });
  if (items.length > 0 && items[0].id !== self) throw invalidField('timecode', `another chapter of this video starts at ${timecode} seconds`);
}
