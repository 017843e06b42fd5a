import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { matches, schema, type Doc, type Store } from '@reelbase/core';
import { seedPopulation } from '@reelbase/seed';
import { openPostgresStore } from '../src/index';
import type { PgStore } from '../src/pg-store';
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

interface Index {
  table: string;
  index: string;
  valid: boolean;
}

/** The B-tree indexes of the store's schema, valid or not. */
const btrees = (url: string): Promise<Index[]> =>
  withClient(url, async (db) =>
    (
      await db.query<Index>(
        `SELECT t.relname AS table, i.relname AS index, x.indisvalid AS valid FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
          JOIN pg_am am ON am.oid = i.relam WHERE t.relnamespace = current_schema()::regnamespace AND am.amname = 'btree' ORDER BY 1, 2`,
      )
    ).rows,
  );

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
  const droppedDuringLoad: Index[] = [];

  before(async () => {
    // The first opened for a bulk load (its B-trees built at close), the second not, one row a statement.
    for (const wrap of [(s: Store) => s, rowByRow]) {
      const url = await freshUrl();
      bulkUrl ??= url;
      const store = await openPostgresStore({ schema, url, bulkLoad: wrap !== rowByRow });
      if (url === bulkUrl) droppedDuringLoad.push(...(await btrees(url)).filter((i) => i.table === 'videos'));
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

  it('builds at close the B-trees a bulk load dropped, as a store opened without one has them', async () => {
    // While loading, the empty videos table kept only its primary key.
    assert.deepEqual(
      droppedDuringLoad.map((i) => i.index),
      ['videos_pkey'],
    );
    const [bulk, plain] = await Promise.all([btrees(bulkUrl), freshUrl().then(async (url) => (await openPostgresStore({ schema, url })).close().then(() => btrees(url)))]);
    assert.ok(bulk.some((i) => i.index === 'rbwin_videos__created_time_desc') && bulk.some((i) => i.index.startsWith('rb_ix_videos')), 'the windows and the schema indexes');
    assert.deepEqual(bulk, plain);
    assert.ok(bulk.every((i) => i.valid));
    // The videos' vocabulary, left to the end, holds every word of theirs, and its trigger is back.
    const [words] = await withClient(bulkUrl, async (db) =>
      (
        await db.query<{ missing: number; trigger: boolean }>(
          `SELECT (SELECT count(*) FROM (SELECT unnest(tsvector_to_array(rb_search)) FROM videos EXCEPT SELECT word FROM rbwords_videos) AS w)::int AS missing,
                  EXISTS (SELECT FROM pg_trigger WHERE tgname = 'rbwords_videos__insert') AS trigger`,
        )
      ).rows,
    );
    assert.deepEqual(words, { missing: 0, trigger: true });
  });

  it('gets the dropped B-trees back at the next open when a bulk load never closed', async () => {
    const url = await freshUrl();
    const store = (await openPostgresStore({ schema, url, bulkLoad: true })) as PgStore;
    await store.insertMany('videos', [{ name: 'Harbour', privacy_view: 'anybody' }]);
    // Its vocabulary waits for the end: meanwhile a word is read as a prefix, and found.
    assert.equal((await store.find('videos', { where: matches('harb') })).total, 1);
    // The process dies mid-load: its connections go, close() never runs.
    await store.pool.end();
    assert.ok(!(await btrees(url)).some((i) => i.index.startsWith('rb_ix_videos')), 'the load had dropped them');
    await (await openPostgresStore({ schema, url })).close();
    const reopened = await btrees(url);
    assert.ok(reopened.some((i) => i.index.startsWith('rb_ix_videos')) && reopened.some((i) => i.index.startsWith('rbwin_videos')));
    assert.ok(reopened.every((i) => i.valid));
    const words = await withClient(url, async (db) => (await db.query<{ word: string }>('SELECT word FROM rbwords_videos')).rows.map((r) => r.word));
    assert.deepEqual(words, ['harbour']);
  });
});
