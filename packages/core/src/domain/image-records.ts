import type { Store } from '../store/store';
import type { PictureRecord, TimelineThumbnailRecord, UserRecord, VideoRecord } from '../records';
import type { ChapterRecord } from '../records/chapter';
import type { CustomLogoRecord } from '../records/embed';
import { type AlbumRecord, albumPictures } from '../records/album';
import type { OndemandPageRecord } from '../records/ondemand';
import { albumPictureOwnerKinds } from './album-pictures';
import { pageMedia } from './ondemand-media';
import { findById } from './lookup';
import { type FrameSource, type ImageFamily, frameSource } from '../media/image-links';
import type { StoredImage } from '../records/image';

/** The record behind an image link, with what serving and replacing its image need. */
export interface ImageRecord {
  family: ImageFamily;
  /** The collection the record lives in. */
  collection: 'pictures' | 'custom_logos' | 'timeline_thumbnails' | 'videos' | 'chapters';
  id: string;
  /** Picks the placeholder and the sizes (the picture owner kind, or `customlogo`). */
  kind: string;
  /** Whose media directory holds its files (removed with that owner). */
  owner: { kind: string; id: string };
  /** The user whose bearer token may PUT an image to its link. */
  userId: string | null;
  image: StoredImage | null;
  time: number | null;
  frame: FrameSource | null;
  created_time: string;
  /** Set for a picture an owner record keeps a copy of while active (`videos.active_picture`…). */
  picture?: PictureRecord;
  /** The video whose image it is (its links die with the video's access), or null for anybody else's. */
  video: VideoRecord | null;
}

/** Which user owns a picture's owner (the uploader of a video's thumbnail is the video's owner…). */
async function pictureUser(store: Store, picture: PictureRecord): Promise<{ userId: string | null; frame: FrameSource | null; video: VideoRecord | null }> {
  if (picture.owner_kind === 'user') return { userId: picture.owner_id, frame: null, video: null };
  if (picture.owner_kind === 'video') {
    const video = await store.get<VideoRecord>('videos', picture.owner_id);
    return { userId: video?.user_id ?? null, frame: video ? frameSource(video) : null, video };
  }
  if (albumPictureOwnerKinds.includes(picture.owner_kind)) return { userId: (await store.get<AlbumRecord>('albums', picture.owner_id))?.user_id ?? null, frame: null, video: null };
  return { userId: (await store.get<OndemandPageRecord>('ondemand_pages', picture.owner_id))?.user_id ?? null, frame: null, video: null };
}

/** The record an image link names; null when there is none (deleted, or never existed). */
export async function loadImageRecord(store: Store, family: ImageFamily, id: string): Promise<ImageRecord | null> {
  if (family === 'pictures') {
    const picture = await findById<PictureRecord>(store, 'pictures', id);
    if (!picture) return null;
    const { userId, frame, video } = await pictureUser(store, picture);
    return {
      family,
      collection: 'pictures',
      id,
      kind: picture.owner_kind,
      owner: { kind: picture.owner_kind, id: picture.owner_id },
      userId,
      image: picture.image ?? null,
      time: picture.time,
      frame,
      created_time: picture.created_time,
      picture,
      video,
    };
  }
  if (family === 'customlogos') {
    const logo = await findById<CustomLogoRecord>(store, 'custom_logos', id);
    if (!logo) return null;
    const owner = { kind: 'user', id: logo.user_id };
    return { family, collection: 'custom_logos', id, kind: 'customlogo', owner, userId: logo.user_id, image: logo.image ?? null, time: null, frame: null, created_time: logo.created_time, video: null };
  }
  if (family === 'timelinethumbnails') {
    const thumbnail = await findById<TimelineThumbnailRecord>(store, 'timeline_thumbnails', id);
    const video = thumbnail && (await store.get<VideoRecord>('videos', thumbnail.video_id));
    if (!thumbnail || !video) return null;
    const owner = { kind: 'video', id: video.id };
    return {
      family,
      collection: 'timeline_thumbnails',
      id,
      kind: 'video',
      owner,
      userId: video.user_id,
      image: thumbnail.image ?? null,
      time: null,
      frame: frameSource(video),
      created_time: thumbnail.created_time,
      video,
    };
  }
  if (family === 'chapters') {
    const chapter = await findById<ChapterRecord>(store, 'chapters', id);
    const video = chapter && (await store.get<VideoRecord>('videos', chapter.video_id));
    if (!chapter || !video) return null;
    // The frame at the chapter's timecode: never uploaded to, so no user may PUT here.
    const owner = { kind: 'video', id: video.id };
    return { family, collection: 'chapters', id, kind: 'video', owner, userId: null, image: null, time: chapter.timecode, frame: frameSource(video), created_time: chapter.created_time, video };
  }
  const video = await findById<VideoRecord>(store, 'videos', id);
  if (!video) return null;
  // A video's own frame: never uploaded to (its pictures are), so no user may PUT here.
  return { family, collection: 'videos', id, kind: 'video', owner: { kind: 'video', id }, userId: null, image: null, time: null, frame: frameSource(video), created_time: video.created_time, video };
}

/** The owner records that keep a copy of their active picture, by picture owner kind. */
const activeCopies: Record<string, { collection: string; field: string }> = {
  video: { collection: 'videos', field: 'active_picture' },
  user: { collection: 'users', field: 'active_picture' },
  [pageMedia.poster.ownerKind]: { collection: 'ondemand_pages', field: pageMedia.poster.active },
  [pageMedia.background.ownerKind]: { collection: 'ondemand_pages', field: pageMedia.background.active },
  [albumPictures.logo.ownerKind]: { collection: 'albums', field: albumPictures.logo.active },
  [albumPictures.thumbnail.ownerKind]: { collection: 'albums', field: albumPictures.thumbnail.active },
};

/** Gives a record its new image; an active picture's owner copy follows, so representations show it at once. */
export async function saveImage(store: Store, record: ImageRecord, image: StoredImage, now: string): Promise<void> {
  if (record.collection === 'pictures') {
    const saved = await store.update<PictureRecord>('pictures', record.id, { image, modified_time: now });
    const copy = activeCopies[record.kind];
    if (saved?.active && copy) await store.update<UserRecord | VideoRecord | OndemandPageRecord | AlbumRecord>(copy.collection, record.owner.id, { [copy.field]: saved });
    return;
  }
  await store.update(record.collection, record.id, { image });
}
