import { object, optional, size, string, unknown as anything } from 'superstruct';
import { ApiError, forbidden, notFound } from '../engine/errors';
import { noContent, ok, operation, type Context, type Reply } from '../engine/operation';
import { since } from '../engine/versions';
import { targetUser } from '../domain/users';
import { representContext } from './represent-context';
import { representOne } from './represent-videos';
import { probeVideo, finishedBlobKey, stagingKey } from '../uploads/uploads';
import { uploadLinks, uploadId } from '../media/upload-links';
import { enqueueTranscode } from '../uploads/transcode-job';
import type { VideoRecord } from '../records';
import { isoTime } from '../support/time';
import { representUserSummary } from '../representations/user';
import { settleUpload } from '../domain/upload-quota';

/**
 * The streaming approach: POST /me/videos with upload.approach streaming gives a ticket; the
 * client PUTs the bytes to the ticket's upload_link, then DELETEs its complete_uri
 * (/users/{user_id}/uploads/{upload}?signature=…&video_file_id=…) to finish.
 */

/** The caller's own video still taking a streaming upload, named by the `{ticket}` or `{upload}` path variable. */
async function streamingVideo(ctx: Context<unknown>, id: string): Promise<VideoRecord & { upload: { secret: string } }> {
  const user = await targetUser(ctx);
  if (user.id !== ctx.principal.user?.id) throw forbidden("Only the uploader may see or complete their uploads.");
  const video = /^\d{1,18}$/.test(id) ? await ctx.store.get<VideoRecord>('videos', id) : null;
  if (!video || video.user_id !== user.id || video.upload.approach !== 'streaming' || !video.upload.secret || video.upload.status !== 'in_progress') {
    throw notFound('upload', 5011);
  }
  return video as VideoRecord & { upload: { secret: string } };
}

const completeUri = (video: VideoRecord & { upload: { secret: string } }) =>
  `/users/${video.user_id}/uploads/${video.id}?video_file_id=${video.id}&signature=${video.upload.secret}`;

export const getTicket = operation({
  id: 'users.tickets.get',
  summary: 'Get an upload ticket (streaming uploads)',
  method: 'GET',
  paths: ['/users/{user_id}/tickets/{ticket}'],
  auth: 'user',
  // An upload still in progress is read with the scope that made it, as an uploading script holds it.
  privateReads: ['upload'],
  async handle(ctx) {
    const video = await streamingVideo(ctx, ctx.path.ticket);
    const uri = `/users/${video.user_id}/tickets/${video.id}`;
    // A full Upload Ticket from 3.3.11; before, the ticket's identity and where to send the bytes.
    if (!since(ctx.version, 'fullUploadAnswers')) return ok({ uri, ticket_id: video.id, complete_uri: completeUri(video) }, 'uploadticket');
    const owner = ctx.principal.user!;
    const { upload_link } = uploadLinks(video.upload, ctx.baseUrl, video.id);
    return ok(
      {
        uri,
        ticket_id: video.id,
        upload_link,
        upload_link_secure: upload_link,
        complete_uri: completeUri(video),
        user: representUserSummary(owner, representContext(ctx)),
        video: await representOne(ctx, video),
      },
      'uploadticket',
    );
  },
});

export const getUploadAttempt = operation({
  id: 'users.uploads.get',
  summary: 'Get an upload attempt (streaming uploads)',
  method: 'GET',
  paths: ['/users/{user_id}/uploads/{upload}'],
  auth: 'user',
  // An upload still in progress is read with the scope that made it, as an uploading script holds it.
  privateReads: ['upload'],
  async handle(ctx) {
    const video = await streamingVideo(ctx, ctx.path.upload);
    if (!since(ctx.version, 'fullUploadAnswers')) return noContent();
    const { upload_link } = uploadLinks(video.upload, ctx.baseUrl, video.id);
    const upload: Record<string, unknown> = { status: video.upload.status, approach: 'streaming', size: video.upload.size, upload_link, complete_uri: completeUri(video) };
    // (upload_link_secure left the Upload Attempt in 3.3.3, before the attempt had a body at all.)
    return ok({ uri: `/users/${video.user_id}/uploads/${video.id}`, ticket_id: video.id, upload, clip: await representOne(ctx, video) }, 'uploadattempt');
  },
});

const uploadServerError = (detail: string) => new ApiError(500, 4011, 'The upload server did not answer as expected.', detail);

export const completeStreamingUpload = operation({
  id: 'users.uploads.complete',
  summary: 'Complete a streaming upload',
  method: 'DELETE',
  paths: ['/users/{user_id}/uploads/{upload}'],
  scope: 'upload',
  params: object({ signature: optional(size(string(), 0, 200)), video_file_id: optional(anything()) }),
  async handle(ctx): Promise<Reply> {
    const video = await streamingVideo(ctx, ctx.path.upload);
    const { signature, video_file_id } = ctx.params;
    if (!signature) throw new ApiError(404, 5007, 'The upload signature is missing.', 'Send the signature from the ticket\u2019s complete_uri.');
    if (signature !== video.upload.secret) throw new ApiError(404, 8400, 'The upload signature is invalid.', 'The signature does not match this upload.');
    if (video_file_id === undefined || String(video_file_id) !== video.id) {
      throw new ApiError(404, 5006, 'The video file does not exist.', 'video_file_id must be the one in the ticket\u2019s complete_uri.');
    }
    const blobs = ctx.blobs;
    if (!blobs) throw uploadServerError('No file storage is attached to this transport.');
    const id = uploadId(video.id, video.upload.secret);
    const staged = stagingKey(id);
    const key = finishedBlobKey(video.id, id);
    // This runs in the request's transaction, which PostgreSQL may run again after a conflict: an
    // earlier run (or an earlier request whose transaction failed) may have moved the file to `key`.
    const read = (k: string) =>
      blobs.stat(k).catch(() => {
        throw uploadServerError('The file storage could not be read.');
      });
    const fresh = await read(staged);
    const at = fresh ? staged : key;
    const info = fresh ?? (await read(key));
    if (!info) throw new ApiError(404, 5006, 'The video file does not exist.', 'No bytes were sent to the upload_link yet.');
    if (!ctx.media) throw uploadServerError('No media tools are attached to this transport.');
    const probed = await probeVideo({ blobs, media: ctx.media }, at);
    const found = typeof probed === 'string' ? null : probed;
    if (!found) {
      await blobs.delete(at);
      throw new ApiError(400, 2502, 'The video file format is invalid.', probed as string);
    }
    // The size is known only now: a file over the free space is refused and not kept.
    await settleUpload(ctx.store, video.user_id, video.upload, info.size, ctx.config.uploadQuotaBytes).catch(async (e: unknown) => {
      if (e instanceof ApiError) await blobs.delete(at).catch(() => undefined);
      throw e;
    });
    const moved = at === key ? info : await blobs.move(staged, key).catch(() => {
      throw uploadServerError('The file could not be moved into place.');
    });
    const { reserved: _held, ...upload } = video.upload;
    const saved = await ctx.store.update<VideoRecord>('videos', video.id, {
      upload: { ...upload, secret: null, expires: null, status: 'complete', size: moved.size },
      file: { key, size: moved.size, type: found.type },
      duration: Math.round(found.duration),
      width: found.width,
      height: found.height,
      status: 'transcode_starting',
      transcode_status: 'in_progress',
      modified_time: isoTime(ctx.now()),
    });
    await enqueueTranscode(ctx.store, video.id, key, null, ctx.now());
    return { status: 201, kind: 'video', headers: { Location: `/videos/${video.id}` }, body: await representOne(ctx, saved!), jobsQueued: true };
  },
});

export const streamingOperations = [getTicket, getUploadAttempt, completeStreamingUpload];
