import { ApiError } from '../engine/errors';
import type { Store } from '../store/store';
import type { UserRecord, VideoRecord, VideoVersionRecord } from '../records';
import { eq } from '../store/filters';
import { reservedBytes, usedBytes } from '../records/upload-space';

/** Counts `bytes` (negative: lets go of them) against the user's quota. */
export async function countUploadBytes(store: Store, userId: string, bytes: number): Promise<void> {
  if (bytes !== 0) await store.increment<UserRecord>('users', userId, 'upload_bytes', bytes);
}

/** The hosted API's answer to an upload over the user's disk space: 403, error code 4101. */
const overQuota = (developerMessage: string, field?: string): ApiError =>
  new ApiError(
    403,
    4101,
    'The upload exceeds your free space.',
    developerMessage,
    field ? [{ field, error_code: 4101, error: 'Over quota.', developer_message: developerMessage }] : undefined,
  );

/**
 * Holds an upload's declared size of its owner's space until it completes or fails, or refuses it
 * (403/4101) when it does not fit. Counted first and checked after: on PostgreSQL the increment
 * locks the user's row, so concurrent uploads of one user are checked one after the other and
 * together never pass `max`. Answers what the upload object records (`reserved`), which its
 * completion, failure or deletion lets go of. A refusal throws in the caller's transaction, which
 * then records nothing.
 */
export async function reserveUpload(store: Store, userId: string, declared: number | null, max: number): Promise<{ reserved?: number }> {
  if (declared === null || declared === 0) return {};
  const after = (await store.increment<UserRecord>('users', userId, 'upload_reserved', declared))!;
  const free = Math.max(0, max - usedBytes(after) - (reservedBytes(after) - declared));
  if (declared > free) throw overQuota(`upload.size ${declared} exceeds the ${free} bytes left of the upload quota (files and uploads in progress count).`, 'upload.size');
  return { reserved: declared };
}

/**
 * A finished upload: lets go of what it held and counts its file (`size` bytes; null when the file
 * is not kept). The file is checked against the space once more, since its size is known only now
 * for an upload that declared none (pull, streaming, post), and a quota may have been lowered: a
 * file that does not fit is refused 403/4101, the caller's transaction records nothing and the
 * transport removes the file.
 */
export async function settleUpload(store: Store, userId: string, upload: { reserved?: number }, size: number | null, max: number): Promise<void> {
  await releaseUpload(store, userId, upload);
  if (!size) return;
  const after = (await store.increment<UserRecord>('users', userId, 'upload_bytes', size))!;
  if (usedBytes(after) + reservedBytes(after) <= max) return;
  const free = Math.max(0, max - (usedBytes(after) - size) - reservedBytes(after));
  throw overQuota(`The file's ${size} bytes exceed the ${free} bytes left of the upload quota; it was not kept.`);
}

/** Lets go of the space an upload held (one that completed, failed or whose video went). */
export async function releaseUpload(store: Store, userId: string, upload: { reserved?: number }): Promise<void> {
  if (upload.reserved) await store.increment<UserRecord>('users', userId, 'upload_reserved', -upload.reserved);
}

/**
 * What a video holds of its owner's quota: the bytes of its file and of versions awaiting their
 * transcode, and the space its uploads in progress (its own and its versions') hold.
 */
export async function videoHoldings(store: Store, video: VideoRecord): Promise<{ bytes: number; reserved: number }> {
  // A video that never had a version needs no query for them.
  const { items } = video.versions_total === 0 ? { items: [] } : await store.find<VideoVersionRecord>('video_versions', { where: eq('video_id', video.id) });
  const held = (u: { status: string; reserved?: number }) => (u.status === 'in_progress' ? u.reserved ?? 0 : 0);
  return {
    bytes: items.reduce((sum, v) => sum + (v.file?.size ?? 0), video.file?.size ?? 0),
    reserved: items.reduce((sum, v) => sum + held(v.upload), held(video.upload)),
  };
}

/** Lets go of everything a video holds, in the transaction that deletes it. */
export async function releaseVideo(store: Store, video: VideoRecord): Promise<void> {
  const { bytes, reserved } = await videoHoldings(store, video);
  await countUploadBytes(store, video.user_id, -bytes);
  await releaseUpload(store, video.user_id, { reserved });
}
