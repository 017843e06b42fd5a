import { ApiError } from '../engine/errors';
import type { Store } from '../store/store';
import type { UserRecord, VideoRecord, VideoVersionRecord } from '../records';
import { eq } from '../store/filters';

/** Bytes a user may store when the configuration does not say: the lifetime quota the hosted API shows. */
const defaultQuotaBytes = 500 * 1024 ** 3;

/**
 * Bytes the user's uploads occupy: the files of their videos and of versions waiting for their
 * transcode. A counter on the user record, changed in the transaction that records or lets go of
 * a file, so reading it costs nothing and it never needs the blob store listed.
 */
export const usedBytes = (user: UserRecord): number => user.upload_bytes ?? 0;

/** The space the User representation shows (`upload_quota.space`, `.lifetime`). */
export function spaceOf(user: UserRecord, max = defaultQuotaBytes): { free: number; max: number; used: number } {
  const used = usedBytes(user);
  return { free: Math.max(0, max - used), max, used };
}

/** Counts `bytes` (negative: lets go of them) against the user's quota. */
export async function countUploadBytes(store: Store, userId: string, bytes: number): Promise<void> {
  if (bytes !== 0) await store.increment<UserRecord>('users', userId, 'upload_bytes', bytes);
}

/** Refuses an upload whose declared size does not fit in the free space, before anything is stored. */
export function assertRoomFor(user: UserRecord, declared: number | null, max: number): void {
  if (declared === null) return;
  const { free } = spaceOf(user, max);
  if (declared <= free) return;
  throw new ApiError(403, 4101, 'The upload exceeds your free space.', `upload.size ${declared} exceeds the ${free} bytes left of the upload quota.`, [
    { field: 'upload.size', error_code: 4101, error: 'Over quota.', developer_message: `At most ${free} bytes are free.` },
  ]);
}

/** What a video counts against its owner's quota: its file and the files of versions awaiting their transcode. */
export async function videoBytes(store: Store, video: VideoRecord): Promise<number> {
  const { items } = await store.find<VideoVersionRecord>('video_versions', { where: eq('video_id', video.id) });
  return items.reduce((sum, v) => sum + (v.file?.size ?? 0), video.file?.size ?? 0);
}
