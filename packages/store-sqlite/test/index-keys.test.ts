import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { eq, type Schema } from '@reelbase/core';
import { openSqliteStore } from '../src/index';
import { compileFind } from '../src/compile-query';
import { describeSchema } from '../src/sqlite-schema';

// How the driver turns the schema's keys into indexes and keeps mirrored columns (sqlite-mirror.ts).

const dir = mkdtempSync(join(tmpdir(), 'reelbase-sqlite-keys-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `db-${++files}.sqlite`);

const clips = { id: 'auto', fields: { user_id: 'string', title: 'text', plays: 'integer', hidden: 'boolean', kind: 'string', created_time: 'string' } } as const;

function indexes(path: string, table: string): Record<string, string> {
  const raw = new Database(path, { readonly: true });
  try {
    const rows = raw.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'rb_%'`).all(table) as { name: string; sql: string }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.sql]));
  } finally {
    raw.close();
  }
}

describe('sqlite index keys', () => {
  it('creates descending keys, and no index of their own for text, boolean and unindexed fields', async () => {
    const path = freshPath();
    const schema: Schema = { clips: { ...clips, indexes: [['user_id', 'plays desc']], unindexed: ['created_time'] } };
    const store = await openSqliteStore({ schema, path });
    await store.close();
    assert.deepEqual(indexes(path, 'clips'), {
      rb_ix_clips__user_id__plays_desc: 'CREATE INDEX "rb_ix_clips__user_id__plays_desc" ON "clips" ("user_id", "plays" DESC)',
      rb_ix_clips__plays: 'CREATE INDEX "rb_ix_clips__plays" ON "clips" ("plays")',
      rb_ix_clips__kind: 'CREATE INDEX "rb_ix_clips__kind" ON "clips" ("kind")',
    });
  });

  it('serves a descending sort, ties by id ascending, in index order', async () => {
    const path = freshPath();
    const schema: Schema = { clips: { ...clips, indexes: [['user_id', 'plays desc']] } };
    const store = await openSqliteStore({ schema, path });
    for (const plays of [5, 9, 5, 1]) await store.insert('clips', { user_id: 'u', plays });
    const order = [{ field: 'plays', direction: 'desc' as const }];
    assert.deepEqual((await store.find('clips', { where: eq('user_id', 'u'), orderBy: order })).items.map((c) => c.id), ['2', '1', '3', '4']);
    await store.close();
    const tables = describeSchema(schema);
    const { sql, params } = compileFind(tables, tables.get('clips')!, { where: eq('user_id', 'u'), orderBy: order }).rows(25, 0);
    const raw = new Database(path, { readonly: true });
    try {
      const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
      assert.deepEqual(plan, ['SEARCH clips USING INDEX rb_ix_clips__user_id__plays_desc (user_id=?)']);
    } finally {
      raw.close();
    }
  });

  it('fills a mirror added to an existing store from the rows already there', async () => {
    const path = freshPath();
    const tags = { id: 'auto', fields: { clip_id: 'string', tag: 'string' } } as const;
    const before = await openSqliteStore({ schema: { clips, tags }, path });
    await before.insert('clips', { title: 'one', plays: 3 });
    await before.insert('clips', { title: 'two', plays: 8 });
    await before.insert('tags', { clip_id: '1', tag: 'a' });
    await before.insert('tags', { clip_id: '2', tag: 'a' });
    await before.close();
    const mirrored: Schema = {
      clips,
      tags: {
        ...tags,
        fields: { ...tags.fields, clip_plays: 'integer' },
        indexes: [['tag', 'clip_plays desc']],
        mirror: { collection: 'clips', key: 'clip_id', fields: { clip_plays: 'plays' } },
      },
    };
    const after = await openSqliteStore({ schema: mirrored, path });
    try {
      const byPlays = await after.find('tags', { where: eq('tag', 'a'), orderBy: [{ field: 'clip_plays', direction: 'desc' }] });
      assert.deepEqual(byPlays.items, [
        { id: '2', clip_id: '2', tag: 'a' },
        { id: '1', clip_id: '1', tag: 'a' },
      ]);
    } finally {
      await after.close();
    }
    // Reopening leaves the triggers as they were.
    const raw = new Database(path, { readonly: true });
    const triggers = () => raw.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all();
    const first = triggers();
    raw.close();
    await (await openSqliteStore({ schema: mirrored, path })).close();
    const again = new Database(path, { readonly: true });
    assert.deepEqual(again.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all(), first);
    assert.equal(first.length, 4);
    again.close();
  });

  it('takes a page cache size, and refuses one that is not positive', async () => {
    const store = await openSqliteStore({ schema: { clips }, path: ':memory:', cacheMiB: 256 });
    await store.close();
    await assert.rejects(openSqliteStore({ schema: { clips }, path: ':memory:', cacheMiB: 0 }), /cacheMiB must be a positive number/);
  });

  it('refuses a mirror of an unknown collection or field', () => {
    assert.throws(
      () => describeSchema({ t: { id: 'auto', fields: { k: 'string', c: 'integer' }, mirror: { collection: 'nope', key: 'k', fields: { c: 'x' } } } }),
      /mirror names unknown collection nope/,
    );
    assert.throws(
      () => describeSchema({ s: { id: 'auto', fields: { x: 'integer' } }, t: { id: 'auto', fields: { k: 'string', c: 'integer' }, mirror: { collection: 's', key: 'k', fields: { c: 'y' } } } }),
      /mirrored field c copies undeclared s\.y/,
    );
    assert.throws(() => describeSchema({ t: { id: 'auto', fields: { k: 'string' }, unindexed: ['z'] } }), /unindexed names undeclared field z/);
  });
});
