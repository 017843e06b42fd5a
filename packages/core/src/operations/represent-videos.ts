import type { Filter, Store } from '../store/store';
import { and, isIn } from '../store/filters';
import type { UserRecord, UserVideoRecord, VideoRecord } from '../records';
import type { ProjectRecord } from '../records/project';
import type { Context } from '../engine/operation';
import { clipBase, withViewerState, type ViewerState } from '../representations/video';
import { identityOf, Remembered } from '../support/remembered';
import type { ClipOndemand } from '../records/ondemand';
import { ondemandOfVideos, purchasesOf } from '../domain/clip-ondemand';
import { mayAddToAlbums } from '../domain/albums';
import type { RepresentContext } from '../representations/common';
import { sameVersion, since, type Version } from '../engine/versions';
import { deepFreeze, isShared, sharedOnce } from '../store/copy-json';
import { viewerRows } from '../domain/viewer-filters';
import { GenerationMemory } from '../store/generation-memory';
import { trackLinkExpiry } from '../media/track-links';
import { representContext } from './represent-context';

/**
 * Clip representations for a page of videos: owners, the viewer's likes, queue and history (each
 * skipped when the viewer has none), and the videos' On Demand pages, in one query each.
 */
export async function representVideos(ctx: Context<unknown>, videos: readonly VideoRecord[]): Promise<readonly Record<string, unknown>[]> {
  if (videos.length === 0) return [];
  const asks = pageReads(videos);
  const viewer = ctx.principal.user;
  const withMetadata = since(ctx.version, 'connections');
  // Finds without a limit need no separate count.
  const [owners, folders, { liked, watchlater, watched, moderatedChannels }, ondemand] = await Promise.all([
    ownersOf(ctx.store, asks),
    asks.folders ? ctx.store.find<ProjectRecord>('projects', { where: asks.folders }) : noFolders,
    viewer ? viewerFacts(ctx.store, viewer, asks.videoIds) : noViewerFacts,
    withMetadata ? ondemandOfVideos(ctx.store, videos, viewer) : new Map<string, ClipOndemand>(),
  ]);
  const purchases = viewer && ondemand.size ? await purchasesOf(ctx.store, [...new Set([...ondemand.values()].map((o) => o.page.id))], viewer) : null;
  const rc = representContext(ctx);
  const build = () => clipsOf(videos, owners, folders.items, { liked, watchlater, watched, moderatedChannels }, ondemand, purchases, rc);
  // A page with On Demand videos shows purchases, which run out with time: built on every read.
  if (!isShared(videos) || ondemand.size > 0) return build();
  // Written out part by part: no arrays made for a key built on every read of a hot page.
  let shows = '';
  for (const owner of owners) shows += `${identityOf(owner)},`;
  shows += `${identityOf(folders.items)},${viewer ? identityOf(viewer) : 0},${identityOf(liked)},${identityOf(watchlater)},${identityOf(watched)}`;
  const key = `${shows}\u0000${rc.ownerFiles === true}\u0000${moderatedChannels}\u0000${rc.baseUrl}\u0000${rc.version.join('.')}\u0000${trackLinkExpiry(rc.now)}`;
  return sharedPages.get(videos, key, () => deepFreeze(build()));
}

/**
 * Pages of Clips remembered per shared page of video documents (the store's remembered answer to
 * a list read) and per everything else they show, by identity (what the store shares is a new
 * object once changed): their owners and folders, the viewer's document and rows, and the times
 * their links are signed to. A hot page is then one lookup for every reader who read it before,
 * and its bytes are the Clips' own (http/json-payload.ts).
 */
const sharedPages = new Remembered<readonly Record<string, unknown>[]>(4);

interface PageFacts {
  liked: ReadonlyMap<string, string>;
  watchlater: ReadonlyMap<string, string>;
  watched: ReadonlyMap<string, string>;
  moderatedChannels: number;
}

function clipsOf(
  videos: readonly VideoRecord[],
  owners: readonly UserRecord[],
  folders: readonly ProjectRecord[],
  facts: PageFacts,
  ondemand: ReadonlyMap<string, ClipOndemand>,
  purchases: ReadonlyMap<string, ViewerState['purchases']> | null,
  rc: RepresentContext,
): Record<string, unknown>[] {
  const viewer = rc.viewer;
  const { liked, watchlater, watched, moderatedChannels } = facts;
  const byId = new Map(owners.map((u) => [u.id, u]));
  const folderById = new Map(folders.map((f) => [f.id, f]));
  return videos.map((v) => {
    const owner = byId.get(v.user_id)!;
    const folder = (v.parent_folder && folderById.get(v.parent_folder)) || null;
    const od = ondemand.get(v.id) ?? null;
    const state: ViewerState = {
      liked: liked.get(v.id) ?? null,
      watchlater: watchlater.get(v.id) ?? null,
      watched: watched.get(v.id) ?? null,
      moderatedChannels,
      availableAlbums: viewer && mayAddToAlbums(v, viewer) ? viewer.albums_total : 0,
      purchases: (od && purchases?.get(od.page.id)) || {},
    };
    return withViewerState(sharedBase(v, owner, folder, od, rc), v, rc, state, od);
  });
}

interface SharedBase {
  /** The documents besides the video that it shows, each as it was when the base was built. */
  shows: readonly unknown[];
  baseUrl: string;
  version: Version;
  expires: number;
  base: Record<string, unknown>;
}

/**
 * Clip bases (representations/video.ts clipBase), remembered per video document and role: the
 * owner's (with their source files when the token holds video_files, or without), and everybody else's. A store that shares unchanged documents (SQLite's read cache
 * answers the same frozen object until it changes) makes the documents the key: a hot video's
 * Clip is built once per owner, folder and On Demand document, origin and version, not on every
 * read, and its strings are laid out once for every serialisation after (http/json-payload.ts
 * reuses the bytes of frozen parts). Shared, so frozen; the fresh objects of other stores are
 * never remembered.
 */
const sharedBases = new WeakMap<VideoRecord, { owner?: SharedBase; ownerFiles?: SharedBase; others?: SharedBase }>();

function sharedBase(video: VideoRecord, owner: UserRecord, folder: ProjectRecord | null, od: ClipOndemand | null, rc: RepresentContext): Record<string, unknown> {
  const shows = [owner, folder, od?.page ?? null, od?.row ?? null, od?.season ?? null, od?.trailer ?? null];
  if (!isShared(video) || !shows.every((doc) => doc === null || isShared(doc))) return clipBase(video, owner, rc, folder, od);
  const role = rc.viewer?.id !== video.user_id ? 'others' : rc.ownerFiles ? 'ownerFiles' : 'owner';
  let known = sharedBases.get(video);
  if (!known) sharedBases.set(video, (known = {}));
  const shared = known[role];
  // Its playback links are signed until a day after the day it was built: a new day builds it anew.
  const expires = trackLinkExpiry(rc.now);
  if (
    shared &&
    shared.shows.every((doc, i) => doc === shows[i]) &&
    shared.baseUrl === rc.baseUrl &&
    shared.expires === expires &&
    sameVersion(shared.version, rc.version)
  ) {
    return shared.base;
  }
  // Everybody but the owner sees the same base, so it is built for nobody in particular.
  const base = deepFreeze(clipBase(video, owner, role === 'others' ? { ...rc, viewer: null } : rc, folder, od));
  known[role] = { shows, baseUrl: rc.baseUrl, version: rc.version, expires, base };
  return base;
}

/** What a page of Clips reads besides the viewer's rows: its owners, its folders (when any), its videos' ids. */
interface PageReads {
  ownerIds: readonly string[];
  owners: Filter;
  folders: Filter | null;
  videoIds: readonly string[];
}

/**
 * A page's reads, made once per shared page (the store's remembered answer) and shared, so that a
 * store that remembers reads keys them without writing their ids out again on every read
 * (store-sqlite read-keys.ts).
 */
function pageReads(videos: readonly VideoRecord[]): PageReads {
  return sharedOnce(sharedPageReads, videos, () => {
    const ownerIds = [...new Set(videos.map((v) => v.user_id))];
    const folderIds = [...new Set(videos.flatMap((v) => (v.parent_folder ? [v.parent_folder] : [])))];
    return { ownerIds, owners: isIn('id', ownerIds), folders: folderIds.length ? isIn('id', folderIds) : null, videoIds: videos.map((v) => v.id) };
  });
}

const sharedPageReads = new WeakMap<readonly VideoRecord[], PageReads>();

/** The owners of a page of videos; one owner (a single video, one user's page) is a point read. */
async function ownersOf(store: Store, { ownerIds, owners }: PageReads): Promise<UserRecord[]> {
  if (ownerIds.length !== 1) return (await store.find<UserRecord>('users', { where: owners })).items;
  const owner = await store.get<UserRecord>('users', ownerIds[0]);
  return owner ? [owner] : [];
}

/** A viewer's rows of a membership collection read whole where the store remembers reads, up to this many. */
const WHOLE_ROWS = 50;

const noTimes: ReadonlyMap<string, string> = new Map();
const noViewerFacts: PageFacts = { liked: noTimes, watchlater: noTimes, watched: noTimes, moderatedChannels: 0 };

/**
 * The viewer's likes, queue and history of `videoIds` (each skipped when they have none), and how
 * many channels they moderate. Read whole (few rows), they are the same for every page: remembered
 * per viewer document while the store's generation stands (GenerationMemory).
 */
function viewerFacts(store: Store, viewer: UserRecord, videoIds: readonly string[]): PageFacts | Promise<PageFacts> {
  const whole = (total: number) => store.remembersReads === true && total <= WHOLE_ROWS;
  const read = async (): Promise<PageFacts> => {
    const times = (collection: 'likes' | 'watchlater' | 'watched', total: number) =>
      total > 0 ? timesByVideo(store, collection, viewer, whole(total) ? null : videoIds) : noTimes;
    const [liked, watchlater, watched, moderatedChannels] = await Promise.all([
      times('likes', viewer.likes_total),
      times('watchlater', viewer.watchlater_total),
      times('watched', viewer.watched_total),
      store.count('channel_moderators', viewerRows(viewer)),
    ]);
    return { liked, watchlater, watched, moderatedChannels };
  };
  const pageFree = whole(viewer.likes_total) && whole(viewer.watchlater_total) && whole(viewer.watched_total);
  // One video's facts (GET /videos/{id}, read over and over by its viewer) are remembered per video,
  // and a shared page's (a hot list page, whose ids pageReads made once) per page: asked anew, the
  // reads' conditions name every id of the page, and their keys were written out on every read.
  const memory = pageFree ? viewersFacts : videoIds.length === 1 || isShared(videoIds) ? viewersVideoFacts : null;
  if (!memory) return read();
  const key = pageFree ? '' : videoIds.length === 1 ? videoIds[0] : `page\u0000${identityOf(videoIds)}`;
  // Known, they are answered as they are: no promise to wait a microtask for.
  return memory.known(store, viewer, key) ?? memory.get(store, viewer, key, read);
}

const viewersFacts = new GenerationMemory<PageFacts>(1);
/** Per viewer, the facts of the videos they read one at a time lately, and of the shared pages they read. */
const viewersVideoFacts = new GenerationMemory<PageFacts>(1024);
const noFolders = { items: [] as readonly ProjectRecord[], total: 0 };

/**
 * video id → time of the viewer's row in a user↔video membership collection, for `videoIds`, or
 * for all their rows (null). A store that remembers reads is asked for all the viewer's rows when
 * they are few: the same read for every video and page they look at, remembered once, where
 * asking for each page's videos is a new read per page.
 */
async function timesByVideo(store: Store, collection: string, viewer: UserRecord, videoIds: readonly string[] | null): Promise<ReadonlyMap<string, string>> {
  const { items } = await store.find<UserVideoRecord>(collection, { where: videoIds ? and(viewerRows(viewer), isIn('video_id', videoIds)) : viewerRows(viewer) });
  return timesOf(items);
}

/** The rows' times by video, made once per remembered (frozen, shared) answer. */
const timesOf = (rows: readonly UserVideoRecord[]): ReadonlyMap<string, string> =>
  sharedOnce(rememberedTimes, rows, () => new Map(rows.map((r) => [r.video_id, r.created_time])));

const rememberedTimes = new WeakMap<readonly UserVideoRecord[], ReadonlyMap<string, string>>();

export async function representOne(ctx: Context<unknown>, video: VideoRecord): Promise<Record<string, unknown>> {
  return (await representVideos(ctx, pageOfOne(video)))[0];
}

/**
 * A shared video document as a page of one, the same shared array on every read of it: its reads
 * (pageReads) and its Clip as each viewer sees it (sharedPages) are then remembered as a hot list
 * page's are, where a new array on every GET /videos/{id} built them again each time.
 */
const pageOfOne = (video: VideoRecord): readonly VideoRecord[] => (isShared(video) ? sharedOnce(pagesOfOne, video, () => [video]) : [video]);

const pagesOfOne = new WeakMap<VideoRecord, readonly VideoRecord[]>();
