import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Schema } from '@reelbase/core';
import { openSqliteStore } from '../src/index';

// Root reads share a read transaction per turn of the event loop (read-snapshot.ts).

const dir = mkdtempSync(join(tmpdir(), 'reelbase-sqlite-snapshot-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const schema: Schema = { items: { id: 'auto', fields: { n: 'integer' } } };
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('sqlite root reads', () => {
  it('see every write this process committed, even within one turn', async () => {
    const store = await openSqliteStore({ schema, path: join(dir, 'own.db') });
    try {
      assert.equal(await store.count('items'), 0);
      await store.insert('items', { n: 1 });
      assert.equal(await store.count('items'), 1);
      await store.transaction(async (tx) => void (await tx.insert('items', { n: 2 })));
      assert.deepEqual((await store.find('items')).items.map((d) => d.n), [1, 2]);
      await store.update('items', '1', { n: 10 });
      assert.equal((await store.get('items', '1'))?.n, 10);
    } finally {
      await store.close();
    }
  });

  it("see another connection's commit from the next turn on", async () => {
    const path = join(dir, 'shared.db');
    const reader = await openSqliteStore({ schema, path });
    const writer = await openSqliteStore({ schema, path });
    try {
      assert.equal(await reader.count('items'), 0);
      await writer.insert('items', { n: 1 });
      await nextTurn();
      assert.equal(await reader.count('items'), 1);
      assert.deepEqual((await reader.find('items', { limit: 1 })).items.map((d) => d.n), [1]);
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});
