import { boolean, enums, object, optional, partial, size, string, trimmed } from 'superstruct';
import { languages } from '../catalog/languages';
import { by, listParams, listReply, pageOf, type ListParams } from '../engine/list';
import { created, noContent, ok, operation } from '../engine/operation';
import { since } from '../engine/versions';
import { forbiddenOnInvalid } from '../domain/forbidden-params';
import { stripUndefined } from '../domain/patch';
import { assertEnabled, keepOneActive, loadTrack, loadTrackVideo, texttrackTypes } from '../domain/texttracks';
import { representContext } from './represent-context';
import { videoFields } from '../domain/video-fields';
import { loadVisibleVideo } from '../domain/videos';
import { pathChannel } from '../domain/channel-videos';
import type { TexttrackRecord } from '../records';
import { isoTime } from '../support/time';
import { representTexttrack } from '../representations/texttrack';
import { eq } from '../store/filters';
import { trackMediaPrefix } from '../domain/texttrack-files';

const kind = 'video.texttrack';
const newTrack = object({
  active: optional(boolean()),
  language: enums(languages as string[]),
  name: size(trimmed(string()), 1, 256),
  type: enums(texttrackTypes),
});
// SPEC.md answers errors in a text-track request with 403/2204, not 400.
const createInput = forbiddenOnInvalid(newTrack);
const editInput = forbiddenOnInvalid(partial(newTrack));
const { password } = videoFields;

export const createTexttrack = operation({
  id: 'videos.texttracks.create',
  summary: 'Add a text track (captions, subtitles…) to a video',
  method: 'POST',
  paths: ['/videos/{video_id}/texttracks', '/channels/{channel_id}/videos/{video_id}/texttracks'],
  scope: 'upload',
  params: createInput.shape,
  async handle(ctx) {
    await pathChannel(ctx);
    const { active = false, ...input } = createInput.read(ctx.params);
    const video = await loadTrackVideo(ctx, ctx.path.video_id, 'add text tracks to');
    const now = isoTime(ctx.now());
    const track = await ctx.store.insert<TexttrackRecord>('texttracks', {
      ...input,
      video_id: video.id,
      active,
      disabled: false,
      created_time: now,
      modified_time: now,
    });
    await keepOneActive(ctx.store, track);
    await ctx.store.increment('videos', video.id, 'texttracks_total', 1);
    return created(representTexttrack(track, video, representContext(ctx), ctx.now(), video.user_id), kind);
  },
});

export const listTexttracks = operation({
  id: 'videos.texttracks.list',
  summary: "List a video's text tracks, in the order they were added",
  method: 'GET',
  paths: ['/videos/{video_id}/texttracks'],
  params: object({ ...listParams({ direction: false }), password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    const page = pageOf(ctx.params as ListParams);
    const result = await ctx.store.find<TexttrackRecord>('texttracks', {
      where: eq('video_id', video.id),
      orderBy: by('created_time', 'asc'),
      offset: page.offset,
      limit: page.limit,
    });
    const rc = representContext(ctx);
    const now = ctx.now();
    return listReply(ctx, page, result.total, result.items.map((t) => representTexttrack(t, video, rc, now, video.user_id)), kind);
  },
});

export const getTexttrack = operation({
  id: 'videos.texttracks.get',
  summary: 'Get a text track of a video',
  method: 'GET',
  paths: ['/videos/{video_id}/texttracks/{texttrack_id}'],
  params: object({ password }),
  async handle(ctx) {
    const video = await loadVisibleVideo(ctx, ctx.path.video_id, ctx.params.password);
    return ok(representTexttrack(await loadTrack(ctx.store, video, ctx.path.texttrack_id), video, representContext(ctx), ctx.now(), video.user_id), kind);
  },
});

export const updateTexttrack = operation({
  id: 'videos.texttracks.update',
  summary: 'Edit a text track; activating it deactivates the other active track in its language',
  method: 'PATCH',
  paths: ['/videos/{video_id}/texttracks/{texttrack_id}'],
  scope: 'edit',
  params: editInput.shape,
  async handle(ctx) {
    const input = editInput.read(ctx.params);
    const video = await loadTrackVideo(ctx, ctx.path.video_id, 'edit the text tracks of');
    const track = await loadTrack(ctx.store, video, ctx.path.texttrack_id);
    assertEnabled(track);
    const saved = (await ctx.store.update<TexttrackRecord>('texttracks', track.id, stripUndefined({ ...input, modified_time: isoTime(ctx.now()) })))!;
    await keepOneActive(ctx.store, saved);
    // SPEC.md gives this PATCH 200 in every version (3.2's list of PATCHes that answered 204 omits text tracks).
    return ok(representTexttrack(saved, video, representContext(ctx), ctx.now(), video.user_id), kind);
  },
});

export const deleteTexttrack = operation({
  id: 'videos.texttracks.delete',
  summary: 'Delete a text track of a video',
  method: 'DELETE',
  paths: ['/videos/{video_id}/texttracks/{texttrack_id}'],
  scope: 'delete',
  async handle(ctx) {
    const video = await loadTrackVideo(ctx, ctx.path.video_id, 'delete the text tracks of');
    const track = await loadTrack(ctx.store, video, ctx.path.texttrack_id);
    assertEnabled(track);
    await ctx.store.delete('texttracks', track.id);
    await ctx.store.increment('videos', video.id, 'texttracks_total', -1);
    const reply = since(ctx.version, 'texttrackDeleteNoContent') ? noContent() : ok(representTexttrack(track, video, representContext(ctx), ctx.now(), video.user_id), kind);
    return { ...reply, discard: [trackMediaPrefix(track)] };
  },
});

export const texttrackOperations = [createTexttrack, listTexttracks, getTexttrack, updateTexttrack, deleteTexttrack];
