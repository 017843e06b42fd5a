/**
 * The resource-shaped commands (`reelbase videos list`, `channels add-video`…), declared as data:
 * each verb names the operation of the table it calls. `resource-commands.ts` turns this into
 * commander commands: positional ids from the verb, flags from the operation's parameters.
 */

/** What a verb does; its positional arguments are the resource id and, for the last two, a video id. */
export type Verb = 'list' | 'get' | 'create' | 'update' | 'delete' | 'videos' | 'add-video' | 'remove-video';

export interface Resource {
  /** The command: `reelbase <name> <verb>`. */
  name: string;
  /** One of them, in descriptions and messages. */
  noun: string;
  /** The positional id (`<album_id>`) and, when the table names that path variable differently, the variable. */
  id: string;
  idParam?: string;
  /** Default table columns for a list of them (`--fields` replaces them). */
  columns: readonly string[];
  /** Verb → operation id, in the order the subcommands are listed. */
  operations: Partial<Record<Verb, string>>;
  examples: readonly string[];
}

export const videoColumns = ['uri', 'name', 'privacy.view', 'status', 'created_time'] as const;

export const resources: readonly Resource[] = [
  {
    name: 'videos',
    noun: 'video',
    id: 'video_id',
    columns: videoColumns,
    operations: { list: 'users.videos.list', get: 'videos.get', create: 'users.videos.create', update: 'videos.update', delete: 'videos.delete' },
    examples: [
      'reelbase videos list --sort alphabetical --all',
      'reelbase videos create --name "First light" --privacy.view unlisted --upload.approach tus --upload.size 1048576',
      'reelbase videos update 7 --name Renamed --privacy.view nobody',
    ],
  },
  {
    name: 'channels',
    noun: 'channel',
    id: 'channel_id',
    columns: ['uri', 'name', 'privacy.view', 'created_time'],
    operations: {
      list: 'channels.list',
      get: 'channels.get',
      create: 'channels.create',
      update: 'channels.update',
      delete: 'channels.delete',
      videos: 'channels.videos.list',
      'add-video': 'channels.videos.put',
      'remove-video': 'channels.videos.delete',
    },
    examples: ['reelbase channels create --name Staff --privacy anybody', 'reelbase channels add-video 3 7', 'reelbase channels videos 3 --all --jsonl'],
  },
  {
    name: 'albums',
    noun: 'album',
    id: 'album_id',
    columns: ['uri', 'name', 'privacy.view', 'duration', 'created_time'],
    operations: {
      list: 'users.albums.list',
      get: 'users.albums.get',
      create: 'users.albums.create',
      update: 'users.albums.update',
      delete: 'users.albums.delete',
      videos: 'users.albums.videos.list',
      'add-video': 'users.albums.videos.put',
      'remove-video': 'users.albums.videos.delete',
    },
    examples: ['reelbase albums create --name Holidays --privacy anybody', 'reelbase albums add-video 4 7', 'reelbase albums list --user 2'],
  },
  {
    name: 'folders',
    noun: 'folder',
    id: 'folder_id',
    idParam: 'project_id',
    columns: ['uri', 'name', 'modified_time'],
    operations: {
      list: 'users.projects.list',
      get: 'users.projects.get',
      create: 'users.projects.create',
      update: 'users.projects.update',
      delete: 'users.projects.delete',
      videos: 'users.projects.videos.list',
      'add-video': 'users.projects.videos.put',
      'remove-video': 'users.projects.videos.delete',
    },
    examples: ['reelbase folders create --name Drafts', 'reelbase folders add-video 2 7', 'reelbase folders videos 2'],
  },
  {
    name: 'ondemand',
    noun: 'On Demand page',
    id: 'ondemand_id',
    columns: ['uri', 'name', 'type', 'created_time'],
    operations: { list: 'ondemand.pages.list', get: 'ondemand.pages.get', create: 'ondemand.pages.create', update: 'ondemand.pages.update', delete: 'ondemand.pages.delete' },
    examples: ['reelbase ondemand create --name "The Film" --type film --content_rating safe --buy.active true --buy.price.USD 9.99', 'reelbase ondemand list'],
  },
];
