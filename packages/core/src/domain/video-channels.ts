import type { Store } from '../store/store';
import { eq } from '../store/filters';
import type { ChannelVideoRecord } from '../records/channel';

/**
 * Takes a video out of every channel before it is deleted, keeping the channels' `videos_total`
 * exact. It depends on no other domain file, so deleting a video (domain/videos.ts) can call it.
 */
export async function leaveChannels(store: Store, videoId: string): Promise<void> {
  const { items } = await store.find<ChannelVideoRecord>('channel_videos', { where: eq('video_id', videoId) });
  for (const row of items) await store.increment('channels', row.channel_id, 'videos_total', -1);
  await store.deleteWhere('channel_videos', eq('video_id', videoId));
}
