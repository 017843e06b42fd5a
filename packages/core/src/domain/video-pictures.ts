import type { PictureRecord, VideoRecord } from '../records';
import { notFound } from '../engine/errors';
import type { Filter, Store } from '../store/store';
import { and, eq } from '../store/filters';
import { findById } from './lookup';

/** The pictures of one owner (`owner_kind` video, user…). */
export const ofOwner = (kind: string, id: string): Filter => and(eq('owner_kind', kind), eq('owner_id', id));

/** The pictures (thumbnails) of one video. */
export const ofVideo = (videoId: string): Filter => ofOwner('video', videoId);

/** The collection of each kind of picture owner; the owner's `active_picture` copy follows its active picture. */
const ownerCollections: Record<string, string> = { video: 'videos', user: 'users' };

export const videoPictureUri = (picture: PictureRecord): string => `/videos/${picture.owner_id}/pictures/${picture.id}`;

/** A picture of `video` (404 when missing or another video's). */
export async function loadVideoPicture(store: Store, video: VideoRecord, id: string): Promise<PictureRecord> {
  const picture = await findById<PictureRecord>(store, 'pictures', id);
  if (!picture || picture.owner_kind !== 'video' || picture.owner_id !== video.id) throw notFound('picture');
  return picture;
}

/**
 * Turns a picture's `active` flag on or off. A video (or user) has at most one active picture, so
 * turning one on turns the others off; the owner's copy (`active_picture`) follows, null showing
 * the placeholder.
 */
export async function setPictureActive(store: Store, picture: PictureRecord, active: boolean, now: string): Promise<PictureRecord> {
  if (picture.active === active) return picture;
  if (active) {
    const { items } = await store.find<PictureRecord>('pictures', { where: and(ofOwner(picture.owner_kind, picture.owner_id), eq('active', true)) });
    for (const other of items) await store.update<PictureRecord>('pictures', other.id, { active: false, modified_time: now });
  }
  const saved = (await store.update<PictureRecord>('pictures', picture.id, { active, modified_time: now }))!;
  await store.update(ownerCollections[picture.owner_kind], picture.owner_id, { active_picture: active ? saved : null });
  return saved;
}
