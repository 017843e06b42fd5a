import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { objectFields, operations, schema, type Operation } from '@reelbase/core';
import { seedPopulation } from '@reelbase/seed';
import { openSqliteStore } from '@reelbase/store-sqlite';
import { Harness, type TestDriver } from '../src/index';
import { buildWorld, fill, type World } from '../src/world';

/**
 * Every SELECT the SQLite driver runs while each list operation of the table answers (every sort,
 * filter and query, for an anonymous caller, the owner and a stranger) must reach the big
 * collections through an index: EXPLAIN QUERY PLAN may not show a full `SCAN` of them, nor an
 * index walked end to end to feed a subquery. Plans do not depend on the data (the driver never
 * runs ANALYZE), so a small store shows the plans a million-video one gets.
 */

/** The collections that grow with the population: videos, people, and every membership. */
const big = new Set([
  'videos',
  'users',
  'follows',
  'likes',
  'watchlater',
  'watched',
  'video_access',
  'video_tags',
  'video_categories',
  'comments',
  'credits',
  'activities',
  'channels',
  'channel_videos',
  'channel_followers',
  'channel_moderators',
  'channel_access',
  'channel_categories',
  'groups',
  'group_members',
  'group_videos',
  'albums',
  'album_videos',
  'category_follows',
  'ondemand_videos',
  'ondemand_library',
  'ondemand_purchases',
]);

interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

/**
 * A walk over a whole big table: a SCAN without an index, or any SCAN inside a subquery (which
 * SQLite runs to the end to collect its values; only an ordered walk under LIMIT stops early).
 */
function isFullScan(row: PlanRow, plan: PlanRow[]): boolean {
  const [, table, how] = /^SCAN (\w+)(.*)$/.exec(row.detail) ?? [];
  if (!table || !big.has(table)) return false;
  if (!/USING (COVERING )?INDEX/.test(how)) return true;
  for (let up = plan.find((r) => r.id === row.parent); up; up = plan.find((r) => r.id === up!.parent)) {
    if (/SUBQUERY/.test(up.detail)) return true;
  }
  return false;
}

interface Executed {
  sql: string;
  params: unknown[];
  during: string;
}

// Statements are observed where the driver prepares them: each execution is recorded with the
// request that caused it. Installed before the store opens, so every statement goes through it.
const executed = new Map<string, Executed>();
let during: string | null = null;
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: Database.Database, sql: string) {
  const statement = prepare.call(this, sql) as Database.Statement;
  for (const method of ['all', 'get', 'run', 'iterate'] as const) {
    const original = statement[method] as (...params: unknown[]) => unknown;
    Object.defineProperty(statement, method, {
      value(...params: unknown[]) {
        if (during !== null && /^\s*(SELECT|DELETE)/i.test(sql) && !executed.has(sql)) executed.set(sql, { sql, params, during });
        return original.apply(this, params);
      },
    });
  }
  return statement;
} as typeof prepare;

const dir = mkdtempSync(join(tmpdir(), 'reelbase-plans-'));
const path = join(dir, 'plans.db');
const sqliteFile: TestDriver = {
  name: 'sqlite',
  open: async () => ({ store: await openSqliteStore({ schema, path }), cleanup: () => undefined }),
};

const paramsOf = (op: Operation<unknown>) => new Map(op.params ? (objectFields(op.params as never) ?? []) : []);

/** GET operations answering the list envelope: those taking `page`. */
const listOperations = operations.filter((op) => op.method === 'GET' && paramsOf(op).has('page'));

/** The query strings worth planning for an operation: defaults, every sort, filter and a query. */
function variants(op: Operation<unknown>): Record<string, string>[] {
  const fields = paramsOf(op);
  const values = (name: string): string[] => {
    const struct = fields.get(name);
    return struct?.type === 'enums' ? Object.keys(struct.schema as object) : [];
  };
  const out: Record<string, string>[] = [{}, { page: '3', per_page: '2' }];
  for (const sort of values('sort')) out.push({ sort }, ...(sort === 'default' || !fields.has('direction') ? [] : [{ sort, direction: 'asc' }]));
  for (const filter of values('filter')) out.push(filter === 'embeddable' ? { filter, filter_embeddable: 'true' } : { filter });
  if (fields.has('query')) out.push({ query: 'o' });
  return out;
}

describe('query plans of the list operations (SQLite)', () => {
  let h: Harness;
  let world: World;

  before(async () => {
    h = await Harness.start(sqliteFile);
    world = await buildWorld(h);
    await seedPopulation(h.service.store, { users: 20, videos: 60, channels: 3, seed: 7 }, { now: h.clock.now() });
    const callers = [undefined, world.a.token, world.b.token];
    for (const op of listOperations) {
      for (const template of op.paths) {
        for (const query of variants(op)) {
          const url = `${fill(template, world.vars)}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
          for (const token of callers) {
            during = `${op.id}: GET ${url}`;
            await h.service.handle(token ?? null, { method: 'GET', url, headers: {} });
            during = null;
          }
        }
      }
    }
    // A like and its unlike: the unlike withdraws the like's feed event by video, type and user.
    for (const method of ['PUT', 'DELETE']) {
      during = `${method} /me/likes/{video_id}`;
      const r = await h.service.handle(world.b.token, { method, url: `/me/likes/${world.vars.video_id}`, headers: {} });
      during = null;
      assert.equal(r.status, 204);
    }
  });
  after(async () => {
    await h.stop();
    Database.prototype.prepare = prepare;
    rmSync(dir, { recursive: true, force: true });
  });

  it('drives every list operation of the table', () => {
    assert.ok(listOperations.length > 40, `found only ${listOperations.length} list operations`);
    assert.ok(executed.size > 100, `saw only ${executed.size} distinct queries`);
  });

  it("an unlike's withdrawal of the feed event reaches it by its video, type and user", () => {
    const withdrawal = [...executed.values()].find((q) => q.during.startsWith('DELETE') && /^DELETE FROM "activities"/.test(q.sql));
    assert.ok(withdrawal, 'the unlike deleted no activity');
    const db = new Database(path, { readonly: true });
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${withdrawal.sql}`).all(...withdrawal.params) as PlanRow[];
      assert.deepEqual(
        plan.map((r) => r.detail),
        ['SEARCH activities USING INDEX rb_ix_activities__video_id__type__user_id (video_id=? AND type=? AND user_id=?)'],
      );
    } finally {
      db.close();
    }
  });

  it('no list query scans a whole big collection', () => {
    const db = new Database(path, { readonly: true });
    db.function('rb_lower', { deterministic: true }, (v: unknown) => v);
    const scans: string[] = [];
    try {
      for (const q of executed.values()) {
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as PlanRow[];
        for (const row of plan) if (isFullScan(row, plan)) scans.push(`${row.detail}\n    during ${q.during}\n    ${q.sql}`);
      }
    } finally {
      db.close();
    }
    assert.deepEqual(scans, []);
  });
});
