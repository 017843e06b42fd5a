import { readTagWord } from '@reelbase/core/seeding';

/** How big a synthetic population is, and the seed that makes it reproducible. */
export interface PopulationOptions {
  users: number;
  videos: number;
  /** User → user follows. */
  follows: number;
  likes: number;
  /** Comments and replies. */
  comments: number;
  channels: number;
  /** Videos added to channels. */
  channelVideos: number;
  /** Channel follows, besides each owner following their own channel. */
  channelFollows: number;
  /** The tag vocabulary: how many distinct words, or the words themselves (the first are the busiest). */
  tags: number | readonly string[];
  /** Tags a video carries on average (each video 0 to twice this, at most 20). */
  tagsPerVideo: number;
  /** Seed of the pseudo-random source: the same options give the same population. */
  seed: number;
  /** Documents written per store transaction. */
  batchSize: number;
}

/** The largest invented tag vocabulary (the syllable stock allows far more, but lists stay readable). */
export const maxTagVocabulary = 100_000;

/**
 * Options with every missing size derived from the users and videos given: 20 follows per user,
 * 5 likes and 1 comment per video, a channel per 10 users holding a third of the videos.
 */
export function populationOptions(given: Partial<PopulationOptions> = {}): PopulationOptions {
  const users = given.users ?? 1_000;
  const videos = given.videos ?? 10 * users;
  const channels = given.channels ?? Math.ceil(users / 10);
  const options: PopulationOptions = {
    users,
    videos,
    follows: given.follows ?? Math.min(20 * users, pairs(users, users - 1)),
    likes: given.likes ?? Math.min(5 * videos, pairs(users, videos)),
    comments: given.comments ?? (users > 0 ? videos : 0),
    channels,
    channelVideos: given.channelVideos ?? Math.min(Math.floor(videos / 3), pairs(channels, videos)),
    channelFollows: given.channelFollows ?? Math.min(2 * users, pairs(channels, users - 1)),
    tags: given.tags ?? Math.min(maxTagVocabulary, Math.max(30, Math.ceil(videos / 100))),
    tagsPerVideo: given.tagsPerVideo ?? 3,
    seed: given.seed ?? 1,
    batchSize: given.batchSize ?? 10_000,
  };
  checkOptions(options);
  return options;
}

/** Half of all possible pairs: beyond that, drawing distinct pairs at random gets slow. */
const pairs = (a: number, b: number): number => Math.max(0, Math.floor((a * b) / 2));

/** Throws a RangeError naming the option for a size that cannot be generated. */
function checkOptions(o: PopulationOptions): void {
  const counts = ['users', 'videos', 'follows', 'likes', 'comments', 'channels', 'channelVideos', 'channelFollows', 'seed'] as const;
  for (const name of counts) {
    if (!Number.isSafeInteger(o[name]) || o[name] < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${o[name]}`);
  }
  if (!Number.isSafeInteger(o.batchSize) || o.batchSize < 1) throw new RangeError(`batchSize must be a whole number ≥ 1, got ${o.batchSize}`);
  if (!(o.tagsPerVideo >= 0 && o.tagsPerVideo <= 10)) throw new RangeError(`tagsPerVideo must be between 0 and 10, got ${o.tagsPerVideo}`);
  const vocabulary = typeof o.tags === 'number' ? o.tags : o.tags.length;
  if (!Number.isSafeInteger(vocabulary) || vocabulary < 0 || vocabulary > maxTagVocabulary) {
    throw new RangeError(`tags must be between 0 and ${maxTagVocabulary} words, got ${vocabulary}`);
  }
  if (o.tagsPerVideo > 0 && o.videos > 0 && vocabulary === 0) throw new RangeError('tags must name at least one word when videos carry tags');
  if (typeof o.tags !== 'number') {
    for (const word of o.tags) {
      try {
        readTagWord(word, 'tags');
      } catch (error) {
        // The same words the API takes; its message reads "tags: <the rule>".
        throw new RangeError(`tags: "${word}" ${(error as Error).message.replace(/^tags: /, '')}`);
      }
    }
  }
  const needs = (name: string, value: number, limit: number, why: string) => {
    if (value > limit) throw new RangeError(`${name} is at most ${limit} ${why}, got ${value}`);
  };
  needs('videos', o.videos, o.users > 0 ? Number.MAX_SAFE_INTEGER : 0, 'without users');
  needs('follows', o.follows, pairs(o.users, o.users - 1), `with ${o.users} users`);
  needs('likes', o.likes, pairs(o.users - 1, o.videos), `with ${o.users} users and ${o.videos} videos`);
  needs('comments', o.comments, o.users > 0 && o.videos > 0 ? Number.MAX_SAFE_INTEGER : 0, 'without users and videos');
  needs('channels', o.channels, o.users > 0 ? Number.MAX_SAFE_INTEGER : 0, 'without users');
  needs('channelVideos', o.channelVideos, pairs(o.channels, o.videos), `with ${o.channels} channels and ${o.videos} videos`);
  needs('channelFollows', o.channelFollows, pairs(o.channels, o.users - 1), `with ${o.channels} channels and ${o.users} users`);
}
