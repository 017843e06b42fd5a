import { enums, integer, max, min, object, optional, pattern, size, string } from 'superstruct';
import { ApiError, forbidden, invalidField, notFound } from '../engine/errors';
import { created, ok, operation, type Context } from '../engine/operation';
import { since } from '../engine/versions';
import { findById } from '../domain/lookup';
import { loadOwnedVideo } from '../domain/owned-video';
import { httpUrl } from '../domain/video-fields';
import { representOne } from './represent-videos';
import type { VideoRecord, VideoVersionRecord } from '../records';
import { isoTime } from '../support/time';
import { representVideoVersion } from '../representations/video-version';
import { newUploadSecret } from '../uploads/uploads';
import { uploadId } from '../media/upload-links';
import { reserveUpload } from '../domain/upload-quota';
import { enqueueGiveUp } from '../uploads/abort-upload-job';

/** The video of a versions path, with the codes SPEC.md gives this family: 404/5012 missing or hidden, 403/3427 not the owner. */
async function versionedVideo(ctx: Context<unknown>, action: string): Promise<VideoRecord> {
  try {
    return await loadOwnedVideo(ctx, ctx.path.video_id, action);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) throw notFound('video', 5012);
    if (e instanceof ApiError && e.status === 403) throw forbidden(e.developerMessage, 3427);
    throw e;
  }
}

export const createVersion = operation({
  id: 'videos.versions.create',
  summary: 'Start uploading a new file for a video',
  method: 'POST',
  paths: ['/videos/{video_id}/versions'],
  scope: 'upload',
  params: object({
    file_name: pattern(size(string(), 1, 255), /\S/),
    upload: object({
      approach: enums(['post', 'pull', 'streaming', 'tus']),
      link: optional(httpUrl),
      // SPEC.md types it a string; digits as a string or an integer, in bytes.
      size: optional(max(min(integer(), 1), Number.MAX_SAFE_INTEGER)),
    }),
  }),
  async handle(ctx) {
    const { file_name, upload } = ctx.params;
    if (upload.approach !== 'tus' && !since(ctx.version, 'versionsAnyApproach')) {
      throw new ApiError(
        404,
        5013,
        'This is unavailable in the API version you asked for.',
        'Below API version 3.4, POST /videos/{video_id}/versions takes only upload.approach tus.',
      );
    }
    if (upload.approach === 'pull' && !upload.link) throw invalidField('upload.link', 'is required when upload.approach is pull');
    const video = await versionedVideo(ctx, 'add versions to');
    if (upload.size !== undefined && upload.size > ctx.config.uploadMaxBytes) {
      throw new ApiError(413, 2204, 'The video is too large.', `upload.size ${upload.size} exceeds the largest file accepted, ${ctx.config.uploadMaxBytes} bytes.`);
    }
    const held = await reserveUpload(ctx.store, video.user_id, upload.size ?? null, ctx.config.uploadQuotaBytes);
    const capability = upload.approach === 'tus' || upload.approach === 'pull' || upload.approach === 'post' ? newUploadSecret(ctx.now(), ctx.config.uploadLinkTtlSeconds) : {};
    const version = await ctx.store.insert<VideoVersionRecord>('video_versions', {
      video_id: video.id,
      file_name,
      upload: { approach: upload.approach, link: upload.link ?? null, size: upload.size ?? null, status: 'in_progress', ...capability, ...held },
      created_time: isoTime(ctx.now()),
    });
    const counted = await ctx.store.increment<VideoRecord>('videos', video.id, 'versions_total', 1);
    const reply = created(representVideoVersion(version, await representOne(ctx, counted!), ctx.baseUrl), 'uploadattempt');
    const secret = version.upload.secret;
    if (secret && version.upload.expires) await enqueueGiveUp(ctx.store, uploadId(video.id, secret, version.id), version.upload.expires, ctx.now());
    if (upload.approach === 'pull' && upload.link && secret) reply.tasks = [{ kind: 'pull', upload: uploadId(video.id, secret, version.id), link: upload.link }];
    return reply;
  },
});

export const getVersion = operation({
  id: 'videos.versions.get',
  summary: 'Get the upload of a new file for a video',
  method: 'GET',
  paths: ['/videos/{video_id}/versions/{version_id}'],
  auth: 'user',
  async handle(ctx) {
    const video = await versionedVideo(ctx, 'see the versions of');
    const version = await findById<VideoVersionRecord>(ctx.store, 'video_versions', ctx.path.version_id);
    if (version?.video_id !== video.id) throw notFound('upload for the version', 5011);
    return ok(representVideoVersion(version, await representOne(ctx, video), ctx.baseUrl), 'uploadattempt');
  },
});

export const versionOperations = [createVersion, getVersion];
