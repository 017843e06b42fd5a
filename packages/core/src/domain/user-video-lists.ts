import { object } from 'superstruct';
import type { Store } from '../store/store';
import { and, eq, inSelect, where } from '../store/filters';
import type { UserRecord, UserVideoRecord, VideoRecord } from '../records';
import { listParams } from '../engine/list';
import type { Context } from '../engine/operation';
import { isoTime } from '../support/time';
import { clipSorts, videoListFilter, type ClipSort } from './video-lists';

/** A user's own list of videos kept in a user↔video collection, and the User counter that counts its rows. */
export interface UserVideoList {
  collection: 'likes' | 'watchlater' | 'watched';
  counter: 'likes_total' | 'watchlater_total' | 'watched_total';
}

export const likesList: UserVideoList = { collection: 'likes', counter: 'likes_total' };
export const watchlaterList: UserVideoList = { collection: 'watchlater', counter: 'watchlater_total' };
/** Watch history: a row's time is the last time the user watched the video. */
export const watchedList: UserVideoList = { collection: 'watched', counter: 'watched_total' };

export const userVideoListParams = object(
  listParams({ sort: Object.keys(clipSorts) as ClipSort[], filter: ['embeddable'] as const, query: true, filterEmbeddable: true }),
);

/** The video `videoId` as `user`'s list shows it to the caller; null when the list does not show it. */
export async function findListedVideo(ctx: Context<unknown>, list: UserVideoList, user: UserRecord, videoId: string): Promise<VideoRecord | null> {
  if (!/^\d{1,18}$/.test(videoId)) return null;
  const inList = inSelect('id', list.collection, 'video_id', eq('user_id', user.id));
  return ctx.store.findOne<VideoRecord>('videos', and(eq('id', videoId), inList, videoListFilter(ctx, {})));
}

/** Puts `video` on `user`'s list, keeping the counter exact; false when it was there already. */
export async function addUserVideo(store: Store, list: UserVideoList, user: UserRecord, video: VideoRecord, now: Date): Promise<boolean> {
  if (await store.findOne(list.collection, where({ user_id: user.id, video_id: video.id }))) return false;
  await store.insert<UserVideoRecord>(list.collection, { user_id: user.id, video_id: video.id, created_time: isoTime(now) });
  await store.increment('users', user.id, list.counter, 1);
  return true;
}

/** Takes a video off `user`'s list, keeping the counter exact; false when it was not there. */
export async function removeUserVideo(store: Store, list: UserVideoList, user: UserRecord, videoId: string): Promise<boolean> {
  if (!(await store.deleteWhere(list.collection, where({ user_id: user.id, video_id: videoId })))) return false;
  await store.increment('users', user.id, list.counter, -1);
  return true;
}
