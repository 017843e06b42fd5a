import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { and, eq, inSelect, isIn, type Schema, type Store } from '@reelbase/core';
import { openSqliteStore } from '../src/index';
import { MAX_CACHED_DOC_BYTES, MAX_CACHED_FIND_BYTES } from '../src/read-cache';
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

/** Counts the statements of the read connection that answer rows (pages). */
function countAllReads(store: Store): () => number {
  const reader = (store as SqliteStore).reader!.conn;
  const all = reader.all.bind(reader);
  let n = 0;
  reader.all = <T>(sql: string, params?: SqlValue[]): T[] => (n++, all<T>(sql, params));
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

// Pages are remembered too, and a commit of this process forgets only what it changed: the
// documents it wrote, and every page and total that reads a table it changed (through a subquery,
// or a mirrored field, too). Another process's commit forgets everything.
describe('sqlite store: remembered pages, and what a commit forgets', () => {
  const mirrored: Schema = {
    videos: { id: 'auto', fields: { tag: 'string', plays: 'integer' }, indexes: [['tag', 'plays']] },
    likes: {
      id: 'auto',
      fields: { user_id: 'string', video_id: 'string', video_plays: 'integer' },
      indexes: [['user_id', 'video_plays']],
      mirror: { collection: 'videos', key: 'video_id', fields: { video_plays: 'plays' } },
    },
    people: { id: 'auto', fields: { name: 'string' } },
  };

  async function withMirrored(fn: (store: Store, path: string) => Promise<void>): Promise<void> {
    const path = join(dir, `db-${++files}.sqlite`);
    const store = await openSqliteStore({ schema: mirrored, path });
    try {
      await store.transaction(async (tx) => {
        for (let i = 0; i < 3; i++) await tx.insert('videos', { tag: 'music', plays: i });
        for (let i = 1; i <= 3; i++) await tx.insert('likes', { user_id: 'u', video_id: String(i) });
        await tx.insert('people', { name: 'Ann' });
      });
      await fn(store, path);
    } finally {
      await store.close();
    }
  }

  const likedByPlays = (store: Store) => store.find('likes', { where: eq('user_id', 'u'), orderBy: [{ field: 'video_plays', direction: 'desc' }] });
  const likedMusic = (store: Store) => store.find('likes', { where: inSelect('video_id', 'videos', 'id', eq('tag', 'music')) });

  it('reads a page once while nothing changes, and answers it frozen', async () => {
    await withMirrored(async (store) => {
      const reads = countAllReads(store);
      const first = await store.find('videos', { where: eq('tag', 'music') });
      await nextTurn();
      const again = await store.find('videos', { where: eq('tag', 'music') });
      assert.equal(reads(), 1);
      assert.equal(again, first);
      assert.deepEqual(again.items.map((v) => v.plays), [0, 1, 2]);
      assert.ok(Object.isFrozen(again.items) && Object.isFrozen(again.items[0]));
      // Another page of the same list is another statement.
      assert.deepEqual((await store.find('videos', { where: eq('tag', 'music'), limit: 1, offset: 1 })).items.map((v) => v.plays), [1]);
      assert.equal(reads(), 2);
    });
  });

  it('keeps what a commit of this process did not change, and forgets what it did', async () => {
    await withMirrored(async (store) => {
      const [one, two, people] = [await store.get('videos', '1'), await store.get('videos', '2'), await store.find('people')];
      const liked = await likedByPlays(store);
      await store.update('videos', '2', { plays: 9 });
      // The document written and the pages of its table (and of the table mirroring it) are read anew…
      assert.equal((await store.get('videos', '2'))?.plays, 9);
      assert.notEqual(await store.get('videos', '2'), two);
      assert.deepEqual((await likedByPlays(store)).items.map((l) => l.video_id), ['2', '3', '1']);
      assert.notEqual(await likedByPlays(store), liked);
      // …while the others are answered as remembered: the same objects.
      assert.equal(await store.get('videos', '1'), one);
      assert.equal(await store.find('people'), people);
    });
  });

  it('forgets a page whose subquery reads a table that changed', async () => {
    await withMirrored(async (store) => {
      assert.equal((await likedMusic(store)).total, 3);
      await store.update('videos', '1', { tag: 'jazz' });
      assert.equal((await likedMusic(store)).total, 2);
      await store.deleteWhere('videos', eq('tag', 'jazz'));
      assert.equal(await store.get('videos', '1'), null);
      assert.equal((await likedMusic(store)).total, 2);
      await store.insertMany('videos', [{ tag: 'music', plays: 4 }]);
      await store.insert('likes', { user_id: 'u', video_id: '4' });
      assert.equal((await likedMusic(store)).total, 3);
    });
  });

  it('forgets everything when another process committed, even beside commits of its own', async () => {
    await withMirrored(async (store, path) => {
      const people = await store.find('people');
      assert.equal((await store.get('videos', '1'))?.plays, 0);
      await store.update('videos', '3', { plays: 7 });
      commitElsewhere(path, `UPDATE people SET doc = '{"name":"Bo"}', name = 'Bo' WHERE id = 1`);
      commitElsewhere(path, `UPDATE videos SET doc = '{"tag":"music","plays":5}', plays = 5 WHERE id = 1`);
      await nextTurn();
      assert.deepEqual((await store.find('people')).items.map((p) => p.name), ['Bo']);
      assert.notEqual(await store.find('people'), people);
      assert.equal((await store.get('videos', '1'))?.plays, 5);
      assert.equal((await store.get('videos', '3'))?.plays, 7);
    });
  });

  it('never keeps a read taken before another process committed in the same turn', async () => {
    await withMirrored(async (store, path) => {
      assert.equal((await store.get('videos', '1'))?.plays, 0);
      await nextTurn();
      // This turn's snapshot starts with the first read; the commit comes after it.
      assert.deepEqual((await store.find('people')).items.map((p) => p.name), ['Ann']);
      commitElsewhere(path, `UPDATE people SET doc = '{"name":"Bo"}', name = 'Bo' WHERE id = 1`);
      assert.deepEqual((await store.find('people')).items.map((p) => p.name), ['Ann']);
      await store.update('videos', '2', { plays: 8 });
      await nextTurn();
      assert.deepEqual((await store.find('people')).items.map((p) => p.name), ['Bo']);
    });
  });

  it('forgets a write that committed after a read remembered the row it replaced', async () => {
    await withMirrored(async (store) => {
      await store.insert('people', { name: 'Cy' });
      await store.transaction(async (tx) => {
        await tx.update('videos', '1', { plays: 6 });
        // A root read meanwhile sees the last commit (Cy's), and remembers video 1 as it was.
        assert.equal((await store.find('people')).total, 2);
        assert.equal((await store.get('videos', '1'))?.plays, 0);
      });
      assert.equal((await store.get('videos', '1'))?.plays, 6);
    });
  });

  it('keeps a bounded number of rows of pages', async () => {
    await withMirrored(async (store) => {
      await store.insertMany('videos', Array.from({ length: 600 }, (_, i) => ({ tag: `t${i % 60}`, plays: i })));
      const reads = countAllReads(store);
      for (let round = 0; round < 2; round++) for (let t = 0; t < 60; t++) await store.find('videos', { where: eq('tag', `t${t}`) });
      // 60 pages of 10 rows fit: the second round reads nothing.
      assert.equal(reads(), 60);
      // A page longer than a tenth of the room is never kept.
      await store.find('videos');
      await store.find('videos');
      assert.equal(reads(), 62);
    });
  });
});

describe('sqlite store: remembered pages, bounded in number', () => {
  it('forgets the oldest empty pages too', async () => {
    await withStore(async (store) => {
      const reads = countAllReads(store);
      for (let i = 0; i <= 10_000; i++) await store.find('videos', { where: eq('tag', `none-${i}`) });
      assert.equal(reads(), 10_001);
      // The newest is still remembered; the first was forgotten to make room.
      await store.find('videos', { where: eq('tag', 'none-10000') });
      await store.find('videos', { where: eq('tag', 'none-0') });
      assert.equal(reads(), 10_002);
    });
  });
});

// What is remembered is also bounded by the JSON text it was read from (what it keeps alive is a
// multiple of that): documents and pages each to a budget, the oldest forgotten first.
describe('sqlite store: remembered documents and pages, bounded in bytes', () => {
  const pad = 'x'.repeat(64 * 1024);
  /** The length of a video's stored JSON text, as the cache weighs it. */
  const textLength = (path: string, id: string): number => {
    const db = new Database(path, { readonly: true });
    try {
      return (db.prepare('SELECT length(doc) AS n FROM videos WHERE id = ?').get(Number(id)) as { n: number }).n;
    } finally {
      db.close();
    }
  };
  /** Tags of one width, so that videos differing only by tag have texts of one length. */
  const tag = (i: number) => `t${String(i).padStart(3, '0')}`;

  it('forgets the oldest documents once their text passes the budget', async () => {
    await withStore(async (store, path) => {
      const ids = await store.insertMany('videos', Array.from({ length: 150 }, () => ({ tag: 'big', plays: 0, pad })));
      const fit = Math.floor(MAX_CACHED_DOC_BYTES / textLength(path, ids[0]));
      assert.equal(fit, 127);
      const read = countReads(store, 'SELECT id, doc');
      for (const id of ids) await store.get('videos', id);
      assert.equal(read(), 150);
      // The newest that fit are remembered; the one before them was forgotten.
      for (const id of ids.slice(-fit)) await store.get('videos', id);
      assert.equal(read(), 150);
      await store.get('videos', ids.at(-fit - 1)!);
      assert.equal(read(), 151);
    });
  });

  it('forgets the oldest pages once their rows` text passes the budget', async () => {
    await withStore(async (store, path) => {
      const ids = await store.insertMany('videos', Array.from({ length: 40 }, (_, i) => ({ tag: tag(i), plays: 0, pad })));
      const fit = Math.floor(MAX_CACHED_FIND_BYTES / textLength(path, ids[0]));
      assert.equal(fit, 31);
      const reads = countAllReads(store);
      const page = (i: number) => store.find('videos', { where: eq('tag', tag(i)) });
      for (let i = 0; i < 40; i++) await page(i);
      assert.equal(reads(), 40);
      for (let i = 40 - fit; i < 40; i++) await page(i);
      assert.equal(reads(), 40);
      await page(40 - fit - 1);
      assert.equal(reads(), 41);
    });
  });

  it('never keeps a page or a document heavier than a quarter of its budget', async () => {
    await withStore(async (store) => {
      // Nine rows of 64 KiB: more than a quarter of the pages' 2 MiB.
      await store.insertMany('videos', Array.from({ length: 9 }, () => ({ tag: 'big', plays: 0, pad })));
      const [huge] = await store.insertMany('videos', [{ tag: 'huge', plays: 0, pad: 'x'.repeat(MAX_CACHED_DOC_BYTES / 4) }]);
      const reads = countAllReads(store);
      const read = countReads(store, 'SELECT id, doc');
      for (let turn = 0; turn < 2; turn++) {
        assert.equal((await store.find('videos', { where: eq('tag', 'big') })).total, 9);
        assert.equal((await store.get('videos', huge))?.tag, 'huge');
      }
      assert.equal(reads(), 2);
      assert.equal(read(), 2);
    });
  });

  it('keeps small hot documents while many large pages pass through', async () => {
    await withStore(async (store) => {
      const hot = await store.insertMany('videos', Array.from({ length: 2000 }, (_, i) => ({ tag: 'small', plays: i })));
      await store.insertMany('videos', Array.from({ length: 100 }, (_, i) => ({ tag: tag(i), plays: 0, pad })));
      const read = countReads(store, 'SELECT id, doc');
      const reads = countAllReads(store);
      for (const id of hot) await store.get('videos', id);
      // 6.4 MiB of pages, three times their budget.
      for (let i = 0; i < 100; i++) await store.find('videos', { where: eq('tag', tag(i)) });
      for (const id of hot) await store.get('videos', id);
      assert.equal(read(), 2000, 'every hot document read once');
      await store.find('videos', { where: eq('tag', tag(99)) });
      await store.find('videos', { where: eq('tag', tag(0)) });
      assert.equal(reads(), 101, 'the last page remembered, the first forgotten');
    });
  });
});

// A commit forgets only the pages and totals that may have held a row it changed: one whose own
// condition asks another value of a field the row's old or new document (or the condition it was
// deleted by) shows is kept.
describe('sqlite store: pages kept past commits that cannot have changed them', () => {
  const likes: Schema = { likes: { id: 'auto', fields: { user_id: 'string', video_id: 'string' }, unique: [['user_id', 'video_id']] } };

  async function withLikes(fn: (store: Store) => Promise<void>): Promise<void> {
    const store = await openSqliteStore({ schema: { ...schema, ...likes }, path: join(dir, `db-${++files}.sqlite`) });
    try {
      await store.insertMany('likes', [{ user_id: 'ann', video_id: '1' }, { user_id: 'bo', video_id: '1' }]);
      await fn(store);
    } finally {
      await store.close();
    }
  }
  const ofUser = (store: Store, user: string) => store.find('likes', { where: and(eq('user_id', user), isIn('video_id', ['1', '2'])) });
  const videos = (page: { items: readonly Record<string, unknown>[] }) => page.items.map((l) => l.video_id);

  it("keeps a user's page past another user's like and unlike, and forgets it on their own", async () => {
    await withLikes(async (store) => {
      const ann = await ofUser(store, 'ann');
      const annTotal = await store.count('likes', eq('user_id', 'ann'));
      await store.insert('likes', { user_id: 'bo', video_id: '2' });
      await store.deleteWhere('likes', and(eq('user_id', 'bo'), eq('video_id', '1')));
      assert.equal(await ofUser(store, 'ann'), ann, 'the same page, remembered');
      assert.equal(await store.count('likes', eq('user_id', 'ann')), annTotal);
      assert.deepEqual(videos(await ofUser(store, 'bo')), ['2']);
      await store.insert('likes', { user_id: 'ann', video_id: '2' });
      assert.deepEqual(videos(await ofUser(store, 'ann')), ['1', '2']);
      assert.equal(await store.count('likes', eq('user_id', 'ann')), 2);
      await store.deleteWhere('likes', and(eq('user_id', 'ann'), eq('video_id', '1')));
      assert.deepEqual(videos(await ofUser(store, 'ann')), ['2']);
    });
  });

  it('forgets a page a row moved into or out of, or was deleted from by id', async () => {
    await withLikes(async (store) => {
      await insertTagged(store, 'music', 2);
      const jazz = () => store.find('videos', { where: eq('tag', 'jazz') });
      assert.equal((await jazz()).total, 0);
      const music = await store.find('videos', { where: eq('tag', 'music') });
      await store.update('videos', '1', { tag: 'jazz' });
      assert.deepEqual((await jazz()).items.map((v) => v.id), ['1']);
      assert.deepEqual((await store.find('videos', { where: eq('tag', 'music') })).items.map((v) => v.id), ['2']);
      assert.notEqual(await store.find('videos', { where: eq('tag', 'music') }), music);
      await store.delete('videos', '1');
      assert.equal((await jazz()).total, 0);
      const rock = await store.find('videos', { where: eq('tag', 'rock') });
      await store.insertMany('videos', [{ tag: 'pop', plays: 1 }]);
      assert.equal(await store.find('videos', { where: eq('tag', 'rock') }), rock, 'no rock video was written');
      await store.insertMany('videos', [{ tag: 'rock', plays: 1 }]);
      assert.equal((await store.find('videos', { where: eq('tag', 'rock') })).total, 1);
    });
  });
});

// The generation (Store.generation) is the read snapshot's data_version: what core remembers by it
// (a token's caller, a viewer's rows) is answered again only while no commit has moved it.
describe('sqlite store: generation', () => {
  it('moves with another process`s commit from the next turn, as that commit shows in reads', async () => {
    await withStore(async (store, path) => {
      await store.insert('videos', { tag: 'music', plays: 1 });
      const before = store.generation!();
      commitElsewhere(path, `UPDATE videos SET doc = '{"tag":"music","plays":9}', plays = 9 WHERE id = 1`);
      // This turn's snapshot was taken before the commit: its reads and its generation agree.
      assert.equal(store.generation!(), before);
      assert.equal((await store.get('videos', '1'))?.plays, 1);
      await nextTurn();
      const after = store.generation!();
      assert.notEqual(after, before);
      assert.equal((await store.get('videos', '1'))?.plays, 9);
      await nextTurn();
      assert.equal(store.generation!(), after, 'unchanged while nobody commits');
    });
  });

  it('moves with this store`s commit at once, in the same turn', async () => {
    await withStore(async (store) => {
      const before = store.generation!();
      const write = store.insert('videos', { tag: 'music', plays: 1 });
      assert.equal(store.generation!(), before, 'not before the write commits');
      await write;
      assert.notEqual(store.generation!(), before);
    });
  });

  it('is not offered by an in-memory store, whose reads have no snapshot of their own', async () => {
    const store = await openSqliteStore({ schema, path: ':memory:' });
    try {
      assert.equal(store.generation, undefined);
    } finally {
      await store.close();
    }
  });
});
