import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { and, contains, eq, gt, inSelect, isIn, matches, ne, not, notIn, or, parseSearch, RELEVANCE, schema as coreSchema, SEARCH_WEIGHTS, StoreConflictError, type Schema, type Store } from '@reelbase/core';
import { openSqliteStore, type SqliteStoreOptions } from '../src/index';
import { compileFind } from '../src/compile-query';
import { ORDERED_WALK_ROW_COST, windowBound, windowSize } from '../src/search-walks';
import { describeSchema } from '../src/sqlite-schema';
import { ftsQuery, ftsScore } from '../src/sqlite-search';
import type { SqliteStore } from '../src/sqlite-store';

// Driver-specific behaviour; the shared contract is checked by the conformance suite (sqlite-store.test.ts).

const dir = mkdtempSync(join(tmpdir(), 'reelbase-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `db-${++files}.sqlite`);

const schema: Schema = {
  users: { id: 'auto', fields: { name: 'text', link: 'string', admin: 'boolean', age: 'integer' }, unique: [['link']] },
  videos: {
    id: 'auto',
    fields: { user_id: 'string', name: 'text', created_time: 'string', plays: 'integer', duration: 'number' },
    indexes: [['user_id', 'created_time']],
  },
  likes: { id: 'auto', fields: { user_id: 'string', video_id: 'string' }, unique: [['user_id', 'video_id']] },
  tokens: { id: 'text', fields: { user_id: 'string' } },
};

async function withStore<R>(
  fn: (store: Store, path: string) => Promise<R>,
  path = freshPath(),
  s = schema,
  more: Partial<SqliteStoreOptions> = {},
): Promise<R> {
  const store = await openSqliteStore({ schema: s, path, ...more });
  try {
    return await fn(store, path);
  } finally {
    await store.close();
  }
}

const ids = (docs: { items: { id: string }[] }) => docs.items.map((d) => d.id);

describe('sqlite store: schema', () => {
  it('adds columns for newly declared fields and backfills them from existing documents', async () => {
    const path = freshPath();
    const v1: Schema = { videos: { id: 'auto', fields: { user_id: 'string' } } };
    await withStore(async (store) => {
      for (let i = 0; i < 5; i++) await store.insert('videos', { user_id: '1', plays: i * 10, featured: i % 2 === 0, title: `Clip ${i}` });
      await assert.rejects(store.find('videos', { where: gt('plays', 15) }), /plays/);
    }, path, v1);
    const v2: Schema = {
      videos: { id: 'auto', fields: { user_id: 'string', plays: 'integer', featured: 'boolean', title: 'text' }, indexes: [['user_id', 'plays']] },
    };
    await withStore(async (store) => {
      assert.deepEqual(ids(await store.find('videos', { where: gt('plays', 15), orderBy: [{ field: 'plays', direction: 'desc' }] })), ['5', '4', '3']);
      assert.deepEqual(ids(await store.find('videos', { where: eq('featured', true) })), ['1', '3', '5']);
      assert.equal(await store.count('videos', contains('title', 'CLIP 3')), 1);
      const added = await store.insert('videos', { user_id: '2', plays: 100, featured: false, title: 'new' });
      assert.equal(added.id, '6');
    }, path, v2);
    // Opening again with the same schema changes nothing.
    await withStore(async (store) => assert.equal(await store.count('videos', gt('plays', 15)), 4), path, v2);
  });

  it('retypes a column whose declared type changed, and drops unique keys no longer declared', async () => {
    const path = freshPath();
    const v1: Schema = { items: { id: 'auto', fields: { rank: 'string', code: 'string' }, unique: [['code']] } };
    await withStore(async (store) => {
      for (const rank of [9, 10, 100]) await store.insert('items', { rank, code: 'same' }).catch(() => store.insert('items', { rank, code: `c${rank}` }));
    }, path, v1);
    const v2: Schema = { items: { id: 'auto', fields: { rank: 'integer', code: 'string' } } };
    await withStore(async (store) => {
      // As TEXT "10" < "9"; as INTEGER the order is numeric.
      assert.deepEqual((await store.find('items', { orderBy: [{ field: 'rank', direction: 'asc' }] })).items.map((d) => d.rank), [9, 10, 100]);
      await store.insert('items', { rank: 1, code: 'same' });
      assert.equal(await store.count('items', eq('code', 'same')), 2);
    }, path, v2);
  });

  it('refuses to reopen a table with a different id kind', async () => {
    const path = freshPath();
    await withStore(async () => {}, path, { things: { id: 'auto', fields: {} } });
    await assert.rejects(openSqliteStore({ schema: { things: { id: 'text', fields: {} } }, path }), /id/);
  });

  it('runs file databases in WAL mode with synchronous=FULL (an acknowledged write is durable)', async () => {
    await withStore(async (store, path) => {
      await store.insert('users', { name: 'a' });
      // synchronous is per connection: ask the store's own writer.
      assert.equal((store as SqliteStore).writer.conn.db.pragma('synchronous', { simple: true }), 2);
      const raw = new Database(path, { readonly: true });
      try {
        assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
      } finally {
        raw.close();
      }
    });
  });
});

describe('sqlite store: queries', () => {
  it('treats SQL in values and in contains as plain text', async () => {
    await withStore(async (store, path) => {
      const evil = `x'); DROP TABLE users; --`;
      const u = await store.insert('users', { name: evil, link: `' OR 1=1 --` });
      await store.insert('users', { name: 'plain', link: 'plain' });
      await store.insert('users', { name: '100%_done\\', link: 'pct' });
      assert.deepEqual(ids(await store.find('users', { where: eq('name', evil) })), [u.id]);
      assert.equal(await store.count('users', eq('link', `' OR 1=1 --`)), 1);
      assert.equal(await store.count('users', eq('link', `x' OR '1'='1`)), 0);
      assert.equal(await store.count('users', contains('name', `' OR 1=1 --`)), 0);
      assert.equal(await store.count('users', contains('name', `DROP TABLE`)), 1);
      // LIKE wildcards and the escape character are literal.
      assert.equal(await store.count('users', contains('name', '%')), 1);
      assert.equal(await store.count('users', contains('name', '_')), 1);
      assert.equal(await store.count('users', contains('name', '0%_d')), 1);
      assert.equal(await store.count('users', contains('name', 'e\\')), 1);
      assert.equal(await store.count('users', contains('name', 'p_ain')), 0);
      assert.equal(await store.count('users'), 3);
      const raw = new Database(path, { readonly: true });
      try {
        assert.ok(raw.prepare(`SELECT name FROM sqlite_master WHERE name = 'users'`).get());
      } finally {
        raw.close();
      }
    });
  });

  it('rejects unknown fields and collections, naming them', async () => {
    await withStore(async (store) => {
      await assert.rejects(store.find('users', { where: eq('nope', 1) }), /"nope"/);
      await assert.rejects(store.find('users', { where: and(eq('name', 'a'), not(eq('name; DROP TABLE users', 1))) }), /DROP TABLE/);
      await assert.rejects(store.find('users', { orderBy: [{ field: 'zzz', direction: 'asc' }] }), /"zzz"/);
      await assert.rejects(store.count('users', inSelect('id', 'videos', 'missing')), /"missing"/);
      await assert.rejects(store.count('users', inSelect('id', 'ghosts', 'id')), /"ghosts"/);
      await assert.rejects(store.get('ghosts', '1'), /"ghosts"/);
    });
  });

  it('matches JS semantics for null and missing fields', async () => {
    await withStore(async (store) => {
      await store.insert('users', { name: 'a', age: 30 });
      await store.insert('users', { name: 'b', age: null });
      await store.insert('users', { name: 'c' });
      assert.deepEqual(ids(await store.find('users', { where: ne('age', 30) })), ['2', '3']);
      assert.deepEqual(ids(await store.find('users', { where: not(eq('age', 30)) })), ['2', '3']);
      assert.deepEqual(ids(await store.find('users', { where: not(gt('age', 10)) })), ['2', '3']);
      assert.deepEqual(ids(await store.find('users', { where: eq('age', null) })), ['2', '3']);
      assert.deepEqual(ids(await store.find('users', { where: notIn('age', [31]) })), ['1', '2', '3']);
      assert.deepEqual(ids(await store.find('users', { where: notIn('age', [null]) })), ['1']);
      assert.deepEqual(ids(await store.find('users', { where: isIn('age', [null, 30]) })), ['1', '2', '3']);
      assert.deepEqual(ids(await store.find('users', { where: not(isIn('age', [31])) })), ['1', '2', '3']);
      assert.equal(await store.count('users', isIn('age', [])), 0);
      assert.equal(await store.count('users', notIn('age', [])), 3);
      assert.equal(await store.count('users', { and: [] }), 3);
      assert.equal(await store.count('users', { or: [] }), 0);
      assert.equal(await store.count('users', gt('age', null)), 0);
    });
  });

  it('folds case in contains beyond ASCII', async () => {
    await withStore(async (store) => {
      await store.insert('users', { name: 'ÉMILE Zola' });
      await store.insert('users', { name: 'Ångström' });
      assert.equal(await store.count('users', contains('name', 'émile')), 1);
      assert.equal(await store.count('users', contains('name', 'zOLA')), 1);
      assert.equal(await store.count('users', contains('name', 'åNGSTRÖM')), 1);
    });
  });

  it('semi-joins auto ids with text columns both ways, and large in-lists', async () => {
    await withStore(async (store) => {
      for (let i = 1; i <= 12; i++) await store.insert('videos', { user_id: String(i % 3), plays: i });
      for (const v of ['2', '10', '11']) await store.insert('likes', { user_id: '7', video_id: v });
      const liked = await store.find('videos', { where: inSelect('id', 'likes', 'video_id', eq('user_id', '7')) });
      assert.deepEqual(ids(liked), ['2', '10', '11']);
      const popular = await store.find('likes', { where: inSelect('video_id', 'videos', 'id', gt('plays', 9)) });
      assert.deepEqual(popular.items.map((l) => l.video_id), ['10', '11']);
      const many = Array.from({ length: 1000 }, (_, i) => String(i * 2));
      assert.equal(await store.count('videos', isIn('id', many)), 6);
      assert.equal(await store.count('videos', notIn('id', many)), 6);
      assert.equal(await store.count('videos', isIn('id', ['01', '1.0', 'x', '1'])), 1);
      assert.equal(await store.get('videos', '01'), null);
    });
  });

  it('uses an index for a filter on an indexed field with orderBy', async () => {
    await withStore(async (store, path) => {
      await store.transaction(async (tx) => {
        for (let i = 0; i < 2000; i++) await tx.insert('videos', { user_id: String(i % 40), created_time: `t${i}`, plays: i });
        for (let i = 0; i < 500; i++) await tx.insert('likes', { user_id: String(i % 9), video_id: String(i + 1) });
      });
      const tables = describeSchema(schema);
      const raw = new Database(path, { readonly: true });
      const plan = (collection: string, options: Parameters<typeof compileFind>[2]) => {
        const { sql, params } = compileFind(tables, tables.get(collection)!, options).rows(25, 0);
        const rows = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
        return rows.map((r) => r.detail);
      };
      try {
        for (const detail of [
          plan('videos', { where: eq('user_id', '3'), orderBy: [{ field: 'created_time', direction: 'desc' }] }),
          plan('videos', { where: eq('plays', 3), orderBy: [{ field: 'created_time', direction: 'asc' }] }),
          plan('videos', { where: inSelect('id', 'likes', 'video_id', eq('user_id', '2')) }),
          plan('likes', { where: inSelect('video_id', 'videos', 'id', eq('user_id', '2')) }),
        ]) {
          assert.ok(!detail.some((d) => /^SCAN (videos|likes)\b/.test(d)), detail.join('\n'));
          assert.ok(detail.some((d) => /USING (COVERING )?INDEX|INTEGER PRIMARY KEY/.test(d)), detail.join('\n'));
        }
      } finally {
        raw.close();
      }
    });
  });
});

/** A match looked up by id in an index holding what the statement reads: the schema's led by id, or the search's keys index. */
const ID_LED = /^SEARCH videos USING COVERING INDEX (rb_ix_videos__id__privacy_view__user_id__plays|rbkeys_videos) \(id=\?/;

describe('sqlite store: ranked search reads', () => {
  const order = [
    { field: RELEVANCE, direction: 'desc' as const },
    { field: 'plays', direction: 'desc' as const },
  ];

  it('pages a ranked search by its keys, then reads the page\'s documents', async () => {
    const ranked: Schema = { clips: { id: 'auto', fields: { title: 'text', notes: 'text', privacy: 'string', plays: 'integer' }, search: [['title'], ['notes']] } };
    const where = and(eq('privacy', 'anybody'), matches('harbour'));
    await withStore(
      async (store) => {
        for (const [title, notes, privacy, plays] of [
          ['harbour', '', 'anybody', 1],
          ['quay', 'harbour', 'anybody', 9],
          ['harbour', '', 'anybody', 5],
          ['harbour', '', 'nobody', 7],
          ['quay', '', 'anybody', 8],
        ] as const) {
          await store.insert('clips', { title, notes, privacy, plays });
        }
        const page = await store.find('clips', { where, orderBy: order, limit: 2 });
        assert.deepEqual([ids(page), page.total, page.items[1].plays], [['3', '1'], 3, 1]);
        assert.deepEqual(ids(await store.find('clips', { where, orderBy: order, limit: 2, offset: 2 })), ['2']);
        assert.equal((await store.findOne('clips', where, order))?.id, '3');
      },
      freshPath(),
      ranked,
    );
  });

  it('answers every page of a ranked search as the slice of the whole ranking, whether the best-scored rows fill it or not', async () => {
    const ranked: Schema = { clips: { id: 'auto', fields: { title: 'text', tags: 'text', notes: 'text', privacy: 'string', plays: 'integer' }, search: [['title'], ['tags'], ['notes']] } };
    await withStore(
      async (store) => {
        // 40 clips: the words in titles, tags or notes by turns, some private, plays repeating so ties fall to the id.
        for (let i = 0; i < 40; i++) {
          const where = ['title', 'tags', 'notes'][i % 3];
          const words = i % 5 === 0 ? 'harbour quay' : i % 2 ? 'harbour' : 'quay';
          await store.insert('clips', { title: 'clip', tags: '', notes: '', [where]: words, privacy: i % 7 === 0 ? 'nobody' : 'anybody', plays: i % 4 });
        }
        for (const query of ['harbour', 'harbour quay', 'harbour -quay', 'qua']) {
          const where = and(eq('privacy', 'anybody'), matches(query));
          const whole = ids(await store.find('clips', { where, orderBy: order }));
          assert.ok(whole.length > 5, query);
          for (const limit of [1, 2, 3, 7, 25]) {
            for (let offset = 0; offset <= whole.length; offset += limit) {
              const page = await store.find('clips', { where, orderBy: order, limit, offset });
              assert.deepEqual([ids(page), page.total], [whole.slice(offset, offset + limit), whole.length], `${query} ${limit} ${offset}`);
            }
          }
        }
      },
      freshPath(),
      ranked,
    );
  });

  it("counts and orders a video search's matches from the index led by id, not from each row", async () => {
    const path = freshPath();
    await withStore(async (store) => void (await store.insert('videos', { user_id: '1', name: 'harbour', privacy_view: 'anybody', plays: 1 })), path, coreSchema);
    const tables = describeSchema(coreSchema);
    const where = and(or(eq('user_id', '5'), eq('privacy_view', 'anybody')), matches('harbour'));
    const { rows, count, countParams } = compileFind(tables, tables.get('videos')!, { where, orderBy: order });
    const raw = new Database(path, { readonly: true });
    try {
      // ensureSchema's statistic for the index tells the planner that an id names one row; without it, SQLite reads each match's row.
      const plan = ({ sql, params }: { sql: string; params: unknown[] }) =>
        (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
      const counted = plan({ sql: count, params: countParams });
      assert.ok(counted.some((d) => ID_LED.test(d)), counted.join('\n'));
      // Matches walked in id order (the bounded count's), never sorted.
      assert.ok(!counted.some((d) => d.includes('TEMP B-TREE')), counted.join('\n'));
      const paged = plan(rows(25, 0));
      assert.ok(paged.some((d) => ID_LED.test(d)), paged.join('\n'));
      assert.ok(!paged.some((d) => d.startsWith('SEARCH videos USING INTEGER PRIMARY KEY')), paged.join('\n'));
      assert.ok(paged.includes('SEARCH d USING INTEGER PRIMARY KEY (rowid=?)'), paged.join('\n'));
    } finally {
      raw.close();
    }
  });

  it("counts a bare search's matches in the index alone, and ranks users from the index led by id", async () => {
    const path = freshPath();
    await withStore(async (store) => void (await store.insert('users', { name: 'Harbour Master', followers_total: 3 })), path, coreSchema);
    const tables = describeSchema(coreSchema);
    const users = tables.get('users')!;
    const { rows, count, countParams } = compileFind(tables, users, { where: matches('harbour'), orderBy: [{ field: RELEVANCE, direction: 'desc' }, { field: 'followers_total', direction: 'desc' }] });
    const raw = new Database(path, { readonly: true });
    try {
      const plan = ({ sql, params }: { sql: string; params: unknown[] }) =>
        (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
      // The index holds exactly the table's rows: no row is looked up to count them, and the
      // index gives its matches in id order (the bounded walk's), with no sort.
      const counted = plan({ sql: count, params: countParams });
      assert.ok(counted.includes('SCAN rb_search_users VIRTUAL TABLE INDEX 64:M3'), counted.join('\n'));
      assert.ok(!counted.some((d) => d.startsWith('SEARCH users USING INTEGER PRIMARY KEY') || d.includes('TEMP B-TREE')), counted.join('\n'));
      assert.deepEqual(raw.prepare(count).get(...countParams), { n: 1 });
      const paged = plan(rows(25, 0));
      assert.ok(paged.includes('SEARCH users USING COVERING INDEX rb_ix_users__id__followers_total (id=?)'), paged.join('\n'));
    } finally {
      raw.close();
    }
  });
});

describe('sqlite store: search plans for many matches', () => {
  const plan = (raw: Database.Database, { sql, params }: { sql: string; params: unknown[] }) =>
    (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
  const tables = describeSchema(coreSchema);
  const videos = tables.get('videos')!;
  const order = [
    { field: RELEVANCE, direction: 'desc' as const },
    { field: 'plays', direction: 'desc' as const },
  ];

  /** A store of the core schema holding one video, its index words `harbour` and `harbours`, and a raw connection to it. */
  async function withVideos(fn: (raw: Database.Database) => void): Promise<void> {
    const path = freshPath();
    await withStore(
      async (store) => void (await store.insertMany('videos', [{ user_id: '5', name: 'harbour', privacy_view: 'anybody', plays: 1 }, { user_id: '6', name: 'harbours', plays: 2 }])),
      path,
      coreSchema,
    );
    const raw = new Database(path);
    raw.exec(`CREATE VIRTUAL TABLE temp.rb_vocab_videos USING fts5vocab(main, rb_search_videos, row)`);
    try {
      fn(raw);
    } finally {
      raw.close();
    }
  }
  const words = (raw: Database.Database) => (_t: unknown, word: string, max: number) =>
    (raw.prepare(`SELECT term FROM temp.rb_vocab_videos WHERE term >= ? AND term <= ? LIMIT ?`).all(word, `${word}\u{10ffff}`, max) as { term: string }[]).map((r) => r.term);

  it("reads a search's sort keys by id from the keys index, never each match's row, which a store from before it gains on open", async () => {
    const path = freshPath();
    await withStore(async (store) => void (await store.insertMany('videos', [{ user_id: '5', name: 'harbour', privacy_view: 'anybody', plays: 1 }])), path, coreSchema);
    // A store from before the keys index: neither it nor its statistics.
    const old = new Database(path);
    old.exec(`DROP INDEX rbkeys_videos; DELETE FROM sqlite_stat1 WHERE tbl = 'videos' AND (idx IS NULL OR idx = 'rbkeys_videos')`);
    old.close();
    await withStore(async () => undefined, path, coreSchema);
    const raw = new Database(path, { readonly: true });
    try {
      assert.deepEqual(raw.prepare(`SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'videos' AND (idx IS NULL OR idx = 'rbkeys_videos') ORDER BY idx`).all(), [
        { idx: null, stat: '1048576 sz=4000' },
        { idx: 'rbkeys_videos', stat: '1048576 1 1 1 1 1 1 1 1 1 1 1' },
      ]);
      // Every list order's key, anonymous or with a token (the visibility rule's `or`): the page's documents alone are read from the rows.
      for (const field of ['created_time', 'name', 'modified_time', 'duration', 'likes_total', 'comments_total']) {
        for (const visible of [eq('privacy_view', 'anybody'), or(eq('user_id', '9'), eq('privacy_view', 'anybody'))]) {
          const { rows } = compileFind(tables, videos, { where: and(visible, matches('harbour forest')), orderBy: [{ field, direction: 'desc' }] });
          const paged = plan(raw, rows(25, 0));
          assert.ok(paged.some((d) => d.startsWith('SEARCH videos USING COVERING INDEX rbkeys_videos (id=?')), `${field}\n${paged.join('\n')}`);
          assert.deepEqual(paged.filter((d) => d.includes('INTEGER PRIMARY KEY')), ['SEARCH d USING INTEGER PRIMARY KEY (rowid=?)'], `${field}\n${paged.join('\n')}`);
        }
      }
    } finally {
      raw.close();
    }
  });

  it("scores a video's names and tags from its own text where it is ASCII, as its index words would, and from the index otherwise", async () => {
    const path = freshPath();
    // Names and tags around the word: inside another word, after punctuation and digits, accented, a control character.
    const texts = [
      ['Harbour lights', 'harbours'],
      ['the-harbour2 quay', ''],
      ['Seaharbour', 'harbour_side'],
      ['café harbour', 'night'],
      ['HARBOUR\u0001x', 'x'],
      ["o'harbour 9harbour", 'harb'],
      ['quay', 'Harbour'],
      ['quay', 'sea harbour'],
      ['  harbour', null],
      [null, 'é harbour'],
      ['E-mail from the harbour', 'email'],
    ];
    const docs = texts.map(([name, tag_names], i) => ({ user_id: '1', name, tag_names, description: 'harbour quay night 9 caf', privacy_view: 'anybody', plays: i }));
    await withStore(async (store) => void (await store.insertMany('videos', docs)), path, coreSchema);
    const raw = new Database(path, { readonly: true });
    try {
      // A rowid bound as a number (a double) finds the first match whatever it is: bound as an integer.
      const inIndex = (query: string, id: number) => raw.prepare(`SELECT 1 FROM rb_search_videos WHERE rb_search_videos MATCH ? AND rowid = ?`).get(query, BigInt(id)) !== undefined;
      // Three wanted terms or more (TEXT_TESTED_FROM): the descriptions hold every word typed, so each query matches every row.
      for (const typed of ['harbour quay night', 'harb quay 9', 'night harbour quay -zq', 'caf harbour night', 'harbour "quay" night', 'e-mail harbour quay']) {
        const query = parseSearch(typed);
        const params: string[] = [];
        const score = ftsScore(videos, query, (v) => (params.push(v), '?'), ftsQuery);
        // The names' and tags' text is tested, not looked up (but for the row or term it cannot speak for).
        if (typed === 'harbour quay night') assert.match(score, /lower\(coalesce\("tag_names", ''\)\) GLOB \?/);
        const match = ftsQuery(videos, query);
        const scored = raw.prepare(`SELECT id, ${score} AS score FROM videos WHERE id IN (SELECT rowid FROM rb_search_videos WHERE rb_search_videos MATCH ?) ORDER BY id`).all(...params, match) as { id: number; score: number }[];
        assert.ok(scored.length > 0, typed);
        // The score from the index alone: each wanted term's heaviest tier.
        const expected = scored.map(({ id }) => ({
          id,
          score: query.terms
            .filter((t) => !t.exclude)
            .map((t) => SEARCH_WEIGHTS[[0, 1].find((tier) => inIndex(ftsQuery(videos, { terms: [t] }, { columns: videos.search![tier] }), id)) ?? 2])
            .reduce((a, b) => a + b, 0),
        }));
        assert.deepEqual(scored, expected, typed);
      }
    } finally {
      raw.close();
    }
  });

  it("counts a user's search within that user's matches, its words whole, walking the index in id order to one past the bound", async () => {
    await withVideos((raw) => {
      const where = and(eq('user_id', '5'), or(eq('user_id', '9'), eq('privacy_view', 'anybody')), matches('harbour -zq'));
      const { count, countParams } = compileFind(tables, videos, { where, orderBy: [{ field: 'created_time', direction: 'desc' }], exactTotal: 7 }, words(raw));
      assert.deepEqual(countParams.slice(0, 3), [7, 7, '(({"name" "tag_names" "description"} : (("harbour" OR "harbours"))) NOT ({"name" "tag_names" "description"} : ("zq"*))) AND {"user_id"} : "5"']);
      assert.equal(countParams.at(-1), 8);
      const counted = plan(raw, { sql: count, params: countParams });
      // The index the outer loop (in id order, no sort), each match's row looked up by id in the narrow index.
      const scan = counted.indexOf('SCAN rb_search_videos VIRTUAL TABLE INDEX 64:M4');
      assert.ok(scan >= 0 && ID_LED.test(counted[scan + 1]), counted.join('\n'));
      assert.ok(!counted.some((d) => d.includes('TEMP B-TREE')), counted.join('\n'));
      assert.deepEqual(raw.prepare(count).get(...countParams), { n: 1 });
    });
  });

  it("walks a user's rows in the list's order, looking each one's words up by id, for a page of many matches", async () => {
    await withVideos((raw) => {
      const where = and(eq('user_id', '5'), matches('harbour'));
      const byDate = { where, orderBy: [{ field: 'created_time', direction: 'desc' as const }] };
      // 4,000 matches of a million ids: too few for a walk of every row (from 5,000: windowBound).
      assert.equal(windowBound(25, 1_000_000, ORDERED_WALK_ROW_COST), 5000);
      const [probed, ...rest] = compileFind(tables, videos, byDate, words(raw)).probed!(25, 0, 4000, 1_000_000);
      assert.equal(rest.length, 0);
      assert.match(probed.page(probed.size).sql, /EXISTS \(SELECT 1 FROM "rb_search_videos" WHERE "rb_search_videos" MATCH \? AND rowid = "videos"\.id\)/);
      // The walk bound, the word for the text's cheap test, then the index's query.
      assert.deepEqual(probed.page(probed.size).params, ['5', 500, 'harbour', '{"name" "tag_names" "description"} : (("harbour" OR "harbours"))', 25, 0]);
      // The user's rows in date order from its index, at most 500; only the page's rows are sorted.
      const walked = plan(raw, probed.page(probed.size));
      assert.deepEqual(walked.slice(0, 3), ['CO-ROUTINE p', 'CO-ROUTINE videos', 'SEARCH videos USING INDEX rb_ix_videos__user_id__created_time_desc (user_id=?)'], walked.join('\n'));
      assert.deepEqual(walked.filter((d) => d.includes('TEMP B-TREE')), ['USE TEMP B-TREE FOR ORDER BY'], walked.join('\n'));
      assert.equal(walked.at(-1), 'USE TEMP B-TREE FOR ORDER BY');
      // The walk's own plan, which the store checks before walking: in order, no sort.
      assert.deepEqual(plan(raw, { sql: probed.plan.sql.replace(/^EXPLAIN QUERY PLAN /, ''), params: probed.plan.params }), ['SEARCH videos USING COVERING INDEX rb_ix_videos__user_id__created_time_desc (user_id=?)']);
      assert.equal(compileFind(tables, videos, byDate, words(raw)).probed!(10, 40, 4000, 1_000_000)[0].size, 1000);
      // Ranked, a search is never walked row by row.
      assert.equal(compileFind(tables, videos, { where, orderBy: order }, words(raw)).probed, undefined);
    });
  });

  it("walks every visible row of a common word's search in the list's order from the order's window index, never a sort of every public video", async () => {
    await withVideos((raw) => {
      const where = and(eq('privacy_view', 'anybody'), matches('harbour'));
      // 120,000 matches of a million ids: a window of 417 rows (twice the 208 expected to hold 25).
      const [pinned, window] = compileFind(tables, videos, { where, orderBy: [{ field: 'created_time', direction: 'desc' }] }, words(raw)).probed!(25, 0, 120_000, 1_000_000);
      // Pinned to a value no index orders its rows by: its plan sorts, and the store passes it by.
      assert.ok(plan(raw, { sql: pinned.plan.sql.replace(/^EXPLAIN QUERY PLAN /, ''), params: pinned.plan.params }).includes('USE TEMP B-TREE FOR ORDER BY'));
      assert.deepEqual(window.plan.params, ['anybody', 417]);
      assert.deepEqual(plan(raw, { sql: window.plan.sql.replace(/^EXPLAIN QUERY PLAN /, ''), params: window.plan.params }), ['SCAN videos USING INDEX rbwin_videos__created_time_desc']);
      const { sql, params } = window.page(window.size);
      const found = raw.prepare(sql).all(...params.slice(0, -2), 1, 0) as { id: number }[];
      assert.deepEqual(found.map((r) => r.id), [1]);
      // By name, and by plays from the relevance window's own index; no window below windowBound.
      const byName = compileFind(tables, videos, { where, orderBy: [{ field: 'name', direction: 'asc' }] }, words(raw)).probed!(25, 0, 120_000, 1_000_000);
      assert.deepEqual(plan(raw, { sql: byName[1].plan.sql.replace(/^EXPLAIN QUERY PLAN /, ''), params: byName[1].plan.params }), ['SCAN videos USING INDEX rbwin_videos__name']);
      const byPlays = compileFind(tables, videos, { where, orderBy: [{ field: 'plays', direction: 'desc' }] }, words(raw)).probed!(25, 0, 120_000, 1_000_000);
      assert.deepEqual(plan(raw, { sql: byPlays[1].plan.sql.replace(/^EXPLAIN QUERY PLAN /, ''), params: byPlays[1].plan.params }), ['SCAN videos USING INDEX rbwin_videos']);
      assert.equal(compileFind(tables, videos, { where, orderBy: [{ field: 'plays', direction: 'desc' }] }, words(raw)).probed!(25, 0, 4999, 1_000_000).length, 1);
    });
  });

  it("pages a common word's best matches from a window of the most played videos, read from its own index", async () => {
    await withVideos((raw) => {
      const where = and(or(eq('user_id', '9'), eq('privacy_view', 'anybody')), matches('harbour'));
      const { window } = compileFind(tables, videos, { where, orderBy: order }, words(raw)).rows(25, 0);
      assert.ok(window);
      const paged = plan(raw, window.page(800));
      assert.ok(paged.includes('SCAN videos USING INDEX rbwin_videos'), paged.join('\n'));
      assert.ok(paged.includes('CO-ROUTINE videos'), paged.join('\n'));
      // No other statement orders by the window index's expressions: a list by plays never walks it.
      const byPlays = compileFind(tables, videos, { where: eq('privacy_view', 'anybody'), orderBy: [{ field: 'plays', direction: 'desc' }] }).rows(25, 0);
      assert.ok(!plan(raw, byPlays).some((d) => d.includes('rbwin_videos')));
      // Worth it from matches² ≥ 12 · need · span: 25 rows of a million ids from 17,321 matches, walking twice the rows expected.
      assert.equal(windowBound(25, 1_000_000), 17_321);
      assert.equal(windowSize(25, 1_000_000, 17_320), undefined);
      assert.equal(windowSize(25, 1_000_000, 62_500), 800);
      assert.equal(windowSize(5, 100, 100), 10);
      assert.deepEqual(raw.prepare(window.matches.sql).get(...window.matches.params), { n: 2 });
    });
  });
});

describe('sqlite store: writes and transactions', () => {
  it('inserts 20k documents in one transaction', async () => {
    await withStore(async (store) => {
      await store.transaction(async (tx) => {
        for (let i = 0; i < 20_000; i++) await tx.insert('videos', { user_id: String(i % 100), name: `clip ${i}`, plays: i, tags: ['a'] });
      });
      assert.equal(await store.count('videos'), 20_000);
      assert.equal((await store.find('videos', { where: eq('user_id', '7'), limit: 10 })).total, 200);
    });
  });

  it('maps unique violations, including text ids, to StoreConflictError', async () => {
    await withStore(async (store) => {
      await store.insert('likes', { user_id: '1', video_id: '2' });
      const other = await store.insert('likes', { user_id: '1', video_id: '3' });
      await assert.rejects(store.insert('likes', { user_id: '1', video_id: '2' }), (e: unknown) => {
        assert.ok(e instanceof StoreConflictError);
        assert.deepEqual([e.collection, e.fields], ['likes', ['user_id', 'video_id']]);
        return true;
      });
      await assert.rejects(store.update('likes', other.id, { video_id: '2' }), StoreConflictError);
      await store.insert('tokens', { id: 'abc', user_id: '1' });
      await assert.rejects(store.insert('tokens', { id: 'abc', user_id: '2' }), StoreConflictError);
      // Nulls never clash, as in SQL.
      await store.insert('users', { name: 'a', link: null });
      await store.insert('users', { name: 'b' });
      assert.equal(await store.count('users'), 2);
    });
  });

  it('updates columns with the document, removing undefined keys, and increments', async () => {
    await withStore(async (store) => {
      const v = await store.insert('videos', { user_id: '1', plays: 1, note: 'x' });
      assert.deepEqual(await store.update('videos', v.id, { plays: 5, note: undefined, id: '99' } as never), { id: v.id, user_id: '1', plays: 5 });
      assert.equal(await store.count('videos', eq('plays', 5)), 1);
      await Promise.all(Array.from({ length: 50 }, () => store.increment('videos', v.id, 'plays', 2)));
      assert.equal((await store.get('videos', v.id))?.plays, 105);
      assert.equal(await store.count('videos', eq('plays', 105)), 1);
      assert.equal((await store.increment('videos', v.id, 'views', 1))?.views, 1);
      assert.equal(await store.increment('videos', '404', 'plays', 1), null);
    });
  });

  it('keeps root reads on the last committed state while a file transaction is open', async () => {
    await withStore(async (store) => {
      await store.insert('users', { name: 'before' });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const ready = new Promise<void>((resolve) => (inserted = resolve));
      const tx = store.transaction(async (t) => {
        await t.insert('users', { name: 'inside' });
        assert.equal(await store.count('users'), 1, 'root store inside the callback');
        inserted();
        await gate;
      });
      await ready;
      assert.equal(await store.count('users'), 1, 'root store from another task');
      const write = store.insert('users', { name: 'queued' });
      release();
      await tx;
      await write;
      assert.equal(await store.count('users'), 3);
    });
  });

  it('fails instead of hanging when the root store is used inside its own in-memory transaction', async () => {
    await withStore(
      async (store) => {
        await store.transaction(async (tx) => {
          await tx.insert('users', { name: 'x' });
          await assert.rejects(store.count('users'), /use the tx/);
          await assert.rejects(store.insert('users', { name: 'y' }), /use the tx/);
        });
        assert.equal(await store.count('users'), 1);
      },
      ':memory:',
    );
  });

  it('nests transactions as savepoints', async () => {
    await withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.insert('users', { name: 'outer' });
        await assert.rejects(
          tx.transaction(async (inner) => {
            await inner.insert('users', { name: 'inner' });
            await inner.transaction(async (deepest) => deepest.insert('users', { name: 'deepest' }));
            throw new Error('undo inner');
          }),
          /undo inner/,
        );
        await tx.transaction(async (inner) => inner.insert('users', { name: 'kept' }));
        assert.deepEqual((await tx.find('users')).items.map((u) => u.name), ['outer', 'kept']);
      });
      assert.deepEqual((await store.find('users')).items.map((u) => u.name), ['outer', 'kept']);
      let leaked: Store | undefined;
      await store.transaction(async (tx) => void (leaked = tx));
      await assert.rejects(leaked!.get('users', '1'), /finished/);
    });
  });
});

describe('sqlite store: group commit', () => {
  /** A busy machine may take longer than the default 10 ms from a group's BEGIN to its last write. */
  const oneGroup = { groupCommit: { maxMs: 60_000 } };
  /** Logs the writer's BEGIN, COMMIT and ROLLBACK into `log`; a `failures` entry makes the next COMMIT throw it. */
  function watchWriter(store: Store, log: string[], failures: Error[] = []): void {
    const db = (store as SqliteStore).writer.conn.db;
    const exec = db.exec.bind(db);
    db.exec = (sql: string) => {
      if (/^(BEGIN IMMEDIATE|COMMIT|ROLLBACK)$/.test(sql)) log.push(sql);
      const failure = sql === 'COMMIT' ? failures.shift() : undefined;
      if (failure) throw failure;
      return exec(sql);
    };
  }

  it('commits writes queued together once, and acknowledges each only after that COMMIT', async () => {
    await withStore(async (store) => {
      const log: string[] = [];
      watchWriter(store, log);
      const write = (name: string) =>
        store
          .transaction(async (tx) => {
            log.push(`run ${name}`);
            await tx.insert('users', { name });
            assert.equal(await tx.count('users'), name.charCodeAt(0) - 'a'.charCodeAt(0) + 1, 'a write sees the group before it');
          })
          .then(() => log.push(`acknowledged ${name}`));
      await Promise.all([write('a'), write('b'), store.insert('users', { name: 'c' }).then(() => log.push('acknowledged c')), write('d')]);
      assert.deepEqual(log, ['BEGIN IMMEDIATE', 'run a', 'run b', 'run d', 'COMMIT', 'acknowledged a', 'acknowledged b', 'acknowledged c', 'acknowledged d']);
      assert.equal(await store.count('users'), 4);
    }, undefined, undefined, oneGroup);
  });

  it('fails every write of a group whose COMMIT fails, keeps none of them, and goes on writing', async () => {
    const path = freshPath();
    const lost = new Error('disk I/O error');
    await withStore(async (store) => {
      await store.insert('users', { name: 'kept' });
      const log: string[] = [];
      watchWriter(store, log, [lost]);
      const own = new Error('own failure');
      const settled = await Promise.allSettled([
        store.transaction(async (tx) => tx.insert('users', { name: 'a' })),
        store.insert('users', { name: 'b' }),
        store.transaction(async (tx) => {
          await tx.insert('users', { name: 'c' });
          throw own;
        }),
        store.transaction(async (tx) => tx.update('users', '1', { name: 'renamed' })),
      ]);
      assert.deepEqual(
        settled.map((s) => (s.status === 'rejected' ? s.reason : s.status)),
        [lost, lost, own, lost],
      );
      assert.deepEqual(log, ['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK']);
      assert.deepEqual((await store.find('users')).items.map((u) => u.name), ['kept']);
      await store.insert('users', { name: 'after' });
    }, path, undefined, oneGroup);
    await withStore(async (store) => assert.deepEqual((await store.find('users')).items.map((u) => u.name), ['kept', 'after']), path);
  });
});

describe('sqlite store: building a full-text index on upgrade', () => {
  const plain: Schema = { clips: { id: 'auto', fields: { title: 'text' } } };
  const searched: Schema = { clips: { id: 'auto', fields: { title: 'text' }, search: [['title']] } };
  const found = async (store: Store, query: string) => ids(await store.find('clips', { where: matches(query), orderBy: [{ field: 'id', direction: 'asc' }] }));

  it('builds in batches with progress, resumes where a stopped build left off, and keeps writes made meanwhile', async () => {
    const path = freshPath();
    await withStore((store) => store.insertMany('clips', Array.from({ length: 10 }, (_, i) => ({ title: `harbour ${i + 1}` }))).then(() => undefined), path, plain);

    // The first open stops (as a killed process would) after its second batch of 3 committed.
    const heard: [number, number][] = [];
    const stop = new Error('stopped');
    const stopping = (collection: string, done: number, total: number) => {
      assert.equal(collection, 'clips');
      heard.push([done, total]);
      if (heard.length === 2) throw stop;
    };
    await assert.rejects(openSqliteStore({ schema: searched, path, onSearchBuild: stopping, searchBuildBatch: 3 }), stop);
    assert.deepEqual(heard, [[3, 10], [6, 10]]);

    // Writes by another process meanwhile: the triggers index the built part and leave the rest to the build.
    const db = new Database(path);
    const retitle = db.prepare(`UPDATE clips SET title = ?, doc = json_set(doc, '$.title', ?) WHERE id = ?`);
    for (const [title, id] of [['river 2', 2], ['river 8', 8]] as const) retitle.run(title, title, id);
    db.prepare('DELETE FROM clips WHERE id IN (3, 9)').run();
    db.close();

    // Reopened: rows 1-6 are built (3 since deleted), so 5 of the 8 left, and one batch adds 7, 8 and 10.
    const resumed: [number, number][] = [];
    const store = await openSqliteStore({ schema: searched, path, onSearchBuild: (_, done, total) => resumed.push([done, total]), searchBuildBatch: 3 });
    try {
      assert.deepEqual(resumed, [[8, 8]]);
      assert.deepEqual(await found(store, 'harbour'), ['1', '4', '5', '6', '7', '10']);
      assert.deepEqual(await found(store, 'river'), ['2', '8']);
    } finally {
      await store.close();
    }
    await assert.doesNotReject(async () => {
      const check = new Database(path);
      try {
        check.prepare(`INSERT INTO rb_search_clips(rb_search_clips, rank) VALUES ('integrity-check', 1)`).run();
        // The finished build merged its batches' segments into one (optimizeSearch).
        assert.deepEqual(check.prepare(`SELECT count(DISTINCT segid) AS n FROM rb_search_clips_idx`).get(), { n: 1 });
      } finally {
        check.close();
      }
    });
  });
});
