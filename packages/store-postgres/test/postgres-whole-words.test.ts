import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { matches, type Filter, type Schema } from '@reelbase/core';
import { openPostgresStore } from '../src/index';
import { compileFind } from '../src/compile-query';
import { ensureSchema } from '../src/pg-schema';
import type { Executor } from '../src/pg-types';
import { wholeWordsOf } from '../src/pg-vocabulary';
import { freshUrl, notSelected, withClient } from './selection';

// Bare words written as the whole words they begin (pg-vocabulary.ts, docs/search.md "Whole words"):
// the answers are the conformance suite's; this shows the statements and the vocabulary behind them.

const schema: Schema = {
  clips: { id: 'auto', fields: { name: 'text', description: 'text' }, search: [['name'], ['description']] },
};

/** The tsquery texts a page of `where` binds, once its words are looked up. */
async function boundQueries(url: string, where: Filter): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const tables = await ensureSchema(pool, schema);
    const db: Executor = { query: (sql, params) => pool.query(sql, params), snapshot: (fn) => fn(db) };
    const table = tables.get('clips')!;
    const { params } = compileFind(tables, table, { where: await wholeWordsOf(db, tables, table, where), limit: 25, offset: 0 });
    return params.filter((p): p is string => typeof p === 'string' && p.includes("'"));
  } finally {
    await pool.end();
  }
}

const vocabulary = (url: string) => withClient(url, async (db) => (await db.query<{ word: string }>('SELECT word FROM rbwords_clips ORDER BY word')).rows.map((r) => r.word));

describe('postgres store: whole words', { skip: notSelected }, () => {
  it('writes a bare word as the whole words it begins, kept by inserts, renames and transactions', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore({ schema, url });
    try {
      await store.insertMany('clips', [
        { name: 'Quiet orchard', description: 'Café' },
        { name: 'Quieter days', description: 'Orchards' },
        { name: 'Harbour', description: null },
      ]);
      const names = async (query: string) => (await store.find<{ id: string; name: string }>('clips', { where: matches(query) })).items.map((c) => c.name);
      assert.deepEqual(await names('quiet orch'), ['Quiet orchard', 'Quieter days']);
      assert.deepEqual(await boundQueries(url, matches('quiet orch -"red car"')), ["('quiet' | 'quieter') & ('orchard' | 'orchards') & !('red' <-> 'car')"]);

      // A rename adds its words in the same transaction; a rolled-back one is found by nobody.
      await store.update('clips', '3', { name: 'Quietude' });
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.insert('clips', { name: 'Quietly', description: null });
          assert.equal((await tx.find('clips', { where: matches('quiet') })).total, 4);
          throw new Error('undo');
        }),
        /undo/,
      );
      assert.deepEqual(await names('quiet'), ['Quiet orchard', 'Quieter days', 'Quietude']);
      // Words stay once written: one no row holds any more costs a lookup that finds nothing.
      assert.deepEqual(await vocabulary(url), ['cafe', 'days', 'harbour', 'orchard', 'orchards', 'quiet', 'quieter', 'quietude']);
      // A word beginning none stays a prefix (and finds nothing), as does a phrase's.
      assert.deepEqual(await boundQueries(url, matches('zebra "quiet"')), ["('zebra':*) & ('quiet')"]);
    } finally {
      await store.close();
    }
  });

  it('keeps a word beginning more than 32 a prefix, with the same matches', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore({ schema, url });
    try {
      const letters = 'abcdefghijklmnopqrstuvwxyz';
      await store.insertMany(
        'clips',
        Array.from({ length: 40 }, (_, i) => ({ name: `ka${letters[i % 26]}${letters[Math.floor(i / 26)]}`, description: null })),
      );
      assert.equal((await store.find('clips', { where: matches('ka') })).total, 40);
      assert.deepEqual(await boundQueries(url, matches('ka')), ["('ka':*)"]);
      assert.deepEqual(await boundQueries(url, matches('kaa')), ["('kaaa' | 'kaab')"]);
      assert.equal((await store.find('clips', { where: matches('kaa') })).total, 2);
    } finally {
      await store.close();
    }
  });

  it('gives a store from before its vocabulary at open, from every row, and fills it again when the search column is made again', async () => {
    const url = await freshUrl();
    await (await openPostgresStore({ schema, url })).close();
    // As made before: no vocabulary, nor its triggers.
    await withClient(url, async (db) => {
      await db.query('DROP TABLE rbwords_clips');
      await db.query('DROP FUNCTION rbwords_clips__add() CASCADE');
      await db.query(`INSERT INTO clips (doc, name) VALUES ('{"name":"Volcano"}', 'Volcano')`);
    });
    await (await openPostgresStore({ schema, url })).close();
    assert.deepEqual(await vocabulary(url), ['volcano']);
    // A search column whose fields change is made again (its update trigger with it), and its words with it.
    await withClient(url, (db) => db.query(`INSERT INTO rbwords_clips VALUES ('stale')`));
    const store = await openPostgresStore({ schema: { clips: { ...schema.clips, search: [['name', 'description']] } }, url });
    try {
      assert.deepEqual(await vocabulary(url), ['volcano']);
      await store.insert('clips', { name: 'Volcanoes', description: null });
      await store.update('clips', '1', { description: 'Lava' });
      assert.equal((await store.find('clips', { where: matches('volcan lav') })).total, 1);
      assert.deepEqual(await vocabulary(url), ['lava', 'volcano', 'volcanoes']);
    } finally {
      await store.close();
    }
  });
});
