import { object, optional, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation, type Context } from '../engine/operation';
import { since } from '../engine/versions';
import { loadOwnedVideo } from '../domain/owned-video';
import { addTags, readTagList, readTagWord, rejectParameters, removeTag } from '../domain/tags';
import { memberVideosPage, onMirror, visibleMembers, type VideoMembership } from '../domain/video-lists';
import { loadVisibleVideo } from '../domain/videos';
import { representVideos } from './represent-videos';
import type { TagRecord } from '../records';
import { representTag } from '../representations/tag';

const viewParams = object({ password: optional(size(string(), 1, 128)) });

export const listVideoTags = operation({
  id: 'videos.tags.list',
  summary: "List a video's tags, in the order they were added",
  method: 'GET',
  paths: ['/videos/{video_id}/tags'],
  params: viewParams,
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    // At most 20 tags, kept on the video itself: always one page.
    return listReply(ctx, pageOf({}), video.tags.length, video.tags.map((t) => representTag(t)), 'tag');
  },
});

export const addVideoTags = operation({
  id: 'videos.tags.add',
  summary: 'Add tags to a video (the body is a JSON list of {"tag": …} or {"name": …}); tags already on it stay as they are',
  method: 'PUT',
  paths: ['/videos/{video_id}/tags'],
  scope: 'edit',
  async handle(ctx) {
    const words = readTagList(ctx);
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'tag');
    const saved = await addTags(ctx.store, video, words, ctx.now());
    const body = saved.tags.map((t) => representTag(t));
    return since(ctx.version, 'videoTagsOk') ? ok(body, 'tag') : created(body, 'tag');
  },
});

export const addVideoTag = operation({
  id: 'videos.tags.put',
  summary: 'Add one tag to a video (nothing changes when it is already there)',
  method: 'PUT',
  paths: ['/videos/{video_id}/tags/{word}'],
  scope: 'edit',
  async handle(ctx) {
    rejectParameters(ctx);
    const word = readTagWord(ctx.path.word, 'word');
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'tag');
    await addTags(ctx.store, video, [word], ctx.now());
    return noContent();
  },
});

export const checkVideoTag = operation({
  id: 'videos.tags.check',
  summary: 'Check that a video carries a tag (204), 404 when it does not',
  method: 'GET',
  paths: ['/videos/{video_id}/tags/{word}'],
  params: viewParams,
  async handle(ctx) {
    rejectParameters(ctx, ['password']);
    const { canonical } = readTagWord(ctx.path.word, 'word');
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    if (!video.tags.some((t) => t.canonical === canonical)) throw notFound('tag');
    return noContent();
  },
});

export const removeVideoTag = operation({
  id: 'videos.tags.delete',
  summary: 'Take a tag off a video (nothing changes when it is not there)',
  method: 'DELETE',
  paths: ['/videos/{video_id}/tags/{word}'],
  scope: 'edit',
  async handle(ctx) {
    rejectParameters(ctx);
    const { canonical } = readTagWord(ctx.path.word, 'word');
    const video = await loadOwnedVideo(ctx, ctx.path.video_id, 'untag');
    await removeTag(ctx.store, video, canonical, ctx.now());
    return noContent();
  },
});

/** The tag a `/tags/{word}` path names (404 when nobody has used it). */
async function loadTag(ctx: Context<unknown>): Promise<TagRecord> {
  const { canonical } = readTagWord(ctx.path.word, 'word');
  const tag = await ctx.store.get<TagRecord>('tags', canonical);
  if (!tag) throw notFound('tag');
  return tag;
}

export const getTag = operation({
  id: 'tags.get',
  summary: 'Get a tag, with the number of videos carrying it that the caller may see',
  method: 'GET',
  paths: ['/tags/{word}'],
  async handle(ctx) {
    const tag = await loadTag(ctx);
    const total = since(ctx.version, 'connections') ? await ctx.store.count('video_tags', visibleMembers(ctx.principal.user, tagged(tag))) : undefined;
    return ok(representTag({ name: tag.name, canonical: tag.id }, total), 'tag');
  },
});

/** The rows of a tag's list of videos. */
const tagged = (tag: TagRecord): VideoMembership => ({ collection: 'video_tags', field: 'tag', id: tag.id });

// The videos' fields, read from the tag rows' mirrored copies.
const sorts = onMirror({
  created_time: by('created_time', 'desc'),
  duration: by('duration', 'desc'),
  name: by('name', 'asc'),
});
type Sort = keyof typeof sorts;

export const listTagVideos = operation({
  id: 'tags.videos.list',
  summary: 'List the videos carrying a tag that the caller may see',
  method: 'GET',
  paths: ['/tags/{word}/videos'],
  params: object(listParams({ sort: Object.keys(sorts) as Sort[], query: true })),
  async handle(ctx) {
    const tag = await loadTag(ctx);
    const p = ctx.params as ListParams<Sort>;
    const page = pageOf(p);
    const result = await memberVideosPage(ctx, p, tagged(tag), orderOf(sorts, p.sort ?? 'created_time', p.direction), page);
    return listReply(ctx, page, result.total, await representVideos(ctx, result.items), 'video');
  },
});

export const tagOperations = [listVideoTags, addVideoTags, addVideoTag, checkVideoTag, removeVideoTag, getTag, listTagVideos];
