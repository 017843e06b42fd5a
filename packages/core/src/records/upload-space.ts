import type { UserRecord } from '../records';

/** Bytes a user may store when the configuration does not say: the lifetime quota the hosted API shows. */
const defaultQuotaBytes = 500 * 1024 ** 3;

/**
 * Bytes the user's uploads occupy: the files of their videos and of versions waiting for their
 * transcode. A counter on the user record, changed in the transaction that records or lets go of
 * a file, so reading it costs nothing and it never needs the blob store listed.
 */
export const usedBytes = (user: UserRecord): number => user.upload_bytes ?? 0;

/** Bytes held by the user's uploads in progress (their declared sizes): a counter kept as `upload_bytes` is. */
export const reservedBytes = (user: UserRecord): number => user.upload_reserved ?? 0;

/** The space the User representation shows (`upload_quota.space`, `.lifetime`): free is what a new upload may still claim. */
export function spaceOf(user: UserRecord, max = defaultQuotaBytes): { free: number; max: number; used: number } {
  const used = usedBytes(user);
  return { free: Math.max(0, max - used - reservedBytes(user)), max, used };
}
