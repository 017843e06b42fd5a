import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { and, eq, matches, RELEVANCE, type Doc, type OrderBy, type Schema, type Store } from '@reelbase/core';
import { mulberry32 } from '@reelbase/store-testkit';
import { openPostgresStore } from '../src/index';
import { compileFind, compileWalk, walkOf, type FindRead } from '../src/compile-query';
import { ensureSchema } from '../src/pg-schema';
import { windowOf } from '../src/pg-windows';
import type { PgTables } from '../src/pg-columns';
import { freshUrl, notSelected } from './selection';

// The search plans of the PostgreSQL driver (compile-query.ts): the first-tier walk and the bounded
// total answer exactly what ranking and counting every match answers, and their plans say so.

const schema: Schema = {
  clips: {
    id: 'auto',
    fields: { title: 'text', labels: 'text', body: 'text', owner: 'string', plays: 'integer', created_time: 'string' },
    search: [['title'], ['labels'], ['body']],
    searchKeys: ['owner'],
    searchTies: 'plays',
    indexes: [['plays desc'], ['owner', 'created_time desc']],
  },
};

const vocabulary = ['river', 'festival', 'night', 'market', 'harbour', 'mountain', 'ancient', 'street', 'kitchen', 'garden', 'riverside', 'nightly'];

function library(count: number, next: () => number): Omit<Doc, 'id'>[] {
  const pick = () => vocabulary[Math.floor(next() * vocabulary.length)];
  const text = (words: number) => Array.from({ length: 1 + Math.floor(next() * words) }, pick).join(' ');
  return Array.from({ length: count }, (_, i) => ({
    title: text(3),
    labels: text(2),
    body: text(6),
    owner: `u${i % 4}`,
    // Few distinct play counts, so that ties fall to the id.
    plays: Math.floor(next() * 20),
    created_time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  }));
}

/** One to three terms: whole words, prefixes, a quoted pair, an exclusion. */
function queries(count: number, next: () => number): string[] {
  const pick = () => vocabulary[Math.floor(next() * vocabulary.length)];
  const term = () => {
    const r = next();
    if (r < 0.2) return pick().slice(0, 3);
    if (r < 0.35) return `"${pick()} ${pick()}"`;
    return pick();
  };
  return Array.from({ length: count }, () => {
    const terms = Array.from({ length: 1 + Math.floor(next() * 3) }, term);
    if (next() < 0.3) terms.push(`-${pick()}`);
    return terms.join(' ');
  });
}

const relevant: OrderBy[] = [
  { field: RELEVANCE, direction: 'desc' },
  { field: 'plays', direction: 'desc' },
];

interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  Plans?: PlanNode[];
}

/** A plan's nodes, depth first. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe('PostgreSQL search plans', { skip: notSelected }, () => {
  let store: Store;
  let pool: pg.Pool;
  let tables: PgTables;

  before(async () => {
    const url = await freshUrl();
    store = await openPostgresStore({ schema, url });
    await store.insertMany('clips', library(600, mulberry32(50)));
    pool = new pg.Pool({ connectionString: url, max: 4 });
    tables = await ensureSchema(pool, schema);
    await pool.query('ANALYZE');
  });
  after(async () => {
    await store?.close();
    await pool?.end();
  });

  /** What the plain plan answers: every match ranked, every match counted. */
  async function plain(read: FindRead): Promise<{ ids: string[]; total: number }> {
    const { sql, params } = compileFind(tables, tables.get('clips')!, { ...read, exactTotal: Number.MAX_SAFE_INTEGER });
    const { rows } = await pool.query<{ id: string; total: string }>(sql, params);
    // A page past the last match carries no total: the store counts those apart (exactly).
    return { ids: rows.map((r) => String(r.id)), total: rows.length ? Number(rows[0].total) : await store.count('clips', read.where) };
  }

  it('answers every generated query as ranking and counting every match does: same rows, same order, same total', async () => {
    const orders: OrderBy[][] = [relevant, [{ field: 'created_time', direction: 'desc' }], [{ field: 'title', direction: 'asc' }]];
    let firstTierPages = 0;
    // Each query's pages side by side: a few round trips at a time instead of one.
    for (const query of queries(24, mulberry32(7))) {
      const reads = orders.flatMap((orderBy) => [matches(query), and(eq('owner', 'u1'), matches(query))].flatMap((where) => [0, 10].map((offset) => ({ where, orderBy, limit: 10, offset }))));
      await Promise.all(
        reads.map(async (read) => {
          const expected = await plain(read);
          // A bound low enough that common words pass it, and their ranked pages walk the first tier.
          const found = await store.find('clips', { ...read, exactTotal: 30 });
          const label = `${query} ${JSON.stringify(read.orderBy)} ${read.offset}`;
          assert.deepEqual(found.items.map((d) => d.id), expected.ids, label);
          if (expected.total <= 30) assert.equal(found.total, expected.total, label);
          else assert.ok(found.total > 30, label);
          if (read.orderBy === relevant && expected.ids.length === read.limit) firstTierPages++;
        }),
      );
    }
    // The generated queries fill ranked pages, which the first-tier walk answers when it can, not only short ones.
    assert.ok(firstTierPages > 15, `${firstTierPages} full ranked pages`);
  });

  it("keeps a window per list order of the search key's indexes: made when the schema wants one, dropped when it no longer does", async () => {
    const url = await freshUrl();
    const windows = async () => {
      const own = new pg.Pool({ connectionString: url, max: 1 });
      try {
        return (await own.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND starts_with(indexname, 'rbwin_') ORDER BY 1`)).rows.map((r) => r.name);
      } finally {
        await own.end();
      }
    };
    const { clips } = schema;
    for (const [indexes, expected] of [
      [clips.indexes, ['rbwin_clips', 'rbwin_clips__created_time_desc']],
      [[['owner', 'title']], ['rbwin_clips', 'rbwin_clips__title']],
    ] as const) {
      await (await openPostgresStore({ schema: { clips: { ...clips, indexes: indexes?.map((i) => [...i]) } }, url })).close();
      assert.deepEqual(await windows(), expected);
    }
  });

  it('counts a search up to one past exactTotal, then answers an estimate above it', async () => {
    const where = matches('river');
    const all = (await plain({ where, limit: 1, offset: 0 })).total;
    assert.ok(all > 50, `${all} matches`);
    assert.equal((await store.find('clips', { where, limit: 1, exactTotal: all })).total, all);
    const bounded = (await store.find('clips', { where, limit: 1, exactTotal: 50 })).total;
    assert.ok(bounded > 50, `${bounded}`);
    assert.equal(await store.count('clips', where), all);
  });

  it('plans a search total that stops at its bound, a first-tier walk in the tie-break index that scores nothing, and a walk of the date window', async () => {
    const table = tables.get('clips')!;
    const plan = async (read: FindRead): Promise<PlanNode> => {
      const { sql, params } = compileFind(tables, table, read);
      return (await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (VERBOSE, FORMAT JSON) ${sql}`, params)).rows[0]['QUERY PLAN'][0].Plan;
    };
    const explain = async (read: FindRead) => JSON.stringify(await plan(read));
    const counted = await plan({ where: matches('river festival'), orderBy: [{ field: 'created_time', direction: 'desc' }], limit: 25, offset: 0 });
    // The total is an InitPlan counting under a Limit: it stops at exactTotal + 1.
    const total = nodes(counted).find((n) => n['Subplan Name']?.startsWith('InitPlan'));
    assert.equal(total?.['Node Type'], 'Aggregate');
    assert.equal(total?.Plans?.[0]['Node Type'], 'Limit');
    // The walk of a ranked page's first tier reads the tie-break's index in order and scores nothing
    // (the plain ranked page evaluates each match's tiers: its CASE).
    const firstTier = { order: windowOf(table, relevant.slice(1))!.order, firstTier: matches('river festival').match };
    const walk = compileWalk(tables, table, { where: matches('river festival'), orderBy: relevant, limit: 25, offset: 0 }, firstTier, 500);
    const client = await pool.connect();
    try {
      // A 600-row table is read whole rather than by an index unless the planner is told otherwise.
      await client.query('SET enable_seqscan = off');
      const walked = JSON.stringify((await client.query(`EXPLAIN (VERBOSE, FORMAT JSON) ${walk.sql}`, walk.params)).rows[0]);
      assert.match(walked, /"Index Name":"rbwin_clips"/);
      assert.doesNotMatch(walked, /CASE WHEN/);
      assert.match(await explain({ where: matches('river festival'), orderBy: relevant, limit: 25, offset: 0 }), /CASE WHEN/);
      // A page by date walks the date window (pg-windows.ts) and tests each row for the whole search.
      const byDate: FindRead = { where: matches('river festival'), orderBy: [{ field: 'created_time', direction: 'desc' }], limit: 25, offset: 0 };
      const dated = compileWalk(tables, table, byDate, walkOf(table, byDate)!, 500);
      assert.match(JSON.stringify((await client.query(`EXPLAIN (VERBOSE, FORMAT JSON) ${dated.sql}`, dated.params)).rows[0]), /"Index Name":"rbwin_clips__created_time_desc"/);
      // One owner's page is not walked over every row: the owner's own index serves it.
      assert.equal(walkOf(table, { ...byDate, where: and(eq('owner', 'u1'), matches('river festival')) }), undefined);
    } finally {
      client.release();
    }
  });
});
