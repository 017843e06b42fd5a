import { canonicalTag } from '../records/tag';
import { maxTagsPerVideo, readTagWord } from '../domain/tags';
import type { PopulationOptions } from './options';
import { Random, weighted, zipf } from './random';
import { tagWords } from './words';

/**
 * A whole population decided in memory before anything is written: who exists, who follows,
 * likes, comments and curates what, and when. Entities are indexes (0…n-1) into typed arrays,
 * each kind sorted by time, so store ids come out in the order things happened and every
 * counter can be written final with its record.
 */
export interface PopulationPlan {
  start: number;
  now: number;
  users: { created: Float64Array };
  /**
   * Sorted by time. `privacy` indexes `videoPrivacy`; video v carries the vocabulary words
   * `tags.list[tags.start[v] … tags.start[v + 1] - 1]`.
   */
  videos: {
    owner: Uint32Array;
    time: Float64Array;
    plays: Uint32Array;
    duration: Uint32Array;
    privacy: Uint8Array;
    tags: { start: Uint32Array; list: Uint32Array };
  };
  /** The vocabulary: canonical word, spelling, first use (NaN when unused). */
  tags: { canonical: string[]; name: string[]; firstUse: Float64Array };
  /** `a` follows `b` (users). */
  follows: Pairs;
  /** `a` (a user) likes `b` (a video). */
  likes: Pairs;
  /** `parent` is the index of the top-level comment a reply answers, or -1. */
  comments: { video: Uint32Array; user: Uint32Array; time: Float64Array; parent: Int32Array };
  channels: { owner: Uint32Array; created: Float64Array };
  /** `a` channel, `b` video; `position` is the place in the channel's manual order. */
  channelVideos: Pairs & { position: Uint32Array };
  /** `a` channel, `b` user. */
  channelFollows: Pairs;
}

/** Rows relating two kinds (follower → followed, user → video…), sorted by time. */
export interface Pairs {
  a: Uint32Array;
  b: Uint32Array;
  time: Float64Array;
}

/** How often each `privacy.view` occurs; likes, comments and channels only reach the first two. */
export const videoPrivacy = ['anybody', 'unlisted', 'contacts', 'nobody', 'disable'] as const;
const privacyWeights = [0.9, 0.04, 0.03, 0.02, 0.01];
const openToOthers = (privacy: number): boolean => privacy < 2;

const year = 365 * 24 * 3600 * 1000;

export function planPopulation(o: PopulationOptions, now: number): PopulationPlan {
  const random = new Random(o.seed);
  const start = now - 3 * year;
  const after = (t: number): number => t + random.next() * (now - t);

  const userCreated = sortedTimes(random, o.users, start, now - (now - start) / 10);
  // Who gets uploads and followers (popular creators), and who likes, comments and follows the most.
  const popular = o.users ? zipf(random, o.users, 1) : () => 0;
  const active = o.users ? zipf(random, o.users, 0.8) : () => 0;

  const videos = planVideos(random, o, userCreated, popular, after);
  const tags = planTags(random, o, videos);
  // Others only like, comment on and collect videos they can see.
  const open = (v: number) => openToOthers(videos.privacy[v]);
  const weights = Float64Array.from(videos.plays, (plays, v) => (open(v) ? plays + 1 : 0));
  const openCount = weights.reduce((n, w) => n + (w > 0 ? 1 : 0), 0);
  const watched = openCount ? weighted(random, weights) : () => 0;
  const anyOpen = () => {
    for (;;) {
      const v = random.int(o.videos);
      if (open(v)) return v;
    }
  };
  // Privacy is drawn at random: with few videos, fewer may be open than the sizes assume.
  const within = (count: number, a: number, b: number) => Math.min(count, Math.floor((a * b) / 2));

  const follows = drawPairs(random, o.follows, o.users, o.users, active, popular, (a, b) => a !== b, (a, b) =>
    after(Math.max(userCreated[a], userCreated[b])),
  );
  const likes = drawPairs(
    random,
    within(o.likes, openCount, o.users - 1),
    o.videos,
    o.users,
    watched,
    active,
    (v, u) => open(v) && videos.owner[v] !== u,
    (v, u) => after(Math.max(videos.time[v], userCreated[u])),
  );
  const comments = planComments(random, openCount ? o.comments : 0, videos.time, watched, active, after);

  const channelOwner = Uint32Array.from({ length: o.channels }, () => popular());
  const channelCreated = Float64Array.from(channelOwner, (u) => after(userCreated[u]));
  const channelRank = o.channels ? zipf(random, o.channels, 1) : () => 0;
  const channelVideos = drawPairs(
    random,
    within(o.channelVideos, o.channels, openCount),
    o.channels,
    o.videos,
    channelRank,
    anyOpen,
    (_c, v) => open(v),
    (c, v) => after(Math.max(channelCreated[c], videos.time[v])),
  );
  const channelFollows = drawPairs(
    random,
    o.channelFollows,
    o.channels,
    o.users,
    channelRank,
    () => random.int(o.users),
    (c, u) => channelOwner[c] !== u,
    (c, u) => after(Math.max(channelCreated[c], userCreated[u])),
  );
  return {
    start,
    now,
    users: { created: userCreated },
    videos,
    tags,
    follows,
    // Drawn video first; kept as user → video.
    likes: { a: likes.b, b: likes.a, time: likes.time },
    comments,
    channels: { owner: channelOwner, created: channelCreated },
    channelVideos: { ...channelVideos, position: positions(channelVideos.a, o.channels) },
    channelFollows,
  };
}

function planVideos(random: Random, o: PopulationOptions, userCreated: Float64Array, popular: () => number, after: (t: number) => number): PopulationPlan['videos'] {
  const owner = new Uint32Array(o.videos);
  const time = new Float64Array(o.videos);
  for (let v = 0; v < o.videos; v++) {
    owner[v] = popular();
    time[v] = after(userCreated[owner[v]]);
  }
  const order = byTime(time);
  const privacy = weighted(random, privacyWeights);
  const videos = {
    owner: order.map((v) => owner[v]),
    time: Float64Array.from(order, (v) => time[v]),
    // Views: most videos have a few dozen, a handful have millions.
    plays: Uint32Array.from(order, () => random.pareto(1.1, 20, 50_000_000)),
    duration: Uint32Array.from(order, () => Math.round(Math.min(4 * 3600, Math.max(5, random.logNormal(240, 1))))),
    privacy: Uint8Array.from(order, () => privacy()),
    tags: { start: new Uint32Array(o.videos + 1), list: new Uint32Array(0) },
  };
  return videos;
}

function planTags(random: Random, o: PopulationOptions, videos: PopulationPlan['videos']): PopulationPlan['tags'] {
  // Given words keep their first spelling of each canonical word, as the API records tags.
  const given = typeof o.tags === 'number' ? tagWords(random, o.tags) : o.tags.map((t) => readTagWord(t, 'tags').name);
  const byCanonical = new Map<string, string>();
  for (const name of given) if (!byCanonical.has(canonicalTag(name))) byCanonical.set(canonicalTag(name), name);
  const canonical = [...byCanonical.keys()];
  const names = [...byCanonical.values()];
  const firstUse = new Float64Array(names.length).fill(NaN);
  const popularTag = names.length ? zipf(random, names.length, 1, Uint32Array.from(names, (_, i) => i)) : () => 0;
  const most = Math.min(maxTagsPerVideo, names.length, Math.round(2 * o.tagsPerVideo));
  const { start } = videos.tags;
  let list: Uint32Array<ArrayBuffer> = new Uint32Array(Math.ceil(videos.time.length * (most / 2 + 1)));
  let end = 0;
  for (let v = 0; v < videos.time.length; v++) {
    const count = random.int(most + 1);
    const chosen = new Set<number>();
    for (let tries = 0; chosen.size < count && tries < 4 * count; tries++) chosen.add(popularTag());
    if (end + chosen.size > list.length) list = grow(list, end + chosen.size);
    for (const t of chosen) {
      list[end++] = t;
      if (Number.isNaN(firstUse[t])) firstUse[t] = videos.time[v];
    }
    start[v + 1] = end;
  }
  videos.tags.list = list.subarray(0, end);
  return { canonical, name: names, firstUse };
}

function planComments(
  random: Random,
  count: number,
  videoTime: Float64Array,
  watched: () => number,
  active: () => number,
  after: (t: number) => number,
): PopulationPlan['comments'] {
  const video = new Uint32Array(count);
  const time = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    video[i] = watched();
    time[i] = after(videoTime[video[i]]);
  }
  const order = byTime(time);
  const sorted = { video: order.map((i) => video[i]), user: Uint32Array.from(order, () => active()), time: Float64Array.from(order, (i) => time[i]) };
  // A quarter are replies to the latest top-level comment on the same video (threads are one level deep).
  const parent = new Int32Array(count).fill(-1);
  const latestTop = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const top = latestTop.get(sorted.video[i]);
    if (top !== undefined && random.chance(0.25)) parent[i] = top;
    else latestTop.set(sorted.video[i], i);
  }
  return { ...sorted, parent };
}

/**
 * `count` distinct pairs (a, b), a drawn by `drawA` among `aCount` and b by `drawB` among
 * `bCount`, kept when `allowed`; a draw that keeps clashing falls back to uniform draws, so a
 * saturated favourite (a user everybody already follows) cannot stall the plan. Callers keep
 * `count` well under the number of allowed pairs. Sorted by the time `when` gives.
 */
function drawPairs(
  random: Random,
  count: number,
  aCount: number,
  bCount: number,
  drawA: () => number,
  drawB: () => number,
  allowed: (a: number, b: number) => boolean,
  when: (a: number, b: number) => number,
): Pairs {
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  const time = new Float64Array(count);
  const taken = new PairSet(count);
  for (let i = 0; i < count; i++) {
    for (let tries = 0; ; tries++) {
      const x = tries < 8 ? drawA() : random.int(aCount);
      const y = tries < 8 ? drawB() : random.int(bCount);
      if (!allowed(x, y) || !taken.add(x, y)) continue;
      a[i] = x;
      b[i] = y;
      time[i] = when(x, y);
      break;
    }
  }
  const order = byTime(time);
  return { a: order.map((i) => a[i]), b: order.map((i) => b[i]), time: Float64Array.from(order, (i) => time[i]) };
}

/** Each row's place in its group's order, counting from 1 in row order. */
function positions(group: Uint32Array, groups: number): Uint32Array {
  const next = new Uint32Array(groups);
  return group.map((g) => ++next[g]);
}

function grow(list: Uint32Array, least: number): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(Math.max(least, 2 * list.length));
  bigger.set(list);
  return bigger;
}

/**
 * Indexes 0…n-1 ordered by `time` (ties in index order): a stable radix sort of the times' bits,
 * which order as the numbers do for times ≥ 0. A comparator sort of two million rows took seconds.
 */
function byTime(time: Float64Array): Uint32Array {
  const n = time.length;
  if (time.some((t) => !(t >= 0))) throw new RangeError('byTime: times must be numbers ≥ 0');
  const words = new Uint32Array(time.buffer, time.byteOffset, 2 * n);
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const counts = new Uint32Array(1 << 16);
  // Least significant 16 bits first; each pass keeps the order of the one before among equal digits.
  for (const shift of [0, 16, 32, 48]) {
    const digit = (i: number): number => (words[2 * i + (shift >> 5)] >>> (shift & 31)) & 0xffff;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[digit(i)]++;
    for (let d = 0, sum = 0; d < counts.length; d++) {
      const count = counts[d];
      counts[d] = sum;
      sum += count;
    }
    for (let k = 0; k < n; k++) next[counts[digit(order[k])]++] = order[k];
    [order, next] = [next, order];
  }
  return order;
}

/** A set of pairs of non-negative integers (open addressing): a Set of `a * n + b` numbers past 2^31 was most of drawing a million pairs. */
class PairSet {
  readonly #a: Int32Array;
  readonly #b: Int32Array;
  readonly #mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.#a = new Int32Array(size).fill(-1);
    this.#b = new Int32Array(size);
    this.#mask = size - 1;
  }

  /** Adds (a, b); false when it was there already. */
  add(a: number, b: number): boolean {
    for (let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      if (this.#a[slot] === -1) {
        this.#a[slot] = a;
        this.#b[slot] = b;
        return true;
      }
      if (this.#a[slot] === a && this.#b[slot] === b) return false;
    }
  }
}

function sortedTimes(random: Random, n: number, from: number, to: number): Float64Array {
  return Float64Array.from({ length: n }, () => random.between(from, to)).sort();
}
