import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BlobAccess } from '../blobs/blob-store';
import { isMediaInputError, type MediaTools, type VideoProbe } from '../media/media-tools';
import { enqueueTranscode } from './transcode-job';
import { deleteNow, enqueueDelete } from '../jobs/delete-job';
import type { Service } from '../engine/service';
import { ApiError } from '../engine/errors';
import type { VideoRecord, VideoVersionRecord } from '../records';
import type { Store } from '../store/store';
import { isoTime } from '../support/time';
import { emitVideoEvent } from '../domain/webhooks';
import type { MultipartState } from './multipart';
import { releaseUpload, settleUpload } from '../domain/upload-quota';

/**
 * Uploads are driven by transports (tus, multipart POST, pull) that move the bytes; every decision
 * — which link is valid, how large a file may be, what the video becomes — is made here.
 */

/** A fresh capability for an upload link and when it expires. */
export function newUploadSecret(now: Date, ttlSeconds: number): { secret: string; expires: string } {
  return { secret: randomBytes(24).toString('hex'), expires: isoTime(new Date(now.getTime() + ttlSeconds * 1000)) };
}

/** Where a streaming upload's bytes wait for DELETE /users/{user_id}/uploads/{upload}. */
export const stagingKey = (id: string): string => `staging/${id.replace('.', '_')}`;

export const parseId = (id: string): { videoId: string; versionId: string | null; secret: string } | null => {
  const m = /^(\d{1,18})(?:\.(\d{1,18}))?-([0-9a-f]{48})$/.exec(id);
  return m ? { videoId: m[1], versionId: m[2] ?? null, secret: m[3] } : null;
};

/** The upload object of the target (the video's own, or a version's). */
type UploadState = VideoRecord['upload'] | VideoVersionRecord['upload'];

const unknownLink = () => new ApiError(404, 5011, 'The upload could not be found.', 'No upload answers this link; it may be complete or never have existed.');

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** An upload in progress, as a transport may use it. */
export interface OpenUpload {
  videoId: string;
  approach: string | null;
  /** Declared size in bytes (null when the approach did not declare one). */
  size: number | null;
  /** The most the transport may accept. */
  maxBytes: number;
  redirectUrl: string | null;
}

export interface Target {
  video: VideoRecord;
  version: VideoVersionRecord | null;
  upload: UploadState & { secret?: string | null; expires?: string | null; redirect_url?: string | null; multipart?: MultipartState | null };
}

export async function targetOf(store: Store, id: string): Promise<Target> {
  const parsed = parseId(id);
  if (!parsed) throw unknownLink();
  const video = await store.get<VideoRecord>('videos', parsed.videoId);
  if (!video) throw unknownLink();
  const version = parsed.versionId ? await store.get<VideoVersionRecord>('video_versions', parsed.versionId) : null;
  if (parsed.versionId && version?.video_id !== video.id) throw unknownLink();
  const upload = version ? version.upload : video.upload;
  const secret = upload.secret;
  if (!secret || !sameSecret(secret, parsed.secret) || upload.status !== 'in_progress') throw unknownLink();
  return { video, version, upload };
}

/**
 * Checks an upload link: 404/5011 unknown, finished or (given `approach`) made for another
 * approach, so a tus link never takes a form post; 410 expired.
 */
export async function openUpload(service: Service, id: string, approach?: string): Promise<OpenUpload> {
  const { video, upload } = await targetOf(service.store, id);
  if (approach !== undefined && upload.approach !== approach) throw unknownLink();
  if (upload.expires && Date.parse(upload.expires) <= service.now().getTime()) {
    throw new ApiError(410, 5011, 'The upload link has expired.', `This upload link expired at ${upload.expires}; create a new upload.`);
  }
  return {
    videoId: video.id,
    approach: upload.approach,
    size: upload.size,
    maxBytes: service.config.uploadMaxBytes,
    redirectUrl: upload.redirect_url ?? null,
  };
}

/** What became of a finished upload. */
export interface FinishedUpload {
  status: string;
  probe: VideoProbe | null;
}

/** What finishing an upload needs of its transport: the file, where it is, and ffprobe. */
export interface UploadFiles {
  blobs: BlobAccess;
  media: MediaTools;
}

/** ffprobe's view of a file, or why it is not a video (any other failure is ours, and thrown). */
export async function probeVideo(files: UploadFiles, key: string): Promise<VideoProbe | string> {
  try {
    const copy = await files.blobs.materialise(key);
    try {
      return await files.media.probe(copy.path);
    } finally {
      await copy.release();
    }
  } catch (e) {
    if (isMediaInputError(e)) return e.message;
    throw e;
  }
}

/**
 * The bytes of upload `id` are in the blob store under `key`: probe them and move the video on
 * (`uploading` → `transcode_starting`, its transcode queued in the same transaction; a worker
 * takes it through `transcoding` to `available`), or to `transcode_error` when it is not a video.
 * A new version is kept beside the playing file until its own transcode completes.
 */
export async function finishUpload(service: Service, id: string, file: { key: string; size: number }, files: UploadFiles): Promise<FinishedUpload> {
  await targetOf(service.store, id);
  const probed = await probeVideo(files, file.key);
  const found = typeof probed === 'string' ? null : probed;
  const done = await service.store.transaction(async (tx) => {
    const { video, version, upload: current } = await targetOf(tx, id);
    const now = isoTime(service.now());
    // Every byte arrived: the upload is complete whatever the file turns out to be (a version that
    // is no video is marked failed, as the playing file stays).
    // The multipart state is spent: the bytes are one blob now.
    const { multipart: _spent, reserved: _held, ...kept } = current;
    const upload = { ...kept, secret: null, expires: null, status: found || !version ? 'complete' : 'error', size: file.size };
    const videoFile = found ? { key: file.key, size: file.size, type: found.type } : null;
    // The space the upload held becomes its file's (refused here when the file does not fit).
    await settleUpload(tx, video.user_id, current, videoFile?.size ?? null, service.config.uploadQuotaBytes);
    if (version) {
      await tx.update<VideoVersionRecord>('video_versions', version.id, { upload: upload as VideoVersionRecord['upload'], file: videoFile });
      if (!found) return { status: 'transcode_error', probe: null, removal: await enqueueDelete(tx, [file.key], service.now()) };
      // The old file and renditions keep playing: only the transcode's state changes.
      await tx.update<VideoRecord>('videos', video.id, { transcode_status: 'in_progress', modified_time: now });
    } else if (!found) {
      const saved = await tx.update<VideoRecord>('videos', video.id, { upload: upload as VideoRecord['upload'], status: 'transcode_error', transcode_status: 'error', transcode_error: probed as string, modified_time: now });
      await emitVideoEvent(tx, saved!, 'video.transcode_error', service.now(), { error: probed });
      return { status: 'transcode_error', probe: null, removal: await enqueueDelete(tx, [file.key], service.now()) };
    } else {
      await tx.update<VideoRecord>('videos', video.id, {
        upload: upload as VideoRecord['upload'],
        file: videoFile,
        duration: Math.round(found.duration),
        width: found.width,
        height: found.height,
        status: 'transcode_starting',
        transcode_status: 'in_progress',
        transcode_error: null,
        modified_time: now,
      });
    }
    await enqueueTranscode(tx, video.id, file.key, version?.id ?? null, service.now());
    return { status: version ? video.status : 'transcode_starting', probe: found, removal: null };
  });
  // A file that is no video goes by a job queued with the record's change: it goes even if this process dies now.
  if (done.removal) await deleteNow(service.store, files.blobs, done.removal, service.now);
  service.jobs.notify();
  return { status: done.status, probe: done.probe };
}

/** Records an upload that failed in transit (a pull that could not be fetched, say). */
export async function failUpload(service: Service, id: string, reason: string): Promise<void> {
  await service.store.transaction(async (tx) => {
    let target: Target;
    try {
      target = await targetOf(tx, id);
    } catch {
      return;
    }
    await endUpload(tx, target, id, reason, service.now());
  });
}

/**
 * Ends the upload in progress of `target` (link `id`) unfinished, in the caller's transaction,
 * which read `target` in progress: its link closes, the space it held is let go of, its upload
 * shows `error` with `reason`, and a video's own upload leaves the video `uploading_error`.
 * Answers the blobs it gathered, which go with it (a multipart upload's tail, staged streaming bytes).
 */
export async function endUpload(tx: Store, target: Target, id: string, reason: string, now: Date): Promise<string[]> {
  const { reserved: _held, multipart, ...kept } = target.upload;
  const upload = { ...kept, multipart: null, status: 'error', secret: null, expires: null, error: reason };
  await releaseUpload(tx, target.video.user_id, target.upload);
  if (target.version) await tx.update<VideoVersionRecord>('video_versions', target.version.id, { upload: upload as VideoVersionRecord['upload'] });
  else await tx.update<VideoRecord>('videos', target.video.id, { upload: upload as VideoRecord['upload'], status: 'uploading_error', modified_time: isoTime(now) });
  return [...(multipart?.tail ? [multipart.tail.key] : []), ...(target.upload.approach === 'streaming' ? [stagingKey(id)] : [])];
}

/** A blob key for a new file of a video. */
export const newBlobKey = (videoId: string): string => `videos/${videoId}/${randomBytes(12).toString('hex')}`;

/**
 * The key a staged upload (`id`, as in its link) is kept under once complete: derived from the
 * id, so a transaction run again (PostgreSQL retries on conflicts) finds the file where its first
 * run moved it. The secret in the id is hashed, never written out.
 */
export const finishedBlobKey = (videoId: string, id: string): string => `videos/${videoId}/${createHash('sha256').update(id).digest('hex').slice(0, 24)}`;

