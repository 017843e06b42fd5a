import type { Command } from 'commander';
import { defaultConfig } from '@reelbase/core';
import { populationOptions, seedPopulation, type PopulationOptions, type PopulationSummary } from '@reelbase/seed';
import { cwdOf, envOf, serviceConfig } from '../context';
import { UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { formatDuration } from '../render/progress';
import { describeStore, openStore, storeSpecFrom } from '../store-spec';
import { jsonOption, storeOption } from './options';

interface SeedFlags {
  store?: string;
  json?: boolean;
  users?: string;
  videos?: string;
  follows?: string;
  likes?: string;
  comments?: string;
  channels?: string;
  channelVideos?: string;
  channelFollows?: string;
  tags?: string;
  tagsPerVideo?: string;
  seed?: string;
  batch?: string;
}

/** Flags that take a count, by the option they set. */
const countFlags = {
  users: ['--users <n>', 'users (default 1000)'],
  videos: ['--videos <n>', 'videos (default 10 per user)'],
  follows: ['--follows <n>', 'user follows, power-law: a few users have most followers (default 20 per user)'],
  likes: ['--likes <n>', 'likes, mostly on the most played videos (default 5 per video)'],
  comments: ['--comments <n>', 'comments, a quarter of them replies (default 1 per video)'],
  channels: ['--channels <n>', 'channels (default 1 per 10 users)'],
  channelVideos: ['--channel-videos <n>', 'videos added to channels, power-law over channels (default a third of the videos)'],
  channelFollows: ['--channel-follows <n>', 'channel follows besides the owners (default 2 per user)'],
  seed: ['--seed <n>', 'random seed: the same flags and seed give the same population (default 1)'],
  batch: ['--batch <n>', 'documents written per transaction (default 10000)'],
} as const satisfies Partial<Record<keyof SeedFlags, readonly [string, string]>>;

/** `reelbase seed`: a realistic synthetic population written straight into a store, for trying and benchmarking. */
export function registerSeed(program: Command, io: CliIo): void {
  const command = program
    .command('seed')
    .description('fill a store with a synthetic population: users, videos, follows, likes, comments, channels and tags, all counters consistent')
    .addOption(storeOption());
  for (const [flag, help] of Object.values(countFlags)) command.option(flag, `${help}; 10k, 1m accepted`);
  command
    .option('--tags <n|words>', 'tag vocabulary: a number of words, or the words as a comma list, busiest first (default 1 per 100 videos, at least 30)')
    .option('--tags-per-video <n>', 'tags a video carries on average, 0 to 10 (default 3)')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      [
        '',
        'Writes through the store in batched transactions; seed a fresh store (an interrupted seed',
        'leaves the steps written so far). Videos are metadata only: they have no files to play.',
        'On SQLite the indexes of the tables it fills are built once, at the end, and a fresh store',
        'syncs to disk then; after an interrupted seed the next open of the store builds them.',
        '',
        'Examples:',
        '  reelbase seed --store sqlite:./data/demo.db',
        '  reelbase seed --store sqlite:./data/big.db --users 50k --videos 1m --likes 2m --comments 500k --channels 5k',
        '  reelbase seed --store json:./data/small.json --users 100 --videos 1000 --tags music,travel,food',
      ].join('\n'),
    )
    .action(async (flags: SeedFlags) => {
      const options = seedOptions(flags);
      const env = envOf(io);
      const spec = storeSpecFrom(flags.store, env, cwdOf(io));
      const started = Date.now();
      const store = await openStore(spec, { bulk: true });
      let seeded: PopulationSummary;
      try {
        seeded = await seedPopulation(store, options, {
          defaultAccount: serviceConfig(env).defaultAccount ?? defaultConfig.defaultAccount,
          onProgress: progressLines(io, started),
        });
        if (spec.driver === 'sqlite') line(io.stderr, `indexes: building (${formatDuration(Date.now() - started)})`);
      } finally {
        await store.close();
      }
      // Closing a SQLite store ends its bulk load (the indexes are built then): part of the seed.
      const summary = { ...seeded, milliseconds: Date.now() - started };
      if (flags.json) return io.stdout(json({ store: describeStore(spec), ...summary }));
      printSummary(io, describeStore(spec), summary);
    });
}

/** The population the flags ask for; a UsageError naming the flag for a bad value or an impossible size. */
export function seedOptions(flags: SeedFlags): PopulationOptions {
  const given: Partial<PopulationOptions> = {};
  for (const [option, [flag]] of Object.entries(countFlags) as [keyof typeof countFlags, readonly [string, string]][]) {
    const value = flags[option];
    if (value === undefined) continue;
    const count = parseCount(value, flag.split(' ')[0]);
    if (option === 'batch') given.batchSize = count;
    else given[option] = count;
  }
  if (flags.tags !== undefined) {
    given.tags = /^\s*\d/.test(flags.tags) ? parseCount(flags.tags, '--tags') : flags.tags.split(',').map((t) => t.trim()).filter(Boolean);
  }
  if (flags.tagsPerVideo !== undefined) {
    const perVideo = Number(flags.tagsPerVideo);
    if (flags.tagsPerVideo.trim() === '' || !Number.isFinite(perVideo)) throw new UsageError(`--tags-per-video: "${flags.tagsPerVideo}" is not a number`);
    given.tagsPerVideo = perVideo;
  }
  try {
    return populationOptions(given);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // The message starts with the option's name; show the flag instead.
    throw new UsageError(error.message.replace(/^(\w+)/, (name) => (name === 'batchSize' ? '--batch' : `--${kebab(name)}`)));
  }
}

/** `250`, `10k`, `1.5m`, `1_000_000` → a whole number; a UsageError naming `flag` otherwise. */
export function parseCount(text: string, flag: string): number {
  const match = /^(\d+(?:_\d{3})*(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  const value = match ? Number(match[1].replaceAll('_', '')) * { '': 1, k: 1e3, m: 1e6 }[match[2].toLowerCase() as '' | 'k' | 'm'] : NaN;
  if (!Number.isSafeInteger(value)) throw new UsageError(`${flag}: "${text}" is not a whole number (forms: 250, 10k, 1.5m)`);
  return value;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A line on stderr when a step finishes, and every 5 s during a long one. */
function progressLines(io: CliIo, started: number): (step: string, done: number, total: number) => void {
  let shownAt = 0;
  return (step, done, total) => {
    const now = Date.now();
    if (done < total && now - shownAt < 5000) return;
    shownAt = now;
    line(io.stderr, `${step}: ${done.toLocaleString('en')}/${total.toLocaleString('en')} (${formatDuration(now - started)})`);
  };
}

function printSummary(io: CliIo, target: string, s: PopulationSummary): void {
  const out = (text = '') => line(io.stdout, text);
  const rows: [string, number][] = [
    ['users', s.users],
    ['videos', s.videos],
    ['tags', s.tags],
    ['tags on videos', s.videoTags],
    ['follows', s.follows],
    ['likes', s.likes],
    ['comments', s.comments],
    ['channels', s.channels],
    ['channel videos', s.channelVideos],
    ['channel follows', s.channelFollows],
    ['feed events', s.activities],
  ];
  out(`Seeded ${target} in ${formatDuration(s.milliseconds)}:`);
  const width = Math.max(...rows.map(([, n]) => n.toLocaleString('en').length));
  for (const [label, n] of rows) out(`  ${label.padEnd(16)}${n.toLocaleString('en').padStart(width)}`);
  const { user, channel, tag, video } = s.busiest;
  const count = (n: number, what: string) => `${n.toLocaleString('en')} ${what}`;
  const tries = [
    user && `GET /users/${user.id}/videos?sort=plays  (${count(user.videos, 'videos')})`,
    channel && `GET /channels/${channel.id}/videos?sort=plays  (${count(channel.videos, 'videos')})`,
    tag && `GET /tags/${encodeURIComponent(tag.word)}/videos?sort=name  (${count(tag.videos, 'videos')})`,
    video && `GET /videos/${video.id}  (${count(video.plays, 'plays')})`,
  ].filter(Boolean);
  if (tries.length) {
    out();
    out('The biggest lists, to try:');
    for (const t of tries) out(`  ${t}`);
  }
}
