import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { schema, type Doc, type Store } from '@reelbase/core';
import { seedPopulation } from '@reelbase/seed';
import { openPostgresStore } from '../src/index';
import { freshUrl, notSelected, withClient } from './selection';

/** A store whose insertMany inserts one document a statement, as the driver did before it wrote a batch in one. */
function rowByRow(store: Store): Store {
  return new Proxy(store, {
    get(target, key) {
      // The store's own methods run on the store itself: its private fields are not the proxy's.
      if (key !== 'insertMany') {
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      }
      return (collection: string, docs: readonly Omit<Doc, 'id'>[]) =>
        target.transaction(async (tx) => {
          const ids: string[] = [];
          for (const doc of docs) ids.push((await tx.insert(collection, doc)).id);
          return ids;
        });
    },
  });
}

/** Every document of every collection, in id order. */
async function everything(store: Store): Promise<Record<string, Doc[]>> {
  const all: Record<string, Doc[]> = {};
  for (const collection of Object.keys(schema)) all[collection] = (await store.find(collection, { orderBy: [{ field: 'id', direction: 'asc' }] })).items;
  return all;
}

describe('PostgreSQL bulk loads (insertMany in one statement)', { skip: notSelected }, () => {
  // Small, but with one table (likes) and the feed's events past ANALYZE_AFTER_ROWS.
  const population = { users: 30, videos: 200, follows: 100, likes: 1100, comments: 60, channels: 2, channelVideos: 30, batchSize: 64, seed: 11 };
  const now = new Date('2026-06-01T00:00:00Z');
  let bulkUrl: string;
  const seeded: Record<string, Doc[]>[] = [];

  before(async () => {
    for (const wrap of [(s: Store) => s, rowByRow]) {
      const url = await freshUrl();
      bulkUrl ??= url;
      const store = await openPostgresStore({ schema, url });
      try {
        await seedPopulation(wrap(store), population, { now });
        seeded.push(await everything(store));
      } finally {
        await store.close();
      }
    }
  });
  it('seeds the same documents with the same ids as inserting them one by one', () => {
    const [bulk, single] = seeded;
    assert.ok(bulk.videos.length === 200 && bulk.likes.length > 0 && bulk.channel_videos.length > 0, 'the seed wrote its rows');
    for (const collection of Object.keys(schema)) assert.deepEqual(bulk[collection], single[collection], collection);
  });

  it('leaves the loaded tables vacuumed and analyzed when the store closes, and only those', async () => {
    const analyzed = await withClient(bulkUrl, async (db) =>
      (await db.query<{ table: string }>(`SELECT relname AS table FROM pg_stat_user_tables WHERE schemaname = current_schema() AND last_analyze IS NOT NULL AND last_vacuum IS NOT NULL ORDER BY 1`)).rows.map((r) => r.table),
    );
    // Tables loaded with 1,000 rows or more (ANALYZE_AFTER_ROWS); the small ones are left to autovacuum.
    assert.deepEqual(analyzed, ['activities', 'likes']);
  });
});
