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

const dir = mkdtempSync(join(tmpdir(), 'reelbase-sqlite-read-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const schema: Schema = { videos: { id: 'auto', fields: { tag: 'string', plays: 'integer' }, indexes: [['tag', 'plays']] } };

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Counts the statements of the read connection whose text starts with `prefix`. */
function countReads(store: Store, prefix: string): () => number {
  const reader = (store as SqliteStore).reader!.conn;
  const get = reader.get.bind(reader);
  let n = 0;
  reader.get = <T>(sql: string, params?: SqlValue[]): T | undefined => {
    if (sql.startsWith(prefix)) n++;
    return get<T>(sql, params);
  };
  return () => n;
}

/** Another process's commit: a second connection of its own. */
function commitElsewhere(path: string, sql: string): void {
  const other = new Database(path);
  try {
    other.prepare(sql).run();
  } finally {
    other.close();
  }
}

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
      const counted = countReads(store, 'SELECT count(*)');
      for (let turn = 0; turn < 3; turn++) {
        assert.equal(await total(store, 'music'), 5);
        await nextTurn();
      }
      assert.equal(counted(), 1);
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
      commitElsewhere(path, `INSERT INTO videos (doc, tag, plays) VALUES ('{"tag":"music","plays":7}', 'music', 7)`);
      // The next turn of the event loop reads from a new snapshot.
      await nextTurn();
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

// Point reads on the read connection are remembered the same way, and answered frozen (shared).
describe('sqlite store: remembered point reads', () => {
  it('reads a document once while nothing changes, and answers it frozen', async () => {
    await withStore(async (store) => {
      await store.insert('videos', { tag: 'music', plays: 1, meta: { list: [1] } });
      const read = countReads(store, 'SELECT id, doc');
      const answers = [];
      for (let turn = 0; turn < 3; turn++) {
        answers.push(await store.get('videos', '1'));
        assert.equal(await store.get('videos', '2'), null);
        await nextTurn();
      }
      assert.equal(read(), 2, 'one read of each id');
      assert.deepEqual(answers[2], { id: '1', tag: 'music', plays: 1, meta: { list: [1] } });
      const doc = answers[0] as unknown as { meta: { list: number[] } };
      assert.ok(Object.isFrozen(doc) && Object.isFrozen(doc.meta.list));
      assert.throws(() => doc.meta.list.push(2), TypeError);
    });
  });

  it('answers a write of this store at once, in the same turn', async () => {
    await withStore(async (store) => {
      await store.insert('videos', { tag: 'music', plays: 1 });
      assert.equal((await store.get('videos', '1'))?.plays, 1);
      assert.equal(await store.get('videos', '2'), null);
      await store.update('videos', '1', { plays: 2 });
      assert.equal((await store.get('videos', '1'))?.plays, 2);
      await store.increment('videos', '1', 'plays', 3);
      assert.equal((await store.get('videos', '1'))?.plays, 5);
      await store.transaction(async (tx) => {
        await tx.insert('videos', { tag: 'travel', plays: 0 });
        await tx.update('videos', '1', { plays: 6 });
      });
      assert.equal((await store.get('videos', '1'))?.plays, 6);
      assert.equal((await store.get('videos', '2'))?.tag, 'travel');
      await store.delete('videos', '1');
      assert.equal(await store.get('videos', '1'), null);
    });
  });

  it('answers another process`s commit from the next turn', async () => {
    await withStore(async (store, path) => {
      await store.insert('videos', { tag: 'music', plays: 1 });
      assert.equal((await store.get('videos', '1'))?.plays, 1);
      assert.equal(await store.get('videos', '2'), null);
      commitElsewhere(path, `UPDATE videos SET doc = '{"tag":"music","plays":9}', plays = 9 WHERE id = 1`);
      commitElsewhere(path, `INSERT INTO videos (doc, tag, plays) VALUES ('{"tag":"jazz","plays":0}', 'jazz', 0)`);
      await nextTurn();
      assert.equal((await store.get('videos', '1'))?.plays, 9);
      assert.equal((await store.get('videos', '2'))?.tag, 'jazz');
    });
  });

  it('keeps a bounded number of documents', async () => {
    await withStore(async (store) => {
      await store.transaction(async (tx) => {
        for (let i = 0; i < 2100; i++) await tx.insert('videos', { tag: 't', plays: i });
      });
      const read = countReads(store, 'SELECT id, doc');
      for (let i = 1; i <= 2100; i++) await store.get('videos', String(i));
      // The first ones were forgotten to make room for the last: read again.
      await store.get('videos', '2100');
      await store.get('videos', '1');
      assert.equal(read(), 2101);
    });
  });
});
