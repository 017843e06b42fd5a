/**
 * `npm run bench`: reelbase beside its peers (a bare node:http server answering the same body or
 * image, json-server 0.17 on the same population) in one run, and the targets of the performance
 * issue, each marked met or not. BENCH_SCALE=1m adds the million-video cases. Not part of npm test.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { analyticsCases } from './cases/analytics';
import { blobCases } from './cases/blobs';
import { ceilingCase } from './cases/ceiling';
import { mediaCases } from './cases/media';
import { observabilityCase } from './cases/observability';
import { millionCases } from './cases/million';
import { oauthCases } from './cases/oauth';
import { postgresCases } from './cases/postgres';
import { postgresSearchCases } from './cases/postgres-search';
import { readCases } from './cases/reads';
import { searchCases } from './cases/search';
import { tokenReadCases } from './cases/token-reads';
import { transcodeCases } from './cases/transcode';
import { writeCases } from './cases/writes';
import { notRun, type Bench, type QuickWorld } from './context';
import { jsonServerDb, quickPopulation, seedStore, tokensFor } from './populations';
import { startReelbase } from './processes';
import { describeSettings, readSettings } from './settings';
import { formatRows, formatTargets } from './table';

const settings = readSettings();
const b: Bench = {
  settings,
  rows: [],
  targets: [],
  log: (line) => console.error(line),
  wants: (name) => !settings.only || name.includes(settings.only),
};

async function quickWorld(dir: string): Promise<QuickWorld> {
  const population = quickPopulation(settings.videos);
  const stores = { sqlite: join(dir, 'quick.db'), json: join(dir, 'quick.json') };
  const summary = await seedStore('sqlite', stores.sqlite, population);
  b.log(`seeded ${summary.videos} videos, ${summary.users} users on sqlite in ${(summary.milliseconds / 1000).toFixed(1)} s`);
  const json = await seedStore('json', stores.json, population);
  b.log(`seeded the same on json in ${(json.milliseconds / 1000).toFixed(1)} s`);
  const db = join(dir, 'json-server-db.json');
  await jsonServerDb('sqlite', stores.sqlite, summary.users, db);
  return { summary, stores, jsonServerDb: db, dir };
}

/** The search reads on the quick store (the 1M store has its own in the million cases). */
async function quickSearch(world: QuickWorld): Promise<void> {
  const { user } = world.summary.busiest;
  if (!user) throw new Error('the quick population has no user with videos');
  const { other } = await tokensFor(world.stores.sqlite, user.id);
  const server = await startReelbase(`sqlite:${world.stores.sqlite}`);
  try {
    await searchCases(b, server, world.summary, `${world.summary.videos} videos`, other.token);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  console.log(`reelbase bench\n${describeSettings(settings)}\n`);
  const dir = join(settings.dir, `run-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    if (b.wants('reads') || b.wants('token') || b.wants('observability') || b.wants('follow') || b.wants('burst') || b.wants('search') || (b.wants('postgres') && settings.postgres)) {
      const world = await quickWorld(dir);
      if (b.wants('reads')) await readCases(b, world);
      if (b.wants('search')) await quickSearch(world);
      if (b.wants('token')) await tokenReadCases(b, world);
      if (b.wants('observability')) await observabilityCase(b, world);
      if (b.wants('postgres')) await postgresCases(b, world);
      if (b.wants('follow') || b.wants('burst')) await writeCases(b, world);
    } else if (b.wants('postgres')) await postgresCases(b, null);
    if (b.wants('postgres-search')) await postgresSearchCases(b, dir);
    if (b.wants('analytics')) await analyticsCases(b, dir);
    if (b.wants('oauth')) await oauthCases(b, dir);
    if (b.wants('media')) await mediaCases(b, dir);
    if (b.wants('transcode')) await transcodeCases(b, dir);
    if (b.wants('blobs')) await blobCases(b, dir);
    if (b.wants('ceiling')) await ceilingCase(b);
    if (settings.scale === '1m' && (b.wants('lists') || b.wants('search'))) await millionCases(b);
    else b.targets.push(notRun('1M-video cases (BENCH_SCALE=1m)', 'start < 1 s, p99 < 25 ms, query < 50 ms, RSS < 200 MB'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${formatRows(b.rows)}\n\n${formatTargets(b.targets)}`);
}

await main();
