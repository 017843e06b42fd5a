import type { ChapterRecord } from '../records/chapter';
import type { FrameSource } from '../media/image-links';
import type { LinkAccess } from '../media/link-access';
import { resourceKey, type RepresentContext } from './common';
import { imageFields, pictureContent } from './picture';
import { videoUri } from './video';

export const chapterUri = (chapter: ChapterRecord): string => `${videoUri(chapter.video_id)}/chapters/${chapter.id}`;

/** Where a chapter's one thumbnail answers (GET). */
export const chapterThumbnailUri = (chapter: ChapterRecord): string => `${chapterUri(chapter)}/thumbnail`;

/**
 * A chapter's thumbnail, as a Picture: the frame at its timecode of the video's `frame` source
 * (the placeholder while the video has no file), in the sizes every thumbnail is served in;
 * `access` binds its links to a non-public video's access, as the video's own pictures are.
 */
export function representChapterThumbnail(chapter: ChapterRecord, ctx: RepresentContext, frame: FrameSource | null, access: LinkAccess | null): Record<string, unknown> {
  const { link, sizes } = imageFields(ctx, 'chapters', chapter.id, pictureContent(null, 'video', chapter.timecode, frame), 'video', null, access);
  return { uri: chapterThumbnailUri(chapter), active: true, type: 'chapter', time: chapter.timecode, link, sizes, resource_key: resourceKey('chapterthumbnail', chapter.id) };
}

/** The Chapter representation (the hosted API's 2024 spec): its one thumbnail is its active one. */
export function representChapter(chapter: ChapterRecord, ctx: RepresentContext, frame: FrameSource | null, access: LinkAccess | null): Record<string, unknown> {
  return {
    uri: chapterUri(chapter),
    title: chapter.title,
    timecode: chapter.timecode,
    active_thumbnail_uri: chapterThumbnailUri(chapter),
    thumbnails: [representChapterThumbnail(chapter, ctx, frame, access)],
    resource_key: resourceKey('chapter', chapter.id),
  };
}

/** `12.5` → `00:00:12.500`, a WebVTT timestamp. */
const vttTime = (seconds: number): string => {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/**
 * The chapters of a video as a WebVTT chapters file: one cue per chapter, from its timecode to the
 * next chapter's (the last to the end of the video; while the duration is unknown, one second on).
 */
export function chaptersVtt(chapters: readonly ChapterRecord[], duration: number): string {
  const cues = chapters.map((c, i) => {
    const end = chapters[i + 1]?.timecode ?? Math.max(duration, c.timecode + 1);
    // Cue text is markup on one line here: escaped, so `<`, `&` and `-->` stay text.
    const title = c.title.replace(/\s+/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return `${c.id}\n${vttTime(c.timecode)} --> ${vttTime(end)}\n${title}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}
