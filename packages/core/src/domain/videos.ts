import type { Store } from '../store/store';
import { and, eq } from '../store/filters';
import type { UserVideoRecord, VideoRecord } from '../records';
import { notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { forgetAppearances } from './appearances';
import { removeVideoFromGroups } from './group-videos';
import { assertCanView } from './visibility';
import { passwordGuess } from './password-guesses';
import { leaveContainers } from './video-containers';
import { leaveOndemandPage } from './ondemand-video-rows';
import { leaveChannels } from './video-channels';

/** The video a path names (404 when missing). */
export async function loadVideo(store: Store, id: string): Promise<VideoRecord> {
  const video = /^\d{1,18}$/.test(id) ? await store.get<VideoRecord>('videos', id) : null;
  if (!video) throw notFound('video');
  return video;
}

/** A video the caller may see (404 when missing or hidden; 403 for a missing or wrong password). */
export async function loadVisibleVideo(ctx: Context<unknown>, id: string, password?: string): Promise<VideoRecord> {
  const video = await loadVideo(ctx.store, id);
  await assertCanView(ctx.store, video, ctx.principal.user, passwordGuess(ctx, password));
  return video;
}

/** Collections whose rows belong to one video through `video_id`; they go when the video goes. */
const videoOwned = [
  'comments',
  'credits',
  'texttracks',
  'chapters',
  'timeline_thumbnails',
  'likes',
  'watchlater',
  'watched',
  'video_access',
  'video_domains',
  'video_tags',
  'video_categories',
  'video_versions',
  'activities',
];

/** User counters that count a user's rows in a user↔video collection. */
const userCounters: Record<string, string> = { likes: 'likes_total', watchlater: 'watchlater_total', watched: 'watched_total' };

/** Deletes a video and everything that belongs to it (the caller's transaction makes it all-or-nothing). */
export async function deleteVideoRecords(store: Store, videoId: string): Promise<void> {
  await leaveContainers(store, videoId);
  await leaveChannels(store, videoId);
  await removeVideoFromGroups(store, videoId);
  await leaveOndemandPage(store, videoId);
  for (const [collection, counter] of Object.entries(userCounters)) {
    const { items } = await store.find<UserVideoRecord>(collection, { where: eq('video_id', videoId) });
    for (const row of items) await store.increment('users', row.user_id, counter, -1);
  }
  await forgetAppearances(store, videoId);
  for (const collection of videoOwned) await store.deleteWhere(collection, eq('video_id', videoId));
  await store.deleteWhere('pictures', and(eq('owner_kind', 'video'), eq('owner_id', videoId)));
  await store.delete('videos', videoId);
}
