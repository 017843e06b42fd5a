import { min, number, object, optional, size, string, trimmed } from 'superstruct';
import { listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation, updated, type Context } from '../engine/operation';
import type { ChapterRecord } from '../records/chapter';
import { assertTimecode, chaptersOf, loadChapter } from '../domain/chapters';
import { stripUndefined } from '../domain/patch';
import { loadOwnedVideo } from '../domain/owned-video';
import { representContext } from './represent-context';
import { videoFields } from '../domain/video-fields';
import { loadVisibleVideo } from '../domain/videos';
import type { VideoRecord } from '../records';
import { representChapter, representChapterThumbnail } from '../representations/chapter';
import { pictureAccess } from '../media/link-access';
import { isoTime } from '../support/time';
import { frameSource } from '../media/image-links';

/** Chapters (the hosted API's 2024 spec): titled points of a video, each with the frame at its timecode. */

const kind = 'video.chapter';
const title = size(trimmed(string()), 1, 256);
const timecode = min(number(), 0);
const { password } = videoFields;

const represent = (ctx: Context<unknown>, video: VideoRecord, chapter: ChapterRecord) => {
  const rc = representContext(ctx);
  return representChapter(chapter, rc, frameSource(video), pictureAccess(video, rc.now));
};

export const createChapter = operation({
  id: 'videos.chapters.create',
  summary: 'Add a chapter to a video: a title at a timecode (seconds from the start) before its end, one chapter per timecode',
  method: 'POST',
  paths: ['/videos/{video_id}/chapters'],
  scope: 'edit',
  params: object({ title, timecode }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'add chapters to');
    await assertTimecode(ctx.store, video, ctx.params.timecode);
    const now = isoTime(ctx.now());
    // The collection's unique key (video, timecode) answers a concurrent duplicate with 400.
    const chapter = await ctx.store.insert<ChapterRecord>('chapters', { video_id: video.id, ...ctx.params, created_time: now, modified_time: now });
    return created(represent(ctx, video, chapter), kind);
  },
});

export const listChapters = operation({
  id: 'videos.chapters.list',
  summary: "List a video's chapters in timecode order",
  method: 'GET',
  paths: ['/videos/{video_id}/chapters'],
  params: object({ ...listParams({ direction: false }), password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const page = pageOf(ctx.params as ListParams);
    const result = await chaptersOf(ctx.store, video.id, { offset: page.offset, limit: page.limit });
    return listReply(ctx, page, result.total, result.items.map((c) => represent(ctx, video, c)), kind);
  },
});

export const getChapter = operation({
  id: 'videos.chapters.get',
  summary: 'Get a chapter of a video',
  method: 'GET',
  paths: ['/videos/{video_id}/chapters/{chapter_id}'],
  params: object({ password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    return ok(represent(ctx, video, await loadChapter(ctx.store, video, ctx.path.chapter_id)), kind);
  },
});

export const getChapterThumbnail = operation({
  id: 'videos.chapters.thumbnail.get',
  summary: "Get a chapter's thumbnail (its `active_thumbnail_uri`): the frame at its timecode",
  method: 'GET',
  paths: ['/videos/{video_id}/chapters/{chapter_id}/thumbnail'],
  params: object({ password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const chapter = await loadChapter(ctx.store, video, ctx.path.chapter_id);
    const rc = representContext(ctx);
    return ok(representChapterThumbnail(chapter, rc, frameSource(video), pictureAccess(video, rc.now)), 'picture');
  },
});

export const updateChapter = operation({
  id: 'videos.chapters.update',
  summary: "Edit a chapter's title or timecode",
  method: 'PATCH',
  paths: ['/videos/{video_id}/chapters/{chapter_id}'],
  scope: 'edit',
  params: object({ title: optional(title), timecode: optional(timecode) }),
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'edit the chapters of');
    const chapter = await loadChapter(ctx.store, video, ctx.path.chapter_id);
    if (ctx.params.timecode !== undefined) await assertTimecode(ctx.store, video, ctx.params.timecode, chapter.id);
    const saved = (await ctx.store.update<ChapterRecord>('chapters', chapter.id, stripUndefined({ ...ctx.params, modified_time: isoTime(ctx.now()) })))!;
    return updated(ctx, represent(ctx, video, saved), kind);
  },
});

export const deleteChapter = operation({
  id: 'videos.chapters.delete',
  summary: 'Delete a chapter of a video',
  method: 'DELETE',
  paths: ['/videos/{video_id}/chapters/{chapter_id}'],
  scope: 'edit',
  async handle(ctx) {
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'delete the chapters of');
    await ctx.store.delete('chapters', (await loadChapter(ctx.store, video, ctx.path.chapter_id)).id);
    // Its thumbnail is a frame kept with the video's other frames, removed with the video.
    return noContent();
  },
});

export const chapterOperations = [createChapter, listChapters, getChapter, getChapterThumbnail, updateChapter, deleteChapter];
