import type { Store } from '../store/store';
import type { UserRecord, VideoRecord } from '../records';
import { eq } from '../store/filters';
import { giveUpExpired } from './abort-upload-job';
import { videoHoldings } from '../domain/upload-quota';
import { reservedBytes, usedBytes } from '../records/upload-space';

/** Users recounted per page by recountUploadQuota, and videos read per query. */
const recountPage = 200;

/**
 * Sets every user's quota counters from their records (`upload_bytes` from their videos' files and
 * pending versions', `upload_reserved` from their uploads in progress), for a store whose videos
 * predate the counters, or to check them. Each user is counted in a transaction of its own that
 * first writes their record: an upload finishing meanwhile waits for it (PostgreSQL's row lock)
 * and counts on top. An upload whose link expired over an hour before `now` unfinished, from
 * before uploads were given up by a job, is given up first, so it holds nothing. Idempotent: an
 * interrupted run is simply run again. Answers how many users had a figure changed; `progress`
 * hears (done, total) after each page of users.
 */
export async function recountUploadQuota(store: Store, progress?: (done: number, total: number) => void, now = new Date()): Promise<number> {
  const total = await store.count('users');
  let done = 0;
  let changed = 0;
  for (;;) {
    const { items } = await store.find<UserRecord>('users', { offset: done, limit: recountPage });
    if (items.length === 0) break;
    for (const user of items) if (await store.transaction((tx) => recountUser(tx, user.id, now))) changed++;
    done += items.length;
    progress?.(done, Math.max(total, done));
  }
  return changed;
}

async function recountUser(tx: Store, userId: string, now: Date): Promise<boolean> {
  const locked = await tx.increment<UserRecord>('users', userId, 'upload_bytes', 0);
  if (!locked) return false;
  let bytes = 0;
  let reserved = 0;
  for (let offset = 0; ; offset += recountPage) {
    const { items } = await tx.find<VideoRecord>('videos', { where: eq('user_id', userId), offset, limit: recountPage });
    for (const video of items) {
      const current = (await giveUpExpired(tx, video, now)) ? (await tx.get<VideoRecord>('videos', video.id))! : video;
      const held = await videoHoldings(tx, current);
      bytes += held.bytes;
      reserved += held.reserved;
    }
    if (items.length < recountPage) break;
  }
  if (usedBytes(locked) === bytes && reservedBytes(locked) === reserved) return false;
  await tx.update<UserRecord>('users', userId, { upload_bytes: bytes, upload_reserved: reserved });
  return true;
}
