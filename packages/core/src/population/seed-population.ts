import type { Doc, Store } from '../store/store';
import { and } from '../store/filters';
import { by } from '../engine/list';
import type { FollowRecord, UserRecord, UserVideoRecord, VideoRecord, VideoTagRecord } from '../records';
import type { ActivityRecord, ActivityType } from '../records/feed';
import type { ChannelRecord, ChannelUserRecord, ChannelVideoRecord } from '../records/channel';
import type { CommentRecord } from '../records/comment';
import { newChannel } from '../domain/channels';
import { markUpgraded, rememberTag, tagNames, TAG_NAMES_UPGRADE } from '../domain/tags';
import { newUser } from '../domain/users';
import { newVideo } from '../domain/video-write';
import { populationOptions, type PopulationOptions } from './options';
import { planPopulation, videoPrivacy, type Pairs, type PopulationPlan } from './plan';
import { Batches } from './batches';
import { isoFromMs as iso } from './iso-times';
import { Random } from './random';
import * as words from './words';

/** What a seed wrote, by kind, and how long it took. */
export interface PopulationSummary {
  users: number;
  videos: number;
  tags: number;
  videoTags: number;
  follows: number;
  likes: number;
  comments: number;
  channels: number;
  channelVideos: number;
  channelFollows: number;
  activities: number;
  /** The biggest lists the population holds, to try (or benchmark) paging deep into them. */
  busiest: Busiest;
  milliseconds: number;
}

/** The user, channel and tag with the most videos, and the most played video anybody may see. */
export interface Busiest {
  user: { id: string; videos: number } | null;
  channel: { id: string; videos: number } | null;
  tag: { word: string; videos: number } | null;
  video: { id: string; plays: number } | null;
}

export interface SeedContext {
  /** The end of the population's timeline (its last event is before it). */
  now?: Date;
  /** Plan of the users created (the service's default). */
  defaultAccount?: string;
  /** Called after each batch: the step (`videos`, `likes`…), rows written so far and the step's total. */
  onProgress?: (step: string, done: number, total: number) => void;
}

const resolutions: [number, number][] = [
  [1920, 1080],
  [1280, 720],
  [3840, 2160],
  [1080, 1920],
];

/**
 * Writes a synthetic population into `store` through the Store contract, `batchSize` documents a
 * transaction: users with power-law followers and uploads, videos with power-law plays, tags,
 * likes, comments and replies, channels with videos and followers, and the feed events all of
 * that would have recorded. Every counter (followers, likes, comments, channel totals…) is
 * written final with its record, and store ids follow the timeline. A store that already holds
 * data keeps it: the population only relates to itself. An interrupted seed leaves the steps
 * written so far, so seed into a fresh store.
 */
export async function seedPopulation(store: Store, given: Partial<PopulationOptions> = {}, context: SeedContext = {}): Promise<PopulationSummary> {
  const started = performance.now();
  const options = populationOptions(given);
  const now = (context.now ?? new Date()).getTime();
  const plan = planPopulation(options, now);
  const writer = new PopulationWriter(store, plan, options, context);
  return { ...(await writer.write()), milliseconds: performance.now() - started };
}

/** The steps of a seed, in an order where every row names records written before it. */
class PopulationWriter {
  readonly #random: Random;
  readonly #counts: Counters;
  readonly userIds: string[] = [];
  readonly videoIds: string[] = [];
  readonly #channelIds: string[] = [];

  constructor(
    private readonly store: Store,
    private readonly plan: PopulationPlan,
    private readonly options: PopulationOptions,
    private readonly context: SeedContext,
  ) {
    // Texts come from their own stream, so they do not shift the plan's draws.
    this.#random = new Random(options.seed ^ 0x5eed);
    this.#counts = countAll(plan);
  }

  async write(): Promise<Omit<PopulationSummary, 'milliseconds'>> {
    const { plan } = this;
    // Seeded videos carry their tags' text: a store that had no videos before has none to fill.
    const fresh = !(await this.store.findOne('videos', and()));
    const tags = await this.#tags();
    await this.#users();
    await this.#videos();
    const videoTags = plan.videos.tags.list.length;
    await this.#insertAll('video_tags', plan.videos.tags.start.length - 1, (v) => this.#videoTags(v));
    await this.#pairs('follows', plan.follows, (a, b, time): Omit<FollowRecord, 'id'> => ({ user_id: this.userIds[a], target_id: this.userIds[b], created_time: time }));
    await this.#pairs('likes', plan.likes, (a, b, time): Omit<UserVideoRecord, 'id'> => ({ user_id: this.userIds[a], video_id: this.videoIds[b], created_time: time }));
    await this.#comments();
    await this.#channels();
    const { owner } = plan.channels;
    await this.#pairs('channel_videos', plan.channelVideos, (c, v, time, i): Omit<ChannelVideoRecord, 'id'> => ({
      channel_id: this.#channelIds[c],
      video_id: this.videoIds[v],
      user_id: this.userIds[owner[c]],
      position: plan.channelVideos.position[i],
      created_time: time,
    }));
    await this.#pairs('channel_followers', plan.channelFollows, (c, u, time): Omit<ChannelUserRecord, 'id'> => ({
      channel_id: this.#channelIds[c],
      user_id: this.userIds[u],
      created_time: time,
    }));
    const activities = await this.#activities();
    if (fresh) await markUpgraded(this.store, TAG_NAMES_UPGRADE, new Date(plan.start));
    return {
      users: this.userIds.length,
      videos: this.videoIds.length,
      tags,
      videoTags,
      follows: plan.follows.a.length,
      likes: plan.likes.a.length,
      comments: plan.comments.video.length,
      channels: this.#channelIds.length,
      channelVideos: plan.channelVideos.a.length,
      channelFollows: plan.channelFollows.a.length,
      activities,
      busiest: this.#busiest(),
    };
  }

  #busiest(): Busiest {
    const { plan } = this;
    const c = this.#counts;
    const user = argMax(c.userVideos);
    const channel = argMax(c.channelVideos);
    const tagVideos = new Uint32Array(plan.tags.name.length);
    for (const t of plan.videos.tags.list) tagVideos[t]++;
    const tag = argMax(tagVideos);
    const plays = Uint32Array.from(plan.videos.plays, (p, v) => (plan.videos.privacy[v] === 0 ? p + 1 : 0));
    const video = argMax(plays);
    return {
      user: user < 0 ? null : { id: this.userIds[user], videos: c.userVideos[user] },
      channel: channel < 0 ? null : { id: this.#channelIds[channel], videos: c.channelVideos[channel] },
      tag: tag < 0 ? null : { word: plan.tags.canonical[tag], videos: tagVideos[tag] },
      video: video < 0 ? null : { id: this.videoIds[video], plays: plan.videos.plays[video] },
    };
  }

  /** Words used by some video, recorded at their first use (a word the store knows keeps its record). */
  async #tags(): Promise<number> {
    const { canonical, name, firstUse } = this.plan.tags;
    const used = [...firstUse.keys()].filter((t) => !Number.isNaN(firstUse[t]));
    await this.#steps('tags', used.length, (tx, i) => rememberTag(tx, { name: name[used[i]], canonical: canonical[used[i]] }, iso(firstUse[used[i]])));
    return used.length;
  }

  async #users(): Promise<void> {
    const c = this.#counts;
    const account = this.context.defaultAccount;
    const record = (u: number): Omit<UserRecord, 'id'> => ({
      ...newUser({ name: words.personName(this.#random), location: words.location(this.#random) }, iso(this.plan.users.created[u]), account),
      videos_total: c.userVideos[u],
      followers_total: c.followers[u],
      following_total: c.following[u],
      likes_total: c.userLikes[u],
      channels_total: c.channelsFollowed[u],
    });
    await this.#insertAll('users', this.plan.users.created.length, record, this.userIds);
  }

  async #videos(): Promise<void> {
    const v = this.plan.videos;
    const c = this.#counts;
    const template = newVideo({ ...newUser({ name: '' }, iso(this.plan.start)), id: '' }, new Date(this.plan.start));
    const record = (i: number): Omit<VideoRecord, 'id'> => {
      const time = iso(v.time[i]);
      const [width, height] = this.#random.pick(resolutions);
      const tags = Array.from(this.#tagsOf(i), (t) => ({ name: this.plan.tags.name[t], canonical: this.plan.tags.canonical[t] }));
      return {
        ...template,
        user_id: this.userIds[v.owner[i]],
        name: words.videoTitle(this.#random, i + 1),
        description: words.videoDescription(this.#random),
        privacy_view: videoPrivacy[v.privacy[i]],
        // Metadata only: the population has no files, so /videos/{id}/file answers 404.
        upload: { ...template.upload, approach: 'tus', status: 'complete' },
        status: 'available',
        transcode_status: 'complete',
        duration: v.duration[i],
        width,
        height,
        plays: v.plays[i],
        likes_total: c.videoLikes[i],
        comments_total: c.videoComments[i],
        tags,
        tag_names: tagNames(tags),
        created_time: time,
        modified_time: time,
        release_time: time,
      };
    };
    await this.#insertAll('videos', v.time.length, record, this.videoIds);
  }

  #videoTags(v: number): Omit<VideoTagRecord, 'id'>[] {
    const time = iso(this.plan.videos.time[v]);
    return Array.from(this.#tagsOf(v), (t) => ({ video_id: this.videoIds[v], tag: this.plan.tags.canonical[t], created_time: time }));
  }

  #tagsOf(v: number): Uint32Array {
    const { start, list } = this.plan.videos.tags;
    return list.subarray(start[v], start[v + 1]);
  }

  async #comments(): Promise<void> {
    const k = this.plan.comments;
    const ids: string[] = [];
    await this.#steps('comments', k.video.length, async (tx, i) => {
      const record: Omit<CommentRecord, 'id'> = {
        video_id: this.videoIds[k.video[i]],
        user_id: this.userIds[k.user[i]],
        parent_id: k.parent[i] < 0 ? null : ids[k.parent[i]],
        text: words.commentText(this.#random),
        created_time: iso(k.time[i]),
        replies_total: this.#counts.replies[i],
      };
      ids.push((await tx.insert<CommentRecord>('comments', record)).id);
    });
  }

  /** Channels, each with its owner as moderator and follower (as POST /channels makes them). */
  async #channels(): Promise<void> {
    const { owner, created } = this.plan.channels;
    const c = this.#counts;
    await this.#steps('channels', owner.length, async (tx, i) => {
      const time = iso(created[i]);
      const fields = { name: words.channelName(this.#random, i + 1), description: words.channelDescription(this.#random), link: null, privacy_view: 'anybody' as const };
      const channel = await tx.insert<ChannelRecord>('channels', {
        ...newChannel(this.userIds[owner[i]], fields, time),
        followers_total: c.channelFollowers[i],
        videos_total: c.channelVideos[i],
        moderators_total: 1,
      });
      const membership = { channel_id: channel.id, user_id: channel.user_id, created_time: time };
      await tx.insert<ChannelUserRecord>('channel_moderators', membership);
      await tx.insert<ChannelUserRecord>('channel_followers', membership);
      this.#channelIds.push(channel.id);
    });
  }

  /**
   * The feed events of everything written, in time order (their `seq` continues the store's):
   * each upload and the tags it came with, likes, and videos added to channels.
   */
  async #activities(): Promise<number> {
    const { videos, likes, channelVideos, channels } = this.plan;
    const last = await this.store.findOne<ActivityRecord>('activities', and(), by('seq', 'desc'));
    let seq = last?.seq ?? 0;
    const total = videos.time.length + videos.tags.list.length + likes.a.length + channelVideos.a.length;
    const batches = new Batches(this.store, 'activities');
    let batch: Omit<ActivityRecord, 'id'>[] = [];
    let built = 0;
    const add = (type: ActivityType, video: number, user: string, subject: string | null, time: string) =>
      batch.push({ type, video_id: this.videoIds[video], user_id: user, subject, seq: ++seq, created_time: time });
    // Merges the three time-sorted streams; an upload's tags come with it, at its time.
    for (let v = 0, l = 0, c = 0; ; ) {
      const tv = videos.time[v] ?? Infinity;
      const tl = likes.time[l] ?? Infinity;
      const tc = channelVideos.time[c] ?? Infinity;
      const first = Math.min(tv, tl, tc);
      if (first !== Infinity) {
        const time = iso(first);
        if (first === tv) {
          const user = this.userIds[videos.owner[v]];
          add('uploads', v, user, null, time);
          for (const t of this.#tagsOf(v)) add('tagged_with', v, user, this.plan.tags.canonical[t], time);
          v++;
        } else if (first === tl) {
          add('likes', likes.b[l], this.userIds[likes.a[l]], null, time);
          l++;
        } else {
          const channel = channelVideos.a[c];
          add('channel', channelVideos.b[c], this.userIds[channels.owner[channel]], this.#channelIds[channel], time);
          c++;
        }
      }
      if (batch.length >= this.options.batchSize || (first === Infinity && batch.length > 0)) {
        const written = (built += batch.length);
        await batches.send(batch, () => this.context.onProgress?.('activities', written, total));
        batch = [];
      }
      if (first === Infinity) {
        await batches.flush();
        return total;
      }
    }
  }

  async #pairs(collection: string, pairs: Pairs, record: (a: number, b: number, time: string, i: number) => Omit<Doc, 'id'>): Promise<void> {
    await this.#insertAll(collection, pairs.a.length, (i) => record(pairs.a[i], pairs.b[i], iso(pairs.time[i]), i));
  }

  /**
   * Inserts what `rows(i)` gives for i = 0…total-1, the rows of `batchSize` items in one
   * insertMany (one transaction), reporting progress after each; the ids go to `ids` in order.
   */
  async #insertAll(step: string, total: number, rows: (i: number) => Omit<Doc, 'id'> | Omit<Doc, 'id'>[], ids?: string[]): Promise<void> {
    const size = this.options.batchSize;
    const batches = new Batches(this.store, step);
    for (let from = 0; from < total; from += size) {
      const to = Math.min(total, from + size);
      const batch: Omit<Doc, 'id'>[] = [];
      for (let i = from; i < to; i++) {
        const made = rows(i);
        if (Array.isArray(made)) batch.push(...made);
        else batch.push(made);
      }
      await batches.send(batch, (inserted) => {
        if (ids) ids.push(...inserted);
        this.context.onProgress?.(step, to, total);
      });
    }
    await batches.flush();
  }

  /** Runs `write` for 0…total-1, `batchSize` a transaction, reporting progress after each. */
  async #steps(step: string, total: number, write: (tx: Store, i: number) => Promise<void>): Promise<void> {
    const size = this.options.batchSize;
    for (let from = 0; from < total; from += size) {
      const to = Math.min(total, from + size);
      await this.store.transaction(async (tx) => {
        for (let i = from; i < to; i++) await write(tx, i);
      });
      this.context.onProgress?.(step, to, total);
    }
  }
}

/** Every counter the population's records carry, computed from the plan. */
interface Counters {
  userVideos: Uint32Array;
  followers: Uint32Array;
  following: Uint32Array;
  userLikes: Uint32Array;
  channelsFollowed: Uint32Array;
  videoLikes: Uint32Array;
  videoComments: Uint32Array;
  replies: Uint32Array;
  channelFollowers: Uint32Array;
  channelVideos: Uint32Array;
}

function countAll(plan: PopulationPlan): Counters {
  const users = plan.users.created.length;
  const videos = plan.videos.time.length;
  const channels = plan.channels.owner.length;
  const tally = (size: number, keys: ArrayLike<number>, start = 0): Uint32Array => {
    const out = new Uint32Array(size).fill(start);
    for (let i = 0; i < keys.length; i++) out[keys[i]]++;
    return out;
  };
  const channelsFollowed = tally(users, plan.channelFollows.b);
  // Each owner follows their own channel.
  for (const owner of plan.channels.owner) channelsFollowed[owner]++;
  return {
    userVideos: tally(users, plan.videos.owner),
    followers: tally(users, plan.follows.b),
    following: tally(users, plan.follows.a),
    userLikes: tally(users, plan.likes.a),
    channelsFollowed,
    videoLikes: tally(videos, plan.likes.b),
    videoComments: tally(videos, plan.comments.video),
    replies: tally(plan.comments.video.length, Int32Array.from(plan.comments.parent).filter((p) => p >= 0)),
    channelFollowers: tally(channels, plan.channelFollows.a, 1),
    channelVideos: tally(channels, plan.channelVideos.a),
  };
}

/** The index of the largest value above 0, or -1. */
function argMax(values: ArrayLike<number>): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) if (values[i] > 0 && (best < 0 || values[i] > values[best])) best = i;
  return best;
}
