import { object } from 'superstruct';
import { ApiError, forbidden, invalidField } from '../engine/errors';
import { newUploadSecret } from '../uploads/uploads';
import { uploadId } from '../media/upload-links';
import { by, embeddableFilter, newest, listParams, listReply, orderOf, pageOf, type ListParams } from '../engine/list';
import { created, ok, operation } from '../engine/operation';
import { since } from '../engine/versions';
import { targetUser } from '../domain/users';
import { representContext } from './represent-context';
import { representVideos } from './represent-videos';
import { listableVideos } from '../domain/visibility';
import { listFilter } from '../domain/viewer-filters';
import { checkVideoRules, newVideo, videoPatch } from '../domain/video-write';
import { uploadFields, videoFields } from '../domain/video-fields';
import type { VideoRecord, UserRecord } from '../records';
import { and, eq } from '../store/filters';
import { matching } from '../store/search';
import { representVideo } from '../representations/video';
import { recordActivity } from '../domain/activities';
import { reserveUpload } from '../domain/upload-quota';
import { enqueueGiveUp } from '../uploads/abort-upload-job';

export const createVideo = operation({
  id: 'users.videos.create',
  summary:
    "Create a video and start its upload. 201 with the Clip (200 for a tus attempt, in every version, as the hosted API and its SDKs expect: a departure from SPEC.md's 201).",
  method: 'POST',
  paths: ['/me/videos', '/users/{user_id}/videos'],
  scope: 'upload',
  params: object({ ...videoFields, ...uploadFields }),
  async handle(ctx) {
    const owner = await targetUser(ctx);
    if (owner.id !== ctx.principal.user?.id) throw forbidden("Videos can only be uploaded to the caller's own account.");
    const { upload, type, link, redirect_url, ...fields } = ctx.params;
    const clipAnswer = since(ctx.version, 'clipOnVideoCreate');
    // 3.4 removed `type`, `link` and `redirect_url` in favour of upload.* (SPEC.md, Versioning 3.4).
    if (clipAnswer && type !== undefined) throw invalidField('type', 'is not supported; send upload.approach instead');
    if (clipAnswer && link !== undefined) throw invalidField('link', 'is not supported; send upload.link instead');
    if (clipAnswer && redirect_url !== undefined) throw invalidField('redirect_url', 'is not supported; send upload.redirect_url instead');
    const approach = upload?.approach ?? (type !== undefined ? legacyApproach(type) : null);
    const uploadLink = upload?.link ?? link ?? null;
    if (approach === 'pull' && !uploadLink) throw invalidField('upload.link', 'is required when upload.approach is pull');
    const declared = upload?.size ?? null;
    if (declared !== null && declared > ctx.config.uploadMaxBytes) {
      throw new ApiError(413, 2204, 'The video is too large.', `upload.size ${declared} exceeds the largest file accepted, ${ctx.config.uploadMaxBytes} bytes.`, [
        { field: 'upload.size', error_code: 2204, error: 'Too large.', developer_message: `At most ${ctx.config.uploadMaxBytes} bytes.` },
      ]);
    }
    checkVideoRules(ctx, owner, fields, null);
    // Without an approach there is no link, so nothing could ever arrive to use the space.
    const held = approach === null ? {} : await reserveUpload(ctx.store, owner.id, declared, ctx.config.uploadQuotaBytes);
    const base = newVideo(owner, ctx.now());
    const doc = { ...base, ...(await videoPatch(base, fields, ctx.now())) };
    doc.upload = { approach, link: uploadLink, redirect_url: upload?.redirect_url ?? redirect_url ?? null, size: declared, status: 'in_progress', ...held };
    // The upload link is a capability: unguessable, for this one upload, expiring.
    if (approach !== null) Object.assign(doc.upload, newUploadSecret(ctx.now(), ctx.config.uploadLinkTtlSeconds));
    if (doc.privacy_view === 'password' && !doc.password_hash) doc.password_hash = owner.password_hash;
    const video = await ctx.store.insert<VideoRecord>('videos', doc);
    if (video.upload.secret && video.upload.expires) await enqueueGiveUp(ctx.store, uploadId(video.id, video.upload.secret), video.upload.expires, ctx.now());
    const saved = await ctx.store.increment<UserRecord>('users', owner.id, 'videos_total', 1);
    await recordActivity(ctx.store, { type: 'uploads', video_id: video.id, user_id: owner.id }, ctx.now());
    const clip = representVideo(video, saved!, representContext(ctx));
    // The hosted API answers a tus attempt 200, and vimeo.py and vimeo.php refuse any other status (issue 22).
    const reply = approach === 'tus' ? ok(clip, 'video') : created(clip, 'video');
    // A pull: the transport fetches upload.link once this is committed.
    if (approach === 'pull' && uploadLink && video.upload.secret) reply.tasks = [{ kind: 'pull', upload: uploadId(video.id, video.upload.secret), link: uploadLink }];
    return reply;
  },
});

/** Before 3.4 `type` named the approach: streaming, post, pull (and tus). */
function legacyApproach(type: string): string {
  if (!['streaming', 'post', 'pull', 'tus'].includes(type)) throw invalidField('type', 'must be one of streaming, post, pull, tus');
  return type;
}

const sorts = {
  alphabetical: by('name', 'asc'),
  comments: by('comments_total', 'desc'),
  date: newest('created_time'),
  default: newest('created_time'),
  duration: by('duration', 'desc'),
  likes: by('likes_total', 'desc'),
  modified_time: by('modified_time', 'desc'),
  plays: by('plays', 'desc'),
};
type Sort = keyof typeof sorts;

export const listUserVideos = operation({
  id: 'users.videos.list',
  summary: "List a user's videos",
  method: 'GET',
  paths: ['/me/videos', '/users/{user_id}/videos'],
  params: object(
    listParams({ sort: Object.keys(sorts) as Sort[], filter: ['embeddable', 'playable'] as const, query: true, filterEmbeddable: true }),
  ),
  async handle(ctx) {
    const owner = await targetUser(ctx);
    const p = ctx.params as ListParams<Sort, 'embeddable' | 'playable'>;
    const page = pageOf(p);
    const embeddable = embeddableFilter(p);
    const query = p.query?.trim();
    const viewer = ctx.principal.user;
    const listed = () =>
      and(listableVideos(viewer, owner.id), embeddable === undefined ? undefined : eq('embeddable', embeddable), p.filter === 'playable' ? eq('status', 'available') : undefined);
    // A search's condition is its own; the list's is shared per viewer (viewer-filters.ts listFilter).
    const where = query
      ? and(listed(), matching(query))
      : listFilter(viewer, `videos\u0000${owner.id}\u0000${embeddable}\u0000${p.filter}`, listed);
    const result = await ctx.store.find<VideoRecord>('videos', {
      where,
      orderBy: orderOf(sorts, p.sort ?? 'default', p.direction),
      offset: page.offset,
      limit: page.limit,
    });
    const latest = await ctx.store.findOne<VideoRecord>('videos', eq('user_id', owner.id), by('modified_time', 'desc'));
    return listReply(ctx, page, result.total, await representVideos(ctx, result.items), 'video', latest?.modified_time ?? null);
  },
});

export const userVideoOperations = [createVideo, listUserVideos];
