import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import pg from 'pg';
import { and, eq, inSelect, matches, RELEVANCE, type Filter, type Schema } from '@reelbase/core';
import { openPostgresStore } from '../src/index';
import { compileFind } from '../src/compile-query';
import { nearSearch } from '../src/pg-near';
import { ensureSchema } from '../src/pg-schema';
import { freshUrl, notSelected, server, withClient } from './selection';

// Near matches (pg-near.ts, docs/search.md "Typos"): what the conformance suite cannot show.

const schema: Schema = {
  clips: { id: 'auto', fields: { name: 'text', description: 'text', owner: 'string', plays: 'integer' }, search: [['name'], ['description']] },
  picks: { id: 'auto', fields: { list: 'string', clip_id: 'string' } },
  notes: { id: 'auto', fields: { text: 'text' }, search: [['text']] },
};

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'dor', 'mun', 'gre', 'hal', 'bis'];

/** A made-up word per `n`, two to four syllables, so thousands of names share few exact words but many trigrams. */
function word(n: number): string {
  let w = '';
  for (let k = 0; k < 2 + (n % 3); k++, n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[(n * 7 + k) % SYLLABLES.length];
  return w;
}

describe('postgres store: near matches', { skip: notSelected }, () => {
  it('reads near names from their trigram index, in a list and through a semi-join, never scanning the table', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore({ schema, url });
    try {
      const clips = Array.from({ length: 3000 }, (_, i) => ({ name: `${word(i)} ${word(i * 31 + 5)}`, description: word(i * 17), owner: String(i % 50), plays: i }));
      clips[1234].name = 'Documentary night';
      await store.insertMany('clips', clips);
      await store.insertMany('picks', Array.from({ length: 600 }, (_, i) => ({ list: String(i % 6), clip_id: String(i * 5 + 1) })));
      const typo = 'documentery';
      const found = await store.find('clips', { where: matches(typo), orderBy: [{ field: RELEVANCE, direction: 'desc' }] });
      assert.equal(found.items[0]?.name, 'Documentary night');
      assert.equal(await store.count('clips', matches(typo)), found.total);

      const pool = new pg.Pool({ connectionString: url, max: 1 });
      const tables = await ensureSchema(pool, schema);
      await pool.end();
      await withClient(url, async (client) => {
        await client.query('ANALYZE');
        const plan = async (collection: string, where: Filter) => {
          const table = tables.get(collection)!;
          const near = nearSearch(tables, table, where);
          assert.ok(near, `${collection} falls back`);
          // A membership list orders by its own rows; a list of the collection itself ranks.
          const orderBy = collection === 'clips' ? [{ field: RELEVANCE, direction: 'desc' as const }] : [];
          const { sql, params } = compileFind(tables, table, { where, orderBy, limit: 25, offset: 0 }, near);
          return JSON.stringify((await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows[0]);
        };
        // Where another condition narrows further (one owner's clips), its own index may lead instead.
        const cases: [string, Filter, RegExp][] = [
          ['clips', matches(typo), /rbtrgm_clips/],
          ['clips', and(eq('owner', '34'), matches(`${typo} -zzz`)), /rbtrgm_clips|rb_ix_clips__owner/],
          ['picks', and(eq('list', '2'), inSelect('clip_id', 'clips', 'id', matches(typo))), /rbtrgm_clips/],
        ];
        for (const [collection, where, index] of cases) {
          const detail = await plan(collection, where);
          assert.ok(!/"Seq Scan"[^}]*"Relation Name":"clips"/.test(detail), detail);
          assert.match(detail, new RegExp(`"Bitmap Index Scan"[^}]*"Index Name":"(${index.source})"`));
        }
      });
    } finally {
      await store.close();
    }
  });

  it('finds a name from a word similarity of 0.5 on, whichever pooled connection reads, and not below', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore({ schema, url, maxConnections: 3 });
    try {
      await store.insertMany('clips', [{ name: 'Volcano' }, { name: 'Glacier walk' }, { name: 'The red car' }]);
      // vulcano: 0.5 to "Volcano" (pg_trgm's default 0.6 would miss it); glacer: 0.57; volkano: 0.45.
      const found = (query: string) => store.find('clips', { where: matches(query) }).then((r) => r.items.map((c) => c.name));
      const answers = await Promise.all(['vulcano', 'glacer', 'volkano'].flatMap((q) => [found(q), found(q), found(q)]));
      assert.deepEqual(answers, [...Array(3).fill(['Volcano']), ...Array(3).fill(['Glacier walk']), ...Array(3).fill([])]);
    } finally {
      await store.close();
    }
  });

  it('has a trigram index on the names of a collection searched in several tiers only, and keeps it on reopening', async () => {
    const url = await freshUrl();
    await (await openPostgresStore({ schema, url })).close();
    const indexes = () =>
      withClient(url, async (client) => (await client.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'rbtrgm%' ORDER BY 1`)).rows);
    const before = await indexes();
    assert.equal(before.length, 1, JSON.stringify(before));
    assert.match(before[0].indexdef, /^CREATE INDEX rbtrgm_clips ON \S+ USING gin \(rb_search_fold\(name\) \S+gin_trgm_ops\)$/);
    await (await openPostgresStore({ schema, url })).close();
    assert.deepEqual(await indexes(), before);
    // A collection whose names become its only tier (prose) loses the index, and with it the fallback.
    const store = await openPostgresStore({ schema: { ...schema, clips: { ...schema.clips, search: [['name', 'description']] } }, url });
    try {
      assert.deepEqual(await indexes(), []);
      await store.insert('clips', { name: 'Documentary night', description: '' });
      assert.equal(await store.count('clips', matches('documentery')), 0);
    } finally {
      await store.close();
    }
  });

  it('opens without pg_trgm where it may not be created, and a search that finds nothing stays empty', async (t) => {
    const privileges = await withClient(server!, (c) => c.query<{ ok: boolean }>('SELECT rolsuper OR rolcreaterole AS ok FROM pg_roles WHERE rolname = current_user'));
    if (!privileges.rows[0]?.ok) return t.skip('the test server user cannot create roles, which this test needs');
    const name = `rb_plain_${randomBytes(4).toString('hex')}`;
    const base = new URL(server!);
    const adminUrl = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
    await withClient(server!, async (c) => {
      await c.query(`CREATE ROLE ${name} LOGIN PASSWORD '${name}'`);
      await c.query(`CREATE DATABASE ${name}`);
    });
    try {
      // Its own schema, but no CREATE on the database: CREATE EXTENSION, trusted or not, is refused.
      await withClient(adminUrl, (c) => c.query(`CREATE SCHEMA plain AUTHORIZATION ${name}`));
      const url = Object.assign(new URL(adminUrl), { username: name, password: name });
      url.searchParams.set('options', '-c search_path=plain');
      const store = await openPostgresStore({ schema, url: url.toString() });
      try {
        await store.insert('clips', { name: 'Documentary night', description: 'Café' });
        assert.equal(await store.count('clips', matches('documentary cafe')), 1);
        assert.equal(await store.count('clips', matches('documentery')), 0);
      } finally {
        await store.close();
      }
      const extensions = await withClient(adminUrl, async (c) => (await c.query('SELECT extname FROM pg_extension ORDER BY 1')).rows.map((r) => r.extname));
      assert.deepEqual(extensions, ['plpgsql']);
    } finally {
      await withClient(server!, async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.query(`DROP ROLE IF EXISTS ${name}`);
      });
    }
  });
});
