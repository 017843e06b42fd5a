import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { schema, type RateQuota, type Store } from '@reelbase/core';
import { openPostgresStore } from '../src/index';
import { RATE_TABLE } from '../src/pg-rate-limiter';
import { freshUrl, notSelected } from './selection';

// The request limiter PostgreSQL stores share (Store.sharedRateLimiter): one allowance per caller across every process on the database.

const limit = { max: 20, windowSeconds: 60 };
const at = (iso: string) => new Date(iso);

async function rows(url: string): Promise<{ key: string; window_number: string; count: number }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(`SELECT key, window_number, count FROM ${RATE_TABLE} ORDER BY window_number, key`)).rows;
  } finally {
    await client.end();
  }
}

describe('the shared rate limiter of PostgreSQL stores', { skip: notSelected ?? false }, () => {
  it('counts one allowance across two stores on one database: concurrent takes get every count once, the first 20 allowed', async () => {
    const url = await freshUrl();
    const stores: Store[] = [await openPostgresStore({ schema, url }), await openPostgresStore({ schema, url })];
    try {
      const limiters = stores.map((s) => s.sharedRateLimiter!(limit));
      const now = at('2026-01-02T03:04:05Z');
      const quotas: RateQuota[] = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 2].take('token:a', now)));
      const reset = at('2026-01-02T03:05:00Z');
      assert.deepEqual(
        quotas.filter((q) => q.allowed).map((q) => q.remaining).sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i),
      );
      assert.equal(quotas.filter((q) => !q.allowed).length, 10);
      for (const q of quotas) {
        assert.deepEqual([q.limit, q.reset], [20, reset]);
        if (!q.allowed) assert.equal(q.remaining, 0);
      }
      assert.deepEqual(await limiters[0].take('token:b', now), { limit: 20, remaining: 19, reset, allowed: true });
      assert.deepEqual(await rows(url), [
        { key: 'token:a', window_number: String(Math.floor(now.getTime() / 60_000)), count: 30 },
        { key: 'token:b', window_number: String(Math.floor(now.getTime() / 60_000)), count: 1 },
      ]);
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it('starts every key afresh in the next window and deletes the windows that ended', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore({ schema, url });
    try {
      const limiter = store.sharedRateLimiter!(limit);
      await limiter.take('token:a', at('2026-01-02T03:04:05Z'));
      await limiter.take('token:b', at('2026-01-02T03:04:59Z'));
      assert.deepEqual(await limiter.take('token:a', at('2026-01-02T03:05:00Z')), { limit: 20, remaining: 19, reset: at('2026-01-02T03:06:00Z'), allowed: true });
      assert.deepEqual(await rows(url), [{ key: 'token:a', window_number: String(Date.parse('2026-01-02T03:05:00Z') / 60_000), count: 1 }]);
    } finally {
      await store.close();
    }
  });

  it('has its table made when the store opens (with the collections, under the schema lock), not by the first request', async () => {
    const url = await freshUrl();
    const store = await openPostgresStore({ schema, url });
    try {
      assert.deepEqual(await rows(url), []);
    } finally {
      await store.close();
    }
  });
});
