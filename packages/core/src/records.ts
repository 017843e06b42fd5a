import type { StoredImage } from './records/image';

/** A text track's file in the blob store; `version` goes up with each upload and is part of its links. */
export interface TrackFile {
  version: number;
  /** Its blob key. */
  key: string;
  size: number;
  time: string;
}

/** Privacy settings a user gives every new video (User `videos.privacy.*`). */
export interface VideoPrivacyDefaults {
  view: string;
  comments: string;
  embed: string;
  download: boolean;
  add: boolean;
}

/** A user as stored. Counters are kept in step by the operations that change them. */
// Type aliases, not interfaces: they satisfy the store's `Doc` index signature and keep `Omit` precise.
export type UserRecord = {
  id: string;
  name: string;
  /** Custom URL slug, unique when set. */
  link: string | null;
  location: string;
  bio: string;
  created_time: string;
  modified_time: string;
  /** Plan: `basic` users cannot set unlisted privacy or download privacy (SPEC.md, PATCH video). */
  account: string;
  /** Default password for future password-protected uploads (hashed). */
  password_hash: string | null;
  content_filter: string[];
  websites: { name: string; link: string }[];
  video_defaults: VideoPrivacyDefaults;
  verified: boolean;
  /** False when an administrator took away the right to follow users. */
  can_follow: boolean;
  /** False when an administrator took away the right to like videos; absent means allowed. */
  can_like?: boolean;
  /** The active portrait (a `pictures` row of kind `user`); null or absent shows the placeholder. */
  active_picture?: PictureRecord | null;
  /** A paid-plan account that opted out of the privacy settings beyond unlisted/contacts/disable. */
  privacy_opt_out: boolean;
  /** Connection totals of the User, kept in step by the operations that change them. */
  videos_total: number;
  /** Bytes the user's video files occupy (domain/upload-quota.ts); absent means none. */
  upload_bytes?: number;
  /** Bytes declared by the user's uploads in progress, held until each completes or fails (domain/upload-quota.ts); absent means none. */
  upload_reserved?: number;
  followers_total: number;
  following_total: number;
  albums_total: number;
  appearances_total: number;
  categories_total: number;
  channels_total: number;
  folders_total: number;
  groups_total: number;
  likes_total: number;
  pictures_total: number;
  watchlater_total: number;
  watched_total: number;
}

export interface DirectorTimelineEntry {
  time_code: number;
  pitch: number;
  yaw: number;
  roll?: number;
}

/** A video as stored; nested settings are kept as they are represented. */
export type VideoRecord = {
  id: string;
  user_id: string;
  name: string;
  description: string;
  license: string | null;
  locale: string | null;
  content_rating: string[];
  privacy_view: string;
  privacy: { comments: string; embed: string; download: boolean; add: boolean };
  /** Indexed copy of privacy.embed !== 'private', for filter=embeddable. */
  embeddable: boolean;
  password_hash: string | null;
  review_page_active: boolean;
  embed: EmbedSettings;
  external_links: { imdb: string | null; rotten_tomatoes: string | null };
  ratings: { mpaa: { rating: string | null; reason: string | null }; tv: { rating: string | null; reason: string | null } };
  spatial: {
    projection: string | null;
    stereo_format: string | null;
    field_of_view: number;
    director_timeline: DirectorTimelineEntry[];
  };
  scheduled_start_time: string | null;
  upload: {
    approach: string | null;
    link: string | null;
    redirect_url: string | null;
    size: number | null;
    status: string;
    /** The capability in the upload link (tus, post); shown only to the owner while uploading. */
    secret?: string | null;
    /** When the upload link stops working (ISO time). */
    expires?: string | null;
    /** Bytes this upload holds of its owner's quota while in progress (its declared size); absent on uploads from before quotas. */
    reserved?: number;
  };
  /** The uploaded file, once an upload completed (absent on records from before uploads). */
  file?: VideoFile | null;
  /** What the file was transcoded to, once a transcode of it completed. */
  renditions?: RenditionSet | null;
  /** Why the last transcode failed for good (shown to the owner with `transcode_error`). */
  transcode_error?: string | null;
  status: string;
  transcode_status: string;
  duration: number;
  width: number;
  height: number;
  plays: number;
  /** Bumped whenever fewer may watch the video: part of its media links, so those handed out before die (media/link-access.ts; absent: 0). */
  links_version?: number;
  /** Counters kept in step, in the same transaction, by the operations that change them. */
  likes_total: number;
  comments_total: number;
  credits_total: number;
  pictures_total: number;
  texttracks_total: number;
  users_with_access_total: number;
  /** Albums the video is in. */
  albums_total: number;
  /** Files the video has had: the first upload plus every version. */
  versions_total: number;
  /** The tags on the video, in the order added (their membership rows live in `video_tags`). */
  tags: { name: string; canonical: string }[];
  /**
   * The tags' names as one text, kept in step with `tags` by every tag write: tags live in their
   * own collection, and a search index covers one row, so the video's row carries their words.
   */
  tag_names?: string;
  /** Category slugs suggested for the video (rows in `video_categories`). */
  categories: string[];
  /** The picture shown for the video; null shows the service placeholder. */
  active_picture: PictureRecord | null;
  /** The embed preset applied to the video. */
  preset_id: string | null;
  parent_folder: string | null;
  /**
   * The On Demand page the video is on, kept with every change of its page row (so the video's
   * document, and what is remembered from it, changes with it); null when on none. Absent on
   * videos stored before it existed, which are looked up instead.
   */
  ondemand_page_id?: string | null;
  created_time: string;
  modified_time: string;
  release_time: string;
}

/** A video's renditions in the blob store, under `key`: MP4 files, HLS playlists and the storyboard. */
export interface RenditionSet {
  key: string;
  /** The file they were made from (`VideoFile.key`). */
  source: string;
  master: string;
  list: import('@reelbase/media').Rendition[];
  time: string;
  /** Sprite sheets and their WebVTT file, in the same directory; absent on sets made before them. */
  storyboard?: import('@reelbase/media').Storyboard;
}

/** A video's file in the blob store, with what the probe found. */
export interface VideoFile {
  key: string;
  size: number;
  type: string;
}

export interface EmbedSettings {
  buttons: Record<'embed' | 'fullscreen' | 'hd' | 'like' | 'scaling' | 'share' | 'watchlater', boolean>;
  color: string;
  logos: { service: boolean; custom: { active: boolean; link: string | null; sticky: boolean } };
  playbar: boolean;
  volume: boolean;
  title: Record<'name' | 'owner' | 'portrait', string>;
}

/** A picture: a video thumbnail, a user portrait, an On Demand poster… (`owner_kind` says which). */
export type PictureRecord = {
  id: string;
  owner_kind: string;
  owner_id: string;
  active: boolean;
  /** Offset into the video the thumbnail was taken at, in seconds. */
  time: number | null;
  type: string;
  /** The image PUT to the picture's link; absent or null until one arrives. */
  image?: StoredImage | null;
  created_time: string;
  modified_time: string;
};

/** A set of timeline (scrubbing) thumbnails of a video; generated from the video's frames. */
export type TimelineThumbnailRecord = { id: string; video_id: string; created_time: string; image?: StoredImage | null };

/** An embed preset: a user's named set of player settings that videos can take (`VideoRecord.preset_id`). */
export type PresetRecord = { id: string; user_id: string; name: string; created_time: string };

/** A credit: `user_id` is credited in `role` on a video; `creator_id` added it. */
export type CreditRecord = {
  id: string;
  video_id: string;
  user_id: string;
  creator_id: string;
  name: string;
  role: string;
  /** Where the credited person is reached; kept private, never represented. */
  email: string;
  created_time: string;
  modified_time: string;
};

/** A text track (captions, subtitles…) of a video. */
export type TexttrackRecord = {
  id: string;
  video_id: string;
  name: string;
  language: string;
  type: string;
  /** Shown in the player; at most one active track per language. */
  active: boolean;
  /** True when an administrator disabled the track (a takedown): it can no longer be edited or deleted (403/3431). */
  disabled: boolean;
  /** The WebVTT file PUT to the track's link (SRT arrives converted); absent or null until one arrives. */
  file?: TrackFile | null;
  created_time: string;
  modified_time: string;
};

/** A follow: `user_id` follows `target_id`. Drives `contacts` privacy and the social family. */
export type FollowRecord = { id: string; user_id: string; target_id: string; created_time: string };

/** A membership of a user with a video (likes, watch later, watched, privacy access lists). */
export type UserVideoRecord = { id: string; user_id: string; video_id: string; created_time: string };

/** A domain on a video's embed whitelist (privacy.embed `whitelist`); `domain` is lower case. */
export type VideoDomainRecord = { id: string; video_id: string; domain: string; allow_hd: boolean; created_time: string };

/** A replacement file requested for a video (POST /videos/{id}/versions); its bytes arrive with the uploads issue. */
export type VideoVersionRecord = {
  id: string;
  video_id: string;
  file_name: string;
  upload: { approach: string; link: string | null; size: number | null; status: string; secret?: string | null; expires?: string | null; reserved?: number };
  /** The uploaded replacement, while it is transcoded; it becomes the video's file when its renditions are ready. */
  file?: VideoFile | null;
  created_time: string;
};

/** A tag word anyone has used; `id` is its canonical form, `name` the first spelling seen. */
export type TagRecord = { id: string; name: string; created_time: string };

/** A tag on a video (`tag` is the canonical word); the video's `tags` array mirrors these rows. */
export type VideoTagRecord = { id: string; video_id: string; tag: string; created_time: string };

/** A category suggested for a video (`category` is a slug); the video's `categories` array mirrors these rows. */
export type VideoCategoryRecord = { id: string; video_id: string; category: string; created_time: string };
