import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matches, type Schema } from '@reelbase/core';
import { openPostgresStore } from '../src/index';
import { freshUrl, notSelected, withClient } from './selection';

// The search's fold functions (pg-search.ts) under a session search_path that is not the store's.

const schema: Schema = {
  clips: { id: 'auto', fields: { name: 'text', description: 'text' }, search: [['name'], ['description']] },
};

/** What identifies the search column, its GIN index and the names' trigram index: a rebuild gives new ones. */
const SEARCH_OBJECTS = `SELECT (SELECT attnum FROM pg_attribute WHERE attrelid = 'clips'::regclass AND attname = 'rb_search') AS column,
  'rbsearch_clips'::regclass::oid AS search, 'rbtrgm_clips'::regclass::oid AS trigrams`;

/** The fold's body as stores made it before it named its schema. */
const UNQUALIFIED_FOLD = ` SELECT regexp_replace(rb_search_unaccent($1), '[[:punct:]]+', ' ', 'g') `;

const foldBody = `SELECT prosrc FROM pg_proc WHERE proname = 'rb_search_fold' AND pronamespace = current_schema()::regnamespace`;

describe('postgres store: search functions and search_path', { skip: notSelected }, () => {
  it('folds under an empty search_path (as pg_restore runs), and the fold is still inlined into queries', async () => {
    const url = await freshUrl();
    await (await openPostgresStore({ schema, url })).close();
    await withClient(url, async (client) => {
      const home = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0].schema;
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE, COSTS OFF) SELECT rb_search_fold(name) FROM clips`);
      assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /Output: regexp_replace\(/);
      await client.query(`SET search_path = ''`);
      const folded = await client.query<{ text: string }>(`SELECT "${home}".rb_search_fold('Café-Crème!') AS text`);
      assert.equal(folded.rows[0].text, 'Cafe Creme ');
    });
  });

  it('gives a store made with the unqualified fold the qualified one on opening, keeping its search column and indexes', async () => {
    const url = await freshUrl();
    const first = await openPostgresStore({ schema, url });
    await first.insert('clips', { name: 'Documentary night at the Café', description: 'Crème' });
    await first.close();
    const before = await withClient(url, async (client) => {
      await client.query(`CREATE OR REPLACE FUNCTION rb_search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $rb$${UNQUALIFIED_FOLD}$rb$`);
      return (await client.query(SEARCH_OBJECTS)).rows[0];
    });
    const store = await openPostgresStore({ schema, url });
    try {
      await withClient(url, async (client) => {
        assert.match((await client.query<{ prosrc: string }>(foldBody)).rows[0].prosrc, /^ SELECT regexp_replace\("s\d+"\.rb_search_unaccent\(\$1\), /);
        assert.deepEqual((await client.query(SEARCH_OBJECTS)).rows[0], before);
      });
      assert.equal(await store.count('clips', matches('cafe creme')), 1);
      assert.equal(await store.count('clips', matches('documentery')), 1);
    } finally {
      await store.close();
    }
  });
});
