import type { Store } from '../store/store';
import { isIn } from '../store/filters';
import type { UserRecord, VideoRecord } from '../records';
import { notFound } from '../engine/errors';
import type { Context } from '../engine/operation';
import { representVideo } from '../representations/video';
import { representContext } from './users';

/** The video a path names (404 when missing). */
export async function loadVideo(store: Store, id: string): Promise<VideoRecord> {
  const video = /^\d{1,18}$/.test(id) ? await store.get<VideoRecord>('videos', id) : null;
  if (!video) throw notFound('video');
  return video;
}

/** Clip representations for a page of videos, loading their owners in one query. */
export async function representVideos(ctx: Context<unknown>, videos: VideoRecord[]): Promise<Record<string, unknown>[]> {
  const ids = [...new Set(videos.map((v) => v.user_id))];
  const owners = new Map<string, UserRecord>();
  if (ids.length) {
    // No limit: an unlimited find needs no separate count.
    const { items } = await ctx.store.find<UserRecord>('users', { where: isIn('id', ids) });
    for (const u of items) owners.set(u.id, u);
  }
  const rc = representContext(ctx);
  return videos.map((v) => representVideo(v, owners.get(v.user_id)!, rc));
}

export async function representOne(ctx: Context<unknown>, video: VideoRecord): Promise<Record<string, unknown>> {
  return (await representVideos(ctx, [video]))[0];
}
