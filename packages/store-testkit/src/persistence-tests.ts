import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { assertConflict, snapshot, testSchema } from './fixtures';

/** Close and reopen the same location: every committed write survives, rolled-back ones do not. */
export function persistenceTests(driver: StoreTestDriver, reopen: NonNullable<StoreTestDriver['reopen']>): void {
  describe('persistence across reopen', () => {
    it('keeps every committed write, continues ids and drops rolled-back writes', async () => {
      const first = await driver.open(testSchema);
      let expected: Awaited<ReturnType<typeof snapshot>>;
      try {
        for (const name of ['A', 'B', 'C', 'D']) await first.insert('people', { name, age: 20 });
        await first.delete('people', '4');
        await first.update('people', '1', { age: undefined, meta: { nested: [1, { deep: true }] } });
        await first.increment('people', '2', 'age', 5);
        await first.insert('tags', { id: 'x', label: 'X' });
        await first.insert('follows', { user_id: '1', target_id: '2' });
        await first.transaction(async (tx) => {
          assert.equal((await tx.insert('people', { name: 'E' })).id, '5');
          await tx.update('people', '3', { city: 'Paris' });
        });
        await assert.rejects(
          first.transaction(async (tx) => {
            await tx.insert('people', { name: 'rolled back' });
            await tx.update('people', '1', { name: 'rolled back' });
            await tx.delete('people', '2');
            await tx.insert('tags', { id: 'y', label: 'rolled back' });
            throw new Error('rollback');
          }),
          { message: 'rollback' },
        );
        expected = await snapshot(first);
      } finally {
        await first.close();
      }
      assert.deepEqual(expected, {
        people: [
          { id: '1', name: 'A', meta: { nested: [1, { deep: true }] } },
          { id: '2', name: 'B', age: 25 },
          { id: '3', name: 'C', age: 20, city: 'Paris' },
          { id: '5', name: 'E' },
        ],
        follows: [{ id: '1', user_id: '1', target_id: '2' }],
        tags: [{ id: 'x', label: 'X' }],
      });

      const second = await reopen(testSchema);
      try {
        assert.deepEqual(await snapshot(second), expected);
        assert.equal(await second.count('people', eq('name', 'rolled back')), 0);
        const next = await second.insert('people', { name: 'F' });
        assert.ok(['6', '7'].includes(next.id), `ids continue after the last committed one, got ${next.id}`);
        await assertConflict(second.insert('follows', { user_id: '1', target_id: '2' }), 'follows', ['user_id', 'target_id']);
        await assert.rejects(second.insert('tags', { id: 'x', label: 'again' }), { name: 'StoreConflictError' });
      } finally {
        await second.close();
      }
    });

    it('does not reuse the ids of deleted documents after reopening', async () => {
      await closeAfter(await driver.open(testSchema), async (store) => {
        for (const name of ['A', 'B', 'C']) await store.insert('people', { name });
        assert.equal(await store.deleteWhere('people', { and: [] }), 3);
      });
      await closeAfter(await reopen(testSchema), async (store) => {
        assert.equal(await store.count('people'), 0);
        assert.equal((await store.insert('people', { name: 'D' })).id, '4');
        assert.equal((await store.insert('follows', { user_id: '1' })).id, '1');
      });
      await closeAfter(await reopen(testSchema), async (store) => {
        assert.deepEqual(await store.get('people', '4'), { id: '4', name: 'D' });
      });
    });

    it('reopens a store that was closed without any write', async () => {
      await closeAfter(await driver.open(testSchema), async () => {});
      await closeAfter(await reopen(testSchema), async (store) => {
        assert.equal(await store.count('people'), 0);
        assert.equal((await store.insert('people', { name: 'A' })).id, '1');
      });
    });
  });
}

async function closeAfter(store: Store, fn: (store: Store) => Promise<void>): Promise<void> {
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}
