import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  createService,
  createToken,
  createUser,
  eq,
  parseScopes,
  schema,
  type Store,
} from '@reelbase/core';
import { seedPopulation, type PopulationOptions, type PopulationSummary } from '@reelbase/seed';
import { openJsonStore } from '@reelbase/store-json';
import { openSqliteStore } from '@reelbase/store-sqlite';

export type Driver = 'sqlite' | 'json';

/** `bulk`: opened for seeding as `reelbase seed` opens it (a larger page cache, a bulk load). */
export const openStore = (driver: Driver, path: string, bulk = false): Promise<Store> =>
  driver === 'sqlite' ? openSqliteStore({ schema, path, ...(bulk ? { cacheMiB: 256, bulkLoad: true, deferSearch: true } : {}) }) : openJsonStore({ schema, path });

/** The quick run's population: `videos` videos, a user per 10, every other size derived by the seeder. */
export const quickPopulation = (videos: number): Partial<PopulationOptions> => ({ users: Math.max(100, Math.round(videos / 10)), videos });

/** The million-video population of the 1m cases. */
export const millionPopulation: Partial<PopulationOptions> = {
  users: 100_000,
  videos: 1_000_000,
  likes: 2_000_000,
  comments: 500_000,
  channels: 5_000,
  channelFollows: 100_000,
};

/**
 * Seeds a fresh store through `reelbase seed`'s generator. A JSON store is written one step per
 * transaction: each of its commits rewrites the whole file.
 */
export async function seedStore(driver: Driver, path: string, population: Partial<PopulationOptions>): Promise<PopulationSummary> {
  mkdirSync(dirname(path), { recursive: true });
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  const store = await openStore(driver, path, true);
  try {
    return await seedPopulation(store, { ...population, batchSize: driver === 'json' ? Number.MAX_SAFE_INTEGER : 10_000 });
  } finally {
    await store.close();
  }
}

/**
 * The million-video SQLite store, seeded once and kept: a later run reuses it when the schema and
 * the population are unchanged (the 1m cases only read it).
 */
export async function millionStore(path: string, log: (line: string) => void): Promise<PopulationSummary> {
  const key = createHash('sha256').update(JSON.stringify({ schema, millionPopulation })).digest('hex');
  const marker = `${path}.seeded.json`;
  if (existsSync(path) && existsSync(marker)) {
    const kept = JSON.parse(readFileSync(marker, 'utf8')) as { key: string; summary: PopulationSummary };
    if (kept.key === key) return kept.summary;
  }
  log('seeding the million-video store (kept for later runs)…');
  rmSync(marker, { force: true });
  const started = performance.now();
  const seeded = await seedStore('sqlite', path, millionPopulation);
  // From opening to closing the store: closing ends the bulk load (builds the indexes).
  const summary = { ...seeded, milliseconds: performance.now() - started };
  writeFileSync(marker, JSON.stringify({ key, summary }));
  return summary;
}

/** `count` new users with tokens (for the write cases), made directly in the store. */
export async function usersWithTokens(driver: Driver, path: string, count: number, name: string): Promise<{ id: string; token: string }[]> {
  const store = await openStore(driver, path);
  try {
    return await store.transaction(async (tx) => {
      const out: { id: string; token: string }[] = [];
      for (let i = 0; i < count; i++) {
        const user = await createUser(tx, new Date(), { name: `${name} ${i + 1}` });
        out.push({ id: user.id, token: (await createToken(tx, new Date(), user.id, parseScopes('all'))).token });
      }
      return out;
    });
  } finally {
    await store.close();
  }
}

/**
 * Tokens made directly in a SQLite store for the token-bearing reads: for `owner`, for another
 * user (one who follows the owner), and for a new user who writes while others read.
 */
export async function tokensFor(path: string, owner: string): Promise<{ owner: string; other: { id: string; token: string }; writer: string }> {
  const store = await openStore('sqlite', path);
  try {
    return await store.transaction(async (tx) => {
      const now = new Date();
      const token = async (user: string) => (await createToken(tx, now, user, parseScopes('all'))).token;
      const follower = await tx.findOne<{ id: string; user_id: string }>('follows', eq('target_id', owner));
      if (!follower) throw new Error(`nobody follows user ${owner}`);
      const writer = await createUser(tx, now, { name: 'Token bench writer' });
      return { owner: await token(owner), other: { id: follower.user_id, token: await token(follower.user_id) }, writer: await token(writer.id) };
    });
  } finally {
    await store.close();
  }
}

/**
 * json-server's db.json for the same population: every public video as reelbase answers it
 * (a Clip), with the `id` and `userId` json-server keys records and nests lists by.
 */
export async function jsonServerDb(driver: Driver, path: string, users: number, out: string): Promise<void> {
  const store = await openStore(driver, path);
  const service = createService({ store, config: { rateLimit: null } });
  const videos: Record<string, unknown>[] = [];
  try {
    for (let user = 1; user <= users; user++) {
      for (let page = 1; ; page++) {
        const r = await service.handle(null, { method: 'GET', url: `/users/${user}/videos?per_page=100&page=${page}` });
        if (r.status !== 200) break;
        const body = r.body as { data: Record<string, unknown>[]; paging: { next: string | null } };
        for (const clip of body.data) videos.push({ id: Number(String(clip.uri).split('/').pop()), userId: user, ...clip });
        if (!body.paging.next) break;
      }
    }
  } finally {
    await service.close();
  }
  writeFileSync(out, JSON.stringify({ users: Array.from({ length: users }, (_, i) => ({ id: i + 1 })), videos }));
}
