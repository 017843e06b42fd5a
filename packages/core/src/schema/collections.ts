import type { CollectionSchema, Schema } from '../store/schema-types';
import { albumCollections } from './albums';
import { analyticsCollections } from './analytics';
import { channelCollections } from './channels';
import { chapterCollections } from './chapters';
import { embedCollections } from './embed';
import { feedCollections } from './feed';
import { groupCollections } from './groups';
import { identityCollections } from './identity';
import { ondemandCollections } from './ondemand';
import { peopleCollections } from './people';
import { mirrorVideo, publicListIndexes, videoFields } from './video-mirror';

/** Tag lists sort by created_time, duration and name (SPEC.md, GET /tags/{word}/videos). */
const tagMirror = mirrorVideo(['created_time', 'duration', 'name']);

/** A user↔video membership (likes, watch later, watch history, access lists): unique per pair. */
const userVideo = (extra: CollectionSchema['fields'] = {}): CollectionSchema => ({
  id: 'auto',
  fields: { user_id: 'string', video_id: 'string', created_time: 'string', ...extra },
  indexes: [['user_id', 'created_time'], ['video_id', 'created_time']],
  unique: [['user_id', 'video_id']],
});

/**
 * Every collection core stores, with the fields it filters and sorts on. Drivers build tables
 * and indexes from this; a family that needs a collection adds it here.
 */
export const schema: Schema = {
  users: {
    id: 'auto',
    fields: {
      name: 'text',
      link: 'string',
      created_time: 'string',
      videos_total: 'integer',
      followers_total: 'integer',
      bio: 'text',
      location: 'text',
    },
    // The last: what a ranked search reads of every match (its tie-break), without the whole row.
    indexes: [['created_time'], ['name'], ['followers_total'], ['videos_total'], ['id', 'followers_total']],
    unique: [['link']],
    search: [['name'], ['bio', 'location']],
  },
  tokens: {
    id: 'text',
    fields: { user_id: 'string', app_id: 'string', code_id: 'string', expires_time: 'string', created_time: 'string' },
    // `reelbase tokens revoke --user ID --all` finds a user's tokens by user_id; deleting an app
    // its tokens by app_id; a reused authorization code the tokens it gave by code_id; issuing a
    // token the expired ones, which go then.
    indexes: [['user_id', 'created_time'], ['app_id'], ['code_id'], ['expires_time']],
  },
  videos: {
    id: 'auto',
    // `tag_names`: the video's tags as one text (VideoRecord), so its search index holds them.
    fields: { ...videoFields, tag_names: 'text' },
    search: [['name'], ['tag_names'], ['description']],
    // A user's videos searched: the index walks that user's matches alone.
    searchKeys: ['user_id'],
    // `sort=relevant` breaks ties by plays (video-search.ts).
    searchTies: 'plays',
    // A user's videos in each sort. Ties go to the lowest id in both directions (the Store
    // contract), so a sort that is descending by default needs a descending key to be read in
    // index order instead of sorted.
    indexes: [
      ['user_id', 'created_time desc'],
      ['user_id', 'name'],
      ['user_id', 'modified_time desc'],
      ['user_id', 'duration desc'],
      ['user_id', 'plays desc'],
      ['user_id', 'likes_total desc'],
      ['user_id', 'comments_total desc'],
      // What others see of a user's videos (the visibility rule) by date, plays and name.
      ['user_id', 'privacy_view', 'created_time desc'],
      ['user_id', 'privacy_view', 'plays desc'],
      ['user_id', 'privacy_view', 'name'],
      // The videos of an embed preset.
      ['preset_id', 'created_time'],
      // What a search reads of every match (privacy and owner for the visibility rule, plays for
      // ties within a tier), looked up by id without reading the whole row.
      ['id', 'privacy_view', 'user_id', 'plays'],
    ],
    // Sorted only within a user's videos (the keys above), or too few values to narrow anything:
    // lists of videos are reached through their user or their membership rows instead.
    unindexed: ['privacy_view', 'status', 'created_time', 'modified_time', 'duration', 'plays', 'likes_total', 'comments_total'],
  },
  /** `user_id` follows `target_id`. */
  follows: {
    id: 'auto',
    fields: { user_id: 'string', target_id: 'string', created_time: 'string' },
    indexes: [['user_id', 'created_time'], ['target_id', 'created_time']],
    unique: [['user_id', 'target_id']],
  },
  likes: userVideo(),
  watchlater: userVideo(),
  /** Watch history; `created_time` is the last time the user watched the video. */
  watched: userVideo(),
  /** Who played a video lately: a play counts once per viewer per video per half hour (domain/plays.ts). */
  recent_plays: {
    id: 'auto',
    fields: { video_id: 'string', viewer: 'string', created_time: 'string' },
    indexes: [['video_id', 'viewer', 'created_time'], ['created_time']],
  },
  /** The users a `users`-privacy video is shared with. */
  video_access: userVideo(),
  /** The embed whitelist of a video. */
  video_domains: {
    id: 'auto',
    fields: { video_id: 'string', domain: 'string', created_time: 'string' },
    indexes: [['video_id', 'created_time']],
    unique: [['video_id', 'domain']],
  },
  /** Replacement files requested for a video, newest last. */
  video_versions: {
    id: 'auto',
    fields: { video_id: 'string', created_time: 'string' },
    indexes: [['video_id', 'created_time']],
  },
  comments: {
    id: 'auto',
    fields: { video_id: 'string', user_id: 'string', parent_id: 'string', text: 'text', created_time: 'string' },
    indexes: [['video_id', 'parent_id', 'created_time'], ['parent_id', 'created_time']],
    search: [['text']],
  },
  credits: {
    id: 'auto',
    fields: { video_id: 'string', user_id: 'string', creator_id: 'string', name: 'text', role: 'string', created_time: 'string' },
    indexes: [['video_id', 'created_time'], ['user_id', 'created_time']],
    unique: [['video_id', 'user_id', 'role']],
  },
  texttracks: {
    id: 'auto',
    fields: { video_id: 'string', language: 'string', type: 'string', active: 'boolean', name: 'text', created_time: 'string' },
    indexes: [['video_id', 'language', 'active'], ['video_id', 'created_time']],
  },
  /** Thumbnails, portraits, posters…: `owner_kind` and `owner_id` say whose. */
  pictures: {
    id: 'auto',
    fields: { owner_kind: 'string', owner_id: 'string', active: 'boolean', created_time: 'string' },
    indexes: [['owner_kind', 'owner_id', 'created_time']],
  },
  timeline_thumbnails: {
    id: 'auto',
    fields: { video_id: 'string', created_time: 'string' },
    indexes: [['video_id', 'created_time']],
  },
  presets: {
    id: 'auto',
    fields: { user_id: 'string', name: 'text', created_time: 'string' },
    indexes: [['user_id', 'created_time']],
  },
  /** Tags by canonical word (the id). */
  tags: {
    id: 'text',
    fields: { name: 'text', created_time: 'string' },
  },
  /** A tag on a video; the rows mirror their video's fields for the tag's list of videos (its sorts). */
  video_tags: {
    id: 'auto',
    fields: { video_id: 'string', tag: 'string', created_time: 'string', ...tagMirror.fields },
    // A video's tags through the unique key; a tag's videos through the list keys. A signed-in
    // viewer's list total (262,000 entries for the busiest tag of a million videos) tests the
    // owner and the video on each entry: the first index holds both, so the count reads no row.
    indexes: [['tag', 'video_privacy_view', 'video_user_id', 'video_id'], ...publicListIndexes('tag', ['created_time desc', 'duration desc', 'name'])],
    unique: [['video_id', 'tag']],
    unindexed: ['created_time'],
    mirror: tagMirror.mirror,
  },
  video_categories: {
    id: 'auto',
    fields: { video_id: 'string', category: 'string', created_time: 'string' },
    indexes: [['category', 'created_time'], ['video_id', 'created_time']],
    unique: [['video_id', 'category']],
  },
  /** Background work (transcodes, webhook deliveries): claimed by state and due time, leased to a worker. */
  jobs: {
    id: 'auto',
    fields: { kind: 'string', state: 'string', subject: 'string', run_after: 'string', created_time: 'string' },
    indexes: [['state', 'run_after'], ['subject', 'created_time']],
    unindexed: ['kind'],
  },
  /** URLs users asked to be sent video events (an extension). */
  webhooks: {
    id: 'auto',
    fields: { user_id: 'string', created_time: 'string' },
    indexes: [['user_id', 'created_time']],
  },
  /** Secrets the service keeps for itself, by name (the key that signs media links). */
  service_keys: {
    id: 'text',
    fields: { created_time: 'string' },
  },
  /**
   * Upgrades of stored documents that have run to their end, by name (fillTagNames): a start
   * skips them instead of looking again for documents to upgrade, which read every video.
   */
  upgrades: {
    id: 'text',
    fields: { created_time: 'string' },
  },
  ...channelCollections,
  ...peopleCollections,
  ...feedCollections,
  ...groupCollections,
  ...albumCollections,
  ...ondemandCollections,
  ...embedCollections,
  ...chapterCollections,
  ...identityCollections,
  ...analyticsCollections,
};
