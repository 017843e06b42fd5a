import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { eq, matches, StoreConflictError, type Schema } from '@reelbase/core';
import { openSqliteStore } from '../src/index';
import type { SqliteStore } from '../src/sqlite-store';

const dir = mkdtempSync(join(tmpdir(), 'reelbase-sqlite-bulk-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `db-${++files}.sqlite`);

const schema: Schema = {
  users: { id: 'auto', fields: { name: 'text', link: 'string' }, unique: [['link']] },
  videos: { id: 'auto', fields: { user_id: 'string', name: 'text', plays: 'integer' }, indexes: [['user_id', 'plays desc']], search: [['name']] },
  likes: { id: 'auto', fields: { user_id: 'string', video_id: 'string' }, unique: [['user_id', 'video_id']] },
};

/** The store's own indexes on `table`, by name, as the database holds them now. */
function indexes(path: string, table: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'rb_%' ORDER BY name`).all(table) as { name: string }[];
    return rows.map((r) => r.name);
  } finally {
    db.close();
  }
}

/** Every index a normally opened store with `schema` has, by table. */
async function wantedIndexes(): Promise<Record<string, string[]>> {
  const path = freshPath();
  await (await openSqliteStore({ schema, path })).close();
  return Object.fromEntries(Object.keys(schema).map((table) => [table, indexes(path, table)]));
}

const synchronous = (store: SqliteStore): unknown => store.writer.conn.db.pragma('synchronous', { simple: true });

/** Rows in the videos' full-text index, as the database holds it now (an external-content index counts its own entries in docsize). */
function searchRows(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM rb_search_videos_docsize').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('sqlite store: bulk load', () => {
  it('builds the secondary and full-text indexes of the tables it filled at close, keeping unique keys enforced throughout', async () => {
    const wanted = await wantedIndexes();
    const path = freshPath();
    const store = (await openSqliteStore({ schema, path, bulkLoad: true, deferSearch: true })) as SqliteStore;
    // Only the unique keys are left while loading, and an empty database syncs at the end only.
    assert.deepEqual(indexes(path, 'videos'), []);
    assert.deepEqual(indexes(path, 'users'), ['rb_ux_users__link']);
    assert.equal(synchronous(store), 0);
    await store.transaction(async (tx) => {
      const user = await tx.insert('users', { name: 'Ann', link: 'ann' });
      for (let i = 0; i < 50; i++) await tx.insert('videos', { user_id: user.id, name: `Clip ${i}`, plays: i });
      await tx.insert('likes', { user_id: user.id, video_id: '1' });
    });
    await assert.rejects(store.insert('likes', { user_id: '1', video_id: '1' }), StoreConflictError);
    await assert.rejects(store.insert('users', { name: 'Other', link: 'ann' }), StoreConflictError);
    assert.equal(await store.count('videos', eq('user_id', '1')), 50);
    await store.close();

    for (const table of Object.keys(schema)) assert.deepEqual(indexes(path, table), wanted[table], table);
    const raw = new Database(path, { readonly: true });
    try {
      // Everything is in the database file: the close checkpointed the WAL.
      assert.equal((raw.prepare('SELECT count(*) AS n FROM videos').get() as { n: number }).n, 50);
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      raw.close();
    }
    // The full-text index is built at the end too, from every row loaded, and keeps FTS5's default term buffer.
    assert.equal(searchRows(path), 50);
    const config = new Database(path, { readonly: true });
    try {
      assert.equal((config.prepare(`SELECT v FROM rb_search_videos_config WHERE k = 'hashsize'`).get() as { v: number }).v, 1024 * 1024);
    } finally {
      config.close();
    }
    const reopened = (await openSqliteStore({ schema, path })) as SqliteStore;
    try {
      assert.equal(synchronous(reopened), 2);
      assert.equal(await reopened.count('videos', matches('clip 7')), 1);
      assert.equal(await reopened.count('videos', matches('clip')), 50);
      const top = await reopened.find('videos', { where: eq('user_id', '1'), orderBy: [{ field: 'plays', direction: 'desc' }], limit: 2 });
      assert.deepEqual(top.items.map((v) => v.plays), [49, 48]);
    } finally {
      await reopened.close();
    }
  });

  it('keeps the indexes of tables holding rows, and syncs every commit when the database holds any', async () => {
    const wanted = await wantedIndexes();
    const path = freshPath();
    const before = await openSqliteStore({ schema, path });
    await before.insert('users', { name: 'Ann', link: 'ann' });
    await before.close();
    const store = (await openSqliteStore({ schema, path, bulkLoad: true, deferSearch: true })) as SqliteStore;
    try {
      assert.deepEqual(indexes(path, 'users'), wanted.users);
      assert.deepEqual(indexes(path, 'videos'), []);
      assert.equal(synchronous(store), 2);
    } finally {
      await store.close();
    }
    assert.deepEqual(indexes(path, 'videos'), wanted.videos);
  });

  it('leaves what a killed load committed, and the next open builds the missing indexes, full-text ones included', async () => {
    const wanted = await wantedIndexes();
    const path = freshPath();
    const store = (await openSqliteStore({ schema, path, bulkLoad: true, deferSearch: true })) as SqliteStore;
    await store.transaction(async (tx) => {
      for (let i = 0; i < 10; i++) await tx.insert('videos', { user_id: '1', name: `Clip ${i}`, plays: i });
    });
    // A kill: the connections go without the store's close.
    store.reader?.conn.db.close();
    store.writer.conn.db.close();
    assert.deepEqual(indexes(path, 'videos'), []);
    assert.equal(searchRows(path), 0);
    const reopened = await openSqliteStore({ schema, path });
    try {
      assert.deepEqual(indexes(path, 'videos'), wanted.videos);
      assert.equal(await reopened.count('videos'), 10);
      assert.equal(await reopened.count('videos', matches('clip')), 10);
      // Written after the build, a row is indexed by its trigger again.
      await reopened.insert('videos', { user_id: '1', name: 'Sunset', plays: 0 });
      assert.equal(await reopened.count('videos', matches('sunset')), 1);
    } finally {
      await reopened.close();
    }
  });
});
