import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { eq, type Schema, type Store } from '@reelbase/core';
import { openSqliteStore } from '../src/index';
import type { SqliteStore } from '../src/sqlite-store';
import type { SqlValue } from '../src/sqlite-types';

const dir = mkdtempSync(join(tmpdir(), 'reelbase-sqlite-counts-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const schema: Schema = { videos: { id: 'auto', fields: { tag: 'string', plays: 'integer' }, indexes: [['tag', 'plays']] } };

async function withStore(fn: (store: Store, path: string) => Promise<void>): Promise<void> {
  const path = join(dir, `db-${++files}.sqlite`);
  const store = await openSqliteStore({ schema, path });
  try {
    await fn(store, path);
  } finally {
    await store.close();
  }
}

const insertTagged = (store: Store, tag: string, count: number) =>
  store.transaction(async (tx) => {
    for (let i = 0; i < count; i++) await tx.insert('videos', { tag, plays: i });
  });

/** A list's total as a page that does not reach its end reports it (the count, not the page's length). */
const total = async (store: Store, tag: string) => (await store.find('videos', { where: eq('tag', tag), limit: 2 })).total;

// Totals on the read connection are remembered while the database is unchanged: each check below
// reads the same total first, then changes the data some way, then expects the new total at once.
describe('sqlite store: remembered totals', () => {
  it('counts a list once while nothing changes', async () => {
    await withStore(async (store) => {
      await insertTagged(store, 'music', 5);
      const reader = (store as SqliteStore).reader!.conn;
      const get = reader.get.bind(reader);
      let counted = 0;
      reader.get = <T>(sql: string, params?: SqlValue[]): T | undefined => {
        if (sql.startsWith('SELECT count(*)')) counted++;
        return get<T>(sql, params);
      };
      for (let turn = 0; turn < 3; turn++) {
        assert.equal(await total(store, 'music'), 5);
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(counted, 1);
    });
  });

  it('answers the new total after a write of this store, in the same turn', async () => {
    await withStore(async (store) => {
      await insertTagged(store, 'music', 5);
      assert.equal(await total(store, 'music'), 5);
      assert.equal(await store.count('videos', eq('tag', 'music')), 5);
      await store.insert('videos', { tag: 'music', plays: 9 });
      assert.equal(await total(store, 'music'), 6);
      assert.equal(await store.count('videos', eq('tag', 'music')), 6);
      await store.deleteWhere('videos', eq('plays', 0));
      assert.equal(await total(store, 'music'), 5);
      assert.equal(await store.count('videos', eq('tag', 'music')), 5);
    });
  });

  it('answers the new total after another process commits to the database', async () => {
    await withStore(async (store, path) => {
      await insertTagged(store, 'music', 5);
      assert.equal(await total(store, 'music'), 5);
      const other = new Database(path);
      try {
        other.prepare(`INSERT INTO videos (doc, tag, plays) VALUES ('{"tag":"music","plays":7}', 'music', 7)`).run();
      } finally {
        other.close();
      }
      // The next turn of the event loop reads from a new snapshot.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(await total(store, 'music'), 6);
      assert.equal(await store.count('videos', eq('tag', 'music')), 6);
    });
  });

  it('keeps each list its own total, and counts a transaction`s own writes live', async () => {
    await withStore(async (store) => {
      await insertTagged(store, 'music', 4);
      await insertTagged(store, 'travel', 3);
      assert.equal(await total(store, 'music'), 4);
      assert.equal(await total(store, 'travel'), 3);
      await store.transaction(async (tx) => {
        await tx.insert('videos', { tag: 'travel', plays: 1 });
        assert.equal((await tx.find('videos', { where: eq('tag', 'travel'), limit: 2 })).total, 4);
        assert.equal(await tx.count('videos', eq('tag', 'travel')), 4);
      });
      assert.equal(await total(store, 'travel'), 4);
      assert.equal(await total(store, 'music'), 4);
    });
  });
});
