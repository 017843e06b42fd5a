import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { and, contains, eq, gt, inSelect, isIn, StoreConflictError, type Doc, type Schema, type Store } from '@reelbase/core';
import { openPostgresStore, type PostgresStoreOptions } from '../src/index';
import { compileFind } from '../src/compile-query';
import { ensureSchema } from '../src/pg-schema';
import { freshUrl, notSelected, withClient } from './selection';

// Driver-specific behaviour; the shared contract is checked by the conformance suite (postgres-store.test.ts).

const schema: Schema = {
  users: { id: 'auto', fields: { name: 'text', link: 'string', admin: 'boolean', age: 'integer' }, unique: [['link']] },
  videos: {
    id: 'auto',
    fields: { user_id: 'string', name: 'text', created_time: 'string', plays: 'integer', duration: 'number' },
    indexes: [['user_id', 'created_time'], ['user_id', 'name']],
  },
  likes: { id: 'auto', fields: { user_id: 'string', video_id: 'string' }, unique: [['user_id', 'video_id']] },
};

type Counter = Doc & { n: number };

/** Opens `count` stores on one fresh schema, as that many servers sharing a database would. */
async function withStores<R>(count: number, fn: (stores: Store[], url: string) => Promise<R>, options: Partial<PostgresStoreOptions> = {}, s = schema): Promise<R> {
  const url = await freshUrl();
  const stores: Store[] = [];
  try {
    for (let i = 0; i < count; i++) stores.push(await openPostgresStore({ schema: s, url, ...options }));
    return await fn(stores, url);
  } finally {
    for (const store of stores) await store.close();
  }
}


function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * Two stores' transactions read the same counter, then the second commits an increment while the
 * first still holds its snapshot: the first one's write is a serialization failure.
 */
async function collide(first: Store, second: Store, firstBody: (tx: Store) => Promise<void>): Promise<{ runs: number; outcome: Promise<void> }> {
  const read = gate();
  const committed = gate();
  let runs = 0;
  const outcome = first.transaction(async (tx) => {
    runs++;
    await tx.get('users', '1');
    read.open();
    await committed.promise;
    await firstBody(tx);
  });
  await read.promise;
  await second.transaction(async (tx) => void (await tx.update<Counter>('users', '1', { n: (await tx.get<Counter>('users', '1'))!.n + 1 })));
  committed.open();
  await outcome.catch(() => undefined);
  return { runs, outcome };
}

const bump = async (tx: Store) => void (await tx.update<Counter>('users', '1', { n: (await tx.get<Counter>('users', '1'))!.n + 1 }));

describe('postgres store: several stores on one database', { skip: notSelected }, () => {
  it('runs a transaction again after a serialization failure, on fresh reads, so no update is lost', () =>
    withStores(2, async ([a, b]) => {
      await a.insert('users', { name: 'counter', n: 0 });
      const { runs, outcome } = await collide(a, b, bump);
      await outcome;
      assert.equal(runs, 2);
      assert.equal((await a.get<Counter>('users', '1'))?.n, 2);
    }));

  it('runs it again even when the callback caught the serialization failure', () =>
    withStores(2, async ([a, b]) => {
      await a.insert('users', { name: 'counter', n: 0 });
      const { runs, outcome } = await collide(a, b, (tx) => bump(tx).catch(() => undefined));
      await outcome;
      assert.equal(runs, 2);
      assert.equal((await b.get<Counter>('users', '1'))?.n, 2);
    }));

  it('gives up after transactionAttempts runs with the serialization failure (40001)', () =>
    withStores(
      2,
      async ([a, b]) => {
        await a.insert('users', { name: 'counter', n: 0 });
        const { runs, outcome } = await collide(a, b, bump);
        await assert.rejects(outcome, { code: '40001' });
        assert.equal(runs, 1);
        assert.equal((await a.get<Counter>('users', '1'))?.n, 1);
      },
      { transactionAttempts: 1 },
    ));

  it('keeps a count-then-insert limit across stores (no write skew)', () =>
    withStores(2, async ([a, b]) => {
      const counted = [gate(), gate()];
      const limited = (store: Store, mine: number) =>
        store.transaction(async (tx) => {
          const taken = await tx.count('likes', eq('user_id', '1'));
          counted[mine].open();
          await counted[1 - mine].promise;
          if (taken >= 1) throw new Error('limit reached');
          await tx.insert('likes', { user_id: '1', video_id: String(mine) });
        });
      const outcomes = await Promise.allSettled([limited(a, 0), limited(b, 1)]);
      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
      assert.match(String((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason), /limit reached/);
      assert.equal(await a.count('likes'), 1);
    }));

  it('lands every concurrent increment made through two stores', () =>
    withStores(2, async ([a, b]) => {
      await a.insert('videos', { user_id: '1', plays: 0 });
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).increment('videos', '1', 'plays', 1)));
      assert.equal((await a.get<Doc & { plays: number }>('videos', '1'))?.plays, 20);
      assert.equal(await b.count('videos', eq('plays', 20)), 1);
    }));
});

describe('postgres store: transactions on one connection', { skip: notSelected }, () => {
  it('a unique clash of an update caught inside a transaction leaves the rest of it to commit', () =>
    withStores(1, async ([store]) => {
      await store.transaction(async (tx) => {
        await tx.insert('users', { name: 'a', link: 'a' });
        await tx.insert('users', { name: 'b', link: 'b' });
        await assert.rejects(tx.update('users', '2', { link: 'a' }), (e: unknown) => e instanceof StoreConflictError && e.fields.join() === 'link');
        await tx.insert('users', { name: 'c', link: 'c' });
      });
      assert.deepEqual(
        (await store.find('users')).items.map((u) => u.link),
        ['a', 'b', 'c'],
      );
    }));

  it('a database error the callback catches fails the transaction instead of committing part of it', () =>
    withStores(1, async ([store]) => {
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.insert('users', { name: 'a' });
          // OFFSET beyond bigint: PostgreSQL refuses the statement and the transaction with it.
          await assert.rejects(tx.find('users', { offset: 1e20 }));
          await tx.insert('users', { name: 'b' });
        }),
        /aborted by an earlier database error/,
      );
      assert.equal(await store.count('users'), 0);
    }));

  it('answers within a transaction the ids after one it restored, and sets the sequence only when it commits', () =>
    withStores(1, async ([store]) => {
      await store.transaction(async (tx) => {
        await tx.insertWithId('users', { id: '10', name: 'restored' });
        assert.equal((await tx.insert('users', { name: 'next' })).id, '11');
        assert.equal(await store.sequence('users'), 0, 'outside the transaction nothing changed yet');
      });
      assert.equal(await store.sequence('users'), 11);
      assert.equal((await store.insert('users', { name: 'later' })).id, '12');
    }));

  it('moves an identity that fell behind the rows past them instead of failing an insert', () =>
    withStores(1, async ([store], url) => {
      for (const name of ['a', 'b', 'c']) await store.insert('users', { name });
      await withClient(url, (c) => c.query(`SELECT setval(pg_get_serial_sequence('users', 'id'), 1)`));
      assert.equal((await store.insert('users', { name: 'd' })).id, '4');
      assert.equal(await store.sequence('users'), 4);
    }));

  it('fails instead of hanging when the root store writes from inside its own transaction; its reads see the last commit', () =>
    withStores(1, async ([store]) => {
      await store.insert('users', { name: 'before' });
      await store.transaction(async (tx) => {
        await tx.insert('users', { name: 'inside' });
        assert.equal(await store.count('users'), 1);
        await assert.rejects(store.insert('users', { name: 'root' }), /use the tx/);
        await assert.rejects(store.transaction(async () => undefined), /use the tx/);
      });
      assert.equal(await store.count('users'), 2);
    }));

  it('queues transactions of one store, so fifty concurrent increments land without retries', () =>
    withStores(1, async ([store]) => {
      const v = await store.insert('videos', { user_id: '1', plays: 0 });
      await Promise.all(Array.from({ length: 50 }, () => store.increment('videos', v.id, 'plays', 2)));
      assert.equal((await store.get<Doc & { plays: number }>('videos', v.id))?.plays, 100);
    }, { transactionAttempts: 1 }));
});

describe('postgres store: values and ids', { skip: notSelected }, () => {
  it('keeps U+0000 in documents and finds it the same way in columns', () =>
    withStores(1, async ([store]) => {
      const user = await store.insert('users', { name: 'nul\u0000name', link: 'x\u0000' });
      assert.deepEqual(await store.get('users', user.id), { id: user.id, name: 'nul\u0000name', link: 'x\u0000' });
      assert.equal(await store.count('users', eq('link', 'x\u0000')), 1);
      assert.equal(await store.count('users', contains('name', '\u0000N')), 1);
    }));

  it('answers nothing, never an error, for ids that are not canonical integers, and compares values of another type as unequal', () =>
    withStores(1, async ([store]) => {
      await store.insert('users', { name: 'a', age: 30, admin: true });
      for (const id of ['01', '1.0', 'x', '', '99999999999999999999']) {
        assert.equal(await store.get('users', id), null, id);
        assert.equal(await store.delete('users', id), false, id);
        assert.equal(await store.update('users', id, { name: 'z' }), null, id);
      }
      assert.equal(await store.count('users', isIn('id', ['01', 'x', '1'])), 1);
      assert.equal(await store.count('users', eq('age', 'thirty')), 0);
      assert.equal(await store.count('users', eq('age', '30')), 1);
      assert.equal(await store.count('users', eq('admin', 1)), 0);
      assert.equal(await store.count('users', gt('age', 'x')), 0);
    }));

  it('stores a field holding another JSON type than declared as NULL in a number column and as JSON text in a text one', () =>
    withStores(1, async ([store]) => {
      await store.insert('users', { name: ['a', 'list'], age: 'old', admin: 'yes' });
      assert.deepEqual(await store.get('users', '1'), { id: '1', name: ['a', 'list'], age: 'old', admin: 'yes' });
      assert.equal(await store.count('users', eq('age', null)), 1);
      assert.equal(await store.count('users', eq('name', '["a","list"]')), 1);
    }));

  it('folds Unicode case in contains under the database locale, and ASCII case only in text sorts', () =>
    withStores(1, async ([store]) => {
      for (const name of ['Élan', 'zeta', 'Alpha', 'éclair', 'beta']) await store.insert('users', { name });
      assert.deepEqual((await store.find('users', { where: contains('name', 'éL') })).items.map((u) => u.name), ['Élan']);
      assert.deepEqual(
        (await store.find('users', { orderBy: [{ field: 'name', direction: 'asc' }] })).items.map((u) => u.name),
        ['Alpha', 'beta', 'zeta', 'Élan', 'éclair'],
      );
    }));
});

describe('postgres store: schema', { skip: notSelected }, () => {
  /** Columns, indexes and trigger functions of the schema: what an open may change. */
  const catalog = (client: pg.Client) =>
    client
      .query(
        `SELECT (SELECT json_agg(c ORDER BY c) FROM (SELECT table_name || '.' || column_name || ' ' || data_type AS c FROM information_schema.columns WHERE table_schema = current_schema()) c) AS columns,
                (SELECT json_agg(replace(indexdef, schemaname || '.', '') ORDER BY indexdef) FROM pg_indexes WHERE schemaname = current_schema()) AS indexes`,
      )
      .then((r) => r.rows[0] as { columns: string[]; indexes: string[] });

  it('adds columns for newly declared fields, backfilled from the documents, retypes changed ones, and leaves a matching schema alone', () =>
    withStores(0, async (_, url) => {
      const v1: Schema = { videos: { id: 'auto', fields: { user_id: 'string', plays: 'string' } } };
      const first = await openPostgresStore({ schema: v1, url });
      for (let i = 0; i < 5; i++) await first.insert('videos', { user_id: '1', plays: i * 10, featured: i % 2 === 0, title: `Clip ${i}`, tags: ['a'] });
      await assert.rejects(first.find('videos', { where: gt('duration', 1) }), /duration/);
      await first.close();

      const v2: Schema = {
        videos: { id: 'auto', fields: { user_id: 'string', plays: 'integer', featured: 'boolean', title: 'text', tags: 'string' }, indexes: [['user_id', 'plays']] },
      };
      const second = await openPostgresStore({ schema: v2, url });
      try {
        const ids = async (options: Parameters<Store['find']>[1]) => (await second.find('videos', options)).items.map((v) => v.id);
        assert.deepEqual(await ids({ where: gt('plays', 15), orderBy: [{ field: 'plays', direction: 'desc' }] }), ['5', '4', '3']);
        assert.deepEqual(await ids({ where: eq('featured', true) }), ['1', '3', '5']);
        assert.deepEqual(await ids({ where: contains('title', 'CLIP 3') }), ['4']);
        assert.deepEqual(await ids({ where: eq('tags', '["a"]') }), ['1', '2', '3', '4', '5']);
        assert.equal((await second.insert('videos', { user_id: '2', plays: 100 })).id, '6');
      } finally {
        await second.close();
      }
      const before = await withClient(url, catalog);
      await (await openPostgresStore({ schema: v2, url })).close();
      assert.deepEqual(await withClient(url, catalog), before);
      assert.ok(before.indexes.includes('CREATE INDEX rb_ix_videos__user_id__plays ON videos USING btree (user_id NULLS FIRST, plays NULLS FIRST)'), before.indexes.join('\n'));
    }));

  it('names an index whose name would pass 63 bytes with a hash, and keeps it on reopening', () =>
    withStores(0, async (_, url) => {
      const long: Schema = {
        a_collection_with_a_rather_long_name: {
          id: 'auto',
          fields: { first_field_with_a_long_name: 'string', second_field_with_a_long_name: 'string' },
          indexes: [['first_field_with_a_long_name', 'second_field_with_a_long_name']],
        },
      };
      await (await openPostgresStore({ schema: long, url })).close();
      const before = await withClient(url, catalog);
      const store = await openPostgresStore({ schema: long, url });
      await store.insert('a_collection_with_a_rather_long_name', { first_field_with_a_long_name: 'x' });
      await store.close();
      assert.deepEqual(await withClient(url, catalog), before);
      const names = before.indexes.map((d) => d.split(' ')[2]).filter((n) => n.startsWith('rb_'));
      assert.equal(names.length, 2, before.indexes.join('\n'));
      for (const name of names) assert.match(name, /^rb_ix_a_collection_with_a_rather_long_name__\w+_[0-9a-f]{8}$/), assert.equal(name.length, 63);
    }));

  it('refuses a table whose id kind differs from the schema', () =>
    withStores(0, async (_, url) => {
      await (await openPostgresStore({ schema: { things: { id: 'text', fields: {} } }, url })).close();
      await assert.rejects(openPostgresStore({ schema: { things: { id: 'auto', fields: {} } }, url }), /id/);
    }));

  // With sequential scans priced out, a plan still scanning a table shows that no index fits the query.
  it('has an index for a filter on an indexed field with orderBy, text sorts and semi-joins', () =>
    withStores(1, async ([store], url) => {
      await store.transaction(async (tx) => {
        for (let i = 0; i < 2000; i++) await tx.insert('videos', { user_id: String(i % 40), name: `clip ${i}`, created_time: `t${i}`, plays: i });
        for (let i = 0; i < 500; i++) await tx.insert('likes', { user_id: String(i % 9), video_id: String(i + 1) });
      });
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      const tables = await ensureSchema(pool, schema);
      await withClient(url, async (client) => {
        await client.query('ANALYZE');
        await client.query('SET enable_seqscan = off');
        const plan = async (collection: string, options: Parameters<typeof compileFind>[2]) => {
          const { sql, params } = compileFind(tables, tables.get(collection)!, options);
          return JSON.stringify((await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows[0]);
        };
        const cases: [string, Parameters<typeof compileFind>[2]][] = [
          ['videos', { where: eq('user_id', '3'), orderBy: [{ field: 'created_time', direction: 'desc' }], limit: 25, offset: 0 }],
          ['videos', { where: eq('user_id', '3'), orderBy: [{ field: 'name', direction: 'asc' }], limit: 25, offset: 0 }],
          ['videos', { where: inSelect('id', 'likes', 'video_id', eq('user_id', '2')), limit: 25, offset: 0 }],
          ['likes', { where: and(eq('user_id', '2'), inSelect('video_id', 'videos', 'id', eq('user_id', '2'))), limit: 25, offset: 0 }],
        ];
        for (const [collection, options] of cases) {
          const detail = await plan(collection, options);
          assert.ok(!/"Seq Scan"[^}]*"Relation Name":"(videos|likes)"/.test(detail), detail);
          assert.match(detail, /"Index (Only )?Scan"|"Bitmap Index Scan"/);
        }
      });
      await pool.end();
    }));
});
