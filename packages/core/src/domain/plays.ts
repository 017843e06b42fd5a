import type { Context } from '../engine/operation';
import type { UserVideoRecord, VideoRecord } from '../records';
import { isoTime } from '../representations/common';
import { where } from '../store/filters';

/** A play: counted once per request that starts at the first byte; the viewer's history records it. */
export async function countPlay(ctx: Context<unknown>, video: VideoRecord): Promise<void> {
  const range = ctx.request.headers.range;
  if (range && !/^bytes=0-/.test(range.trim())) return;
  const viewer = ctx.principal.user;
  const time = isoTime(ctx.now());
  await ctx.store.transaction(async (tx) => {
    await tx.increment<VideoRecord>('videos', video.id, 'plays', 1);
    if (!viewer) return;
    const row = await tx.findOne<UserVideoRecord>('watched', where({ user_id: viewer.id, video_id: video.id }));
    if (row) await tx.update<UserVideoRecord>('watched', row.id, { created_time: time });
    else {
      await tx.insert<UserVideoRecord>('watched', { user_id: viewer.id, video_id: video.id, created_time: time });
      await tx.increment('users', viewer.id, 'watched_total', 1);
    }
  });
}

