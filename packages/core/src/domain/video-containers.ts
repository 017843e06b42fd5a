/**
 * Where a video is held — the albums it is in and the one project (folder) named by its
 * `parent_folder` — with the counters of those containers kept exact. It depends on no other
 * domain file, so deleting a video (domain/videos.ts) can call it.
 */
import type { Store } from '../store/store';
import { by } from '../engine/list';
import { and, eq, notIn, where } from '../store/filters';
import type { VideoRecord } from '../records';
import type { AlbumRecord, AlbumVideoRecord } from '../records/album';
import type { ProjectRecord } from '../records/project';

/** The album's membership row for a video, or null. */
export const albumVideoRow = (store: Store, albumId: string, videoId: string): Promise<AlbumVideoRecord | null> =>
  store.findOne<AlbumVideoRecord>('album_videos', where({ album_id: albumId, video_id: videoId }));

/** Puts a video last in the album's manual order; the album counts it and its duration. */
export async function appendToAlbum(store: Store, album: AlbumRecord, video: VideoRecord, now: string): Promise<void> {
  const last = await store.findOne<AlbumVideoRecord>('album_videos', eq('album_id', album.id), by('position', 'desc'));
  await store.insert<AlbumVideoRecord>('album_videos', { album_id: album.id, video_id: video.id, position: (last?.position ?? 0) + 1, created_time: now });
  await countInAlbum(store, album.id, video, 1);
}

/** Takes a video out of an album; false when it was not in it. */
export async function takeOutOfAlbum(store: Store, albumId: string, video: VideoRecord): Promise<boolean> {
  const removed = await store.deleteWhere('album_videos', where({ album_id: albumId, video_id: video.id }));
  if (removed) await countInAlbum(store, albumId, video, -1);
  return removed > 0;
}

/**
 * Makes the album hold exactly `videos`, in that manual order, with counters to match. Videos it
 * already held keep their time added.
 */
export async function setAlbumVideos(store: Store, album: AlbumRecord, videos: VideoRecord[], now: string): Promise<AlbumRecord> {
  const ids = videos.map((v) => v.id);
  const { items } = await store.find<AlbumVideoRecord>('album_videos', { where: eq('album_id', album.id) });
  const wanted = new Set(ids);
  for (const row of items) if (!wanted.has(row.video_id)) await store.increment<VideoRecord>('videos', row.video_id, 'albums_total', -1);
  await store.deleteWhere('album_videos', and(eq('album_id', album.id), notIn('video_id', ids)));
  const kept = new Map(items.map((row) => [row.video_id, row]));
  for (const [i, id] of ids.entries()) {
    const row = kept.get(id);
    if (row) await store.update<AlbumVideoRecord>('album_videos', row.id, { position: i + 1 });
    else {
      await store.insert<AlbumVideoRecord>('album_videos', { album_id: album.id, video_id: id, position: i + 1, created_time: now });
      await store.increment<VideoRecord>('videos', id, 'albums_total', 1);
    }
  }
  const duration = videos.reduce((sum, v) => sum + v.duration, 0);
  return (await store.update<AlbumRecord>('albums', album.id, { videos_total: videos.length, duration }))!;
}

async function countInAlbum(store: Store, albumId: string, video: VideoRecord, sign: 1 | -1): Promise<void> {
  await store.increment<VideoRecord>('videos', video.id, 'albums_total', sign);
  await store.increment<AlbumRecord>('albums', albumId, 'videos_total', sign);
  if (video.duration) await store.increment<AlbumRecord>('albums', albumId, 'duration', sign * video.duration);
}

/** Puts a video in a project, or with null out of any; a video is in at most one, so this moves it. */
export async function setParentFolder(store: Store, video: VideoRecord, projectId: string | null): Promise<void> {
  if (video.parent_folder === projectId) return;
  if (video.parent_folder) await store.increment<ProjectRecord>('projects', video.parent_folder, 'videos_total', -1);
  if (projectId) await store.increment<ProjectRecord>('projects', projectId, 'videos_total', 1);
  await store.update<VideoRecord>('videos', video.id, { parent_folder: projectId });
}

/** Takes a video out of its albums and its project before it is deleted. */
export async function leaveContainers(store: Store, videoId: string): Promise<void> {
  const video = await store.get<VideoRecord>('videos', videoId);
  if (!video) return;
  const { items } = await store.find<AlbumVideoRecord>('album_videos', { where: eq('video_id', videoId) });
  for (const row of items) await takeOutOfAlbum(store, row.album_id, video);
  await setParentFolder(store, video, null);
}
