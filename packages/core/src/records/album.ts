import type { PictureRecord } from '../records';

/** An album (showcase): a user's ordered, shareable selection of videos. */
export type AlbumRecord = {
  id: string;
  user_id: string;
  name: string;
  description: string;
  /** anybody, embed_only or password. */
  privacy_view: string;
  /** Salted hash of the album password (privacy password); never represented. */
  password_hash: string | null;
  /** How `sort=default` orders the album's videos. */
  sort: string;
  brand_color: string | null;
  hide_nav: boolean;
  layout: string;
  review_mode: boolean;
  theme: string;
  /** The custom domain the owner picked for the album (lower case), or null; reelbase stores it, serving the album on its own address only. */
  domain: string | null;
  /** Whether the owner opted in to the custom domain (only with one). */
  use_custom_domain: boolean;
  /** Copies of the active custom logo and custom thumbnail (album-pictures.ts keeps them in step). */
  active_logo: PictureRecord | null;
  active_thumbnail: PictureRecord | null;
  /** Counters kept in step with `album_videos`, in the same transaction. */
  videos_total: number;
  /** Sum of the durations of the album's videos, in seconds. */
  duration: number;
  created_time: string;
  modified_time: string;
};

/** A video in an album: `position` is its place in the manual (arranged) order, `created_time` when it was added. */
export type AlbumVideoRecord = {
  id: string;
  album_id: string;
  video_id: string;
  position: number;
  created_time: string;
};

/**
 * An album's images, each kind with one active image at most, which the album keeps a copy of:
 * custom logos (the active one shows in the album's player, `custom_logo`) and custom thumbnails
 * (the active one is the album's `pictures`).
 */
export const albumPictures = {
  logo: { collection: 'albums', ownerKind: 'album_logo', segment: 'logos', active: 'active_logo', noun: 'logo' },
  thumbnail: { collection: 'albums', ownerKind: 'album_thumbnail', segment: 'custom_thumbnails', active: 'active_thumbnail', noun: 'custom thumbnail' },
} as const;

export type AlbumPictureKind = keyof typeof albumPictures;
