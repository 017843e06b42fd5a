import type { Operation } from '@reelbase/core';
import { objectFields } from '@reelbase/core';

/** How a value is shown in the list or the detail pane. */
export type Format = 'text' | 'time' | 'duration' | 'names' | 'yesno' | 'count';

/** One labelled value of the detail pane: its dot path in the item and how to show it. */
export interface DetailField {
  label: string;
  path: string;
  format?: Format;
}

export type SectionId = 'videos' | 'channels' | 'albums' | 'folders' | 'following' | 'feed' | 'search' | 'jobs';

/** One browsable list of the TUI, described as data: the reducer and the loader read it. */
export interface Section {
  id: SectionId;
  title: string;
  /** The list operation of the table (called with no user_id, so it lists the caller's: `/me/…`). */
  list: string;
  /** Fields asked for (sent as `fields`), enough for the list row and the detail pane. */
  fields: readonly string[];
  /** The row label: a path, falling back to `uri`. */
  label: string;
  /** A short second column in the list (privacy, type…). */
  aside?: DetailField;
  detail: readonly DetailField[];
  /** Where a video sits in an item ('' for the item itself, `clip` in feed activities); none: no video actions. */
  video?: string;
  /** The list answers only a search (`query` is required): showing it asks for one first. */
  searchOnly?: boolean;
  /** Its items are background jobs: the list reloads itself while shown, R retries and X cancels (the admin operations). */
  jobs?: true;
}

/** How often a job list reloads itself while it is shown. */
export const jobsRefreshSeconds = 5;

/** The fields of a video the TUI reads, for lists and for `videos.get` after an action. */
export const videoFields = [
  'uri', 'name', 'description', 'privacy.view', 'status', 'duration', 'created_time', 'modified_time', 'link',
  'user.uri', 'user.name', 'tags.name', 'stats.plays', 'metadata.connections.comments.total', 'metadata.connections.likes.total',
  'metadata.interactions.like.added', 'metadata.interactions.watchlater.added',
] as const;

const videoDetail: DetailField[] = [
  { label: 'Privacy', path: 'privacy.view' },
  { label: 'Status', path: 'status' },
  { label: 'Duration', path: 'duration', format: 'duration' },
  { label: 'Owner', path: 'user.name' },
  { label: 'Created', path: 'created_time', format: 'time' },
  { label: 'Modified', path: 'modified_time', format: 'time' },
  { label: 'Plays', path: 'stats.plays', format: 'count' },
  { label: 'Likes', path: 'metadata.connections.likes.total', format: 'count' },
  { label: 'Comments', path: 'metadata.connections.comments.total', format: 'count' },
  { label: 'Tags', path: 'tags', format: 'names' },
  { label: 'Liked', path: 'metadata.interactions.like.added', format: 'yesno' },
  { label: 'Watch later', path: 'metadata.interactions.watchlater.added', format: 'yesno' },
  { label: 'Link', path: 'link' },
  { label: 'Description', path: 'description' },
];

const prefixed = (prefix: string, fields: readonly DetailField[]): DetailField[] => fields.map((f) => ({ ...f, path: `${prefix}.${f.path}` }));

export const sections: readonly Section[] = [
  {
    id: 'videos',
    title: 'Videos',
    list: 'users.videos.list',
    fields: videoFields,
    label: 'name',
    aside: { label: 'Privacy', path: 'privacy.view' },
    detail: videoDetail,
    video: '',
  },
  {
    id: 'channels',
    title: 'Channels',
    list: 'users.channels.list',
    fields: ['uri', 'name', 'description', 'privacy.view', 'link', 'user.name', 'created_time', 'metadata.connections.videos.total', 'metadata.connections.users.total'],
    label: 'name',
    aside: { label: 'Privacy', path: 'privacy.view' },
    detail: [
      { label: 'Privacy', path: 'privacy.view' },
      { label: 'Owner', path: 'user.name' },
      { label: 'Created', path: 'created_time', format: 'time' },
      { label: 'Videos', path: 'metadata.connections.videos.total', format: 'count' },
      { label: 'Followers', path: 'metadata.connections.users.total', format: 'count' },
      { label: 'Link', path: 'link' },
      { label: 'Description', path: 'description' },
    ],
  },
  {
    id: 'albums',
    title: 'Albums',
    list: 'users.albums.list',
    fields: ['uri', 'name', 'description', 'privacy.view', 'duration', 'link', 'created_time', 'modified_time', 'metadata.connections.videos.total'],
    label: 'name',
    aside: { label: 'Privacy', path: 'privacy.view' },
    detail: [
      { label: 'Privacy', path: 'privacy.view' },
      { label: 'Videos', path: 'metadata.connections.videos.total', format: 'count' },
      { label: 'Duration', path: 'duration', format: 'duration' },
      { label: 'Created', path: 'created_time', format: 'time' },
      { label: 'Modified', path: 'modified_time', format: 'time' },
      { label: 'Link', path: 'link' },
      { label: 'Description', path: 'description' },
    ],
  },
  {
    id: 'folders',
    title: 'Folders',
    list: 'users.projects.list',
    fields: ['uri', 'name', 'link', 'created_time', 'modified_time', 'metadata.connections.videos.total'],
    label: 'name',
    aside: { label: 'Modified', path: 'modified_time', format: 'time' },
    detail: [
      { label: 'Videos', path: 'metadata.connections.videos.total', format: 'count' },
      { label: 'Created', path: 'created_time', format: 'time' },
      { label: 'Modified', path: 'modified_time', format: 'time' },
      { label: 'Link', path: 'link' },
    ],
  },
  {
    id: 'following',
    title: 'Following',
    list: 'users.following.list',
    fields: ['uri', 'name', 'location', 'bio', 'link', 'account', 'created_time', 'metadata.connections.videos.total', 'metadata.connections.followers.total'],
    label: 'name',
    aside: { label: 'Location', path: 'location' },
    detail: [
      { label: 'Location', path: 'location' },
      { label: 'Account', path: 'account' },
      { label: 'Videos', path: 'metadata.connections.videos.total', format: 'count' },
      { label: 'Followers', path: 'metadata.connections.followers.total', format: 'count' },
      { label: 'Joined', path: 'created_time', format: 'time' },
      { label: 'Link', path: 'link' },
      { label: 'Bio', path: 'bio' },
    ],
  },
  {
    id: 'feed',
    title: 'Feed',
    list: 'users.feed.list',
    fields: ['uri', 'type', 'time', ...videoFields.map((f) => `clip.${f}`)],
    label: 'clip.name',
    aside: { label: 'Type', path: 'type' },
    detail: [{ label: 'Activity', path: 'type' }, { label: 'When', path: 'time', format: 'time' }, ...prefixed('clip', videoDetail)],
    video: 'clip',
  },
  {
    id: 'search',
    title: 'Search',
    list: 'videos.search',
    fields: videoFields,
    label: 'name',
    aside: { label: 'Owner', path: 'user.name' },
    detail: videoDetail,
    video: '',
    searchOnly: true,
  },
  {
    id: 'jobs',
    title: 'Jobs',
    list: 'admin.jobs.list',
    fields: ['uri', 'kind', 'state', 'subject', 'attempts', 'max_attempts', 'last_error', 'created_time', 'due_time', 'finished_time', 'worker'],
    label: 'kind',
    aside: { label: 'State', path: 'state' },
    detail: [
      { label: 'Job', path: 'uri' },
      { label: 'State', path: 'state' },
      { label: 'Subject', path: 'subject' },
      { label: 'Attempts', path: 'attempts', format: 'count' },
      { label: 'Allowed', path: 'max_attempts', format: 'count' },
      { label: 'Last error', path: 'last_error' },
      { label: 'Created', path: 'created_time', format: 'time' },
      { label: 'Due', path: 'due_time', format: 'time' },
      { label: 'Finished', path: 'finished_time', format: 'time' },
      { label: 'Worker', path: 'worker' },
    ],
    jobs: true,
  },
];

export const sectionById = (id: SectionId): Section => sections.find((s) => s.id === id)!;

/** The sections whose list operation takes a `query` parameter, read from the operation table. */
export function searchableSections(operations: readonly Operation<unknown>[]): SectionId[] {
  return sections
    .filter((s) => {
      const op = operations.find((o) => o.id === s.list);
      return !!op?.params && !!objectFields(op.params)?.some(([name]) => name === 'query');
    })
    .map((s) => s.id);
}
