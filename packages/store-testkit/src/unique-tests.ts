import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { assertConflict, snapshot, withStore } from './fixtures';

const follow = (store: Store, user_id: string, target_id: string) => store.insert('follows', { user_id, target_id });

/** Unique keys: conflicts on insert and update throw StoreConflictError and write nothing. */
export function uniqueTests(driver: StoreTestDriver): void {
  describe('unique keys', () => {
    it('a duplicate composite key on insert throws and writes nothing', () =>
      withStore(driver, async (store) => {
        await follow(store, '1', '2');
        await follow(store, '1', '3');
        await follow(store, '2', '1');
        const before = await snapshot(store);
        await assertConflict(follow(store, '1', '2'), 'follows', ['user_id', 'target_id']);
        assert.deepEqual(await snapshot(store), before);
        const next = await follow(store, '3', '1');
        assert.ok(Number(next.id) > 3, `a new id after the conflict, got ${next.id}`);
      }));

    it('an update into an existing key throws and leaves the document unchanged', () =>
      withStore(driver, async (store) => {
        await follow(store, '1', '2');
        await follow(store, '1', '3');
        const before = await snapshot(store);
        await assertConflict(store.update('follows', '2', { target_id: '2', note: 'x' }), 'follows', ['user_id', 'target_id']);
        assert.deepEqual(await snapshot(store), before);
      }));

    it('updating a document without changing its key, or to a free key, is allowed', () =>
      withStore(driver, async (store) => {
        await follow(store, '1', '2');
        assert.deepEqual(await store.update('follows', '1', { user_id: '1', note: 'same key' }), {
          id: '1',
          user_id: '1',
          target_id: '2',
          note: 'same key',
        });
        await store.update('follows', '1', { target_id: '5' });
        // The old key is free again once no document holds it.
        assert.equal((await follow(store, '1', '2')).id, '2');
        await assertConflict(follow(store, '1', '5'), 'follows', ['user_id', 'target_id']);
      }));

    it('a deleted document frees its key', () =>
      withStore(driver, async (store) => {
        await follow(store, '1', '2');
        await store.delete('follows', '1');
        assert.equal((await follow(store, '1', '2')).id, '2');
        await store.deleteWhere('follows', { and: [] });
        assert.equal((await follow(store, '1', '2')).id, '3');
      }));

    it('a key with a null or missing part is not enforced (SQL semantics)', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A' });
        await store.insert('people', { name: 'B' });
        await store.insert('people', { name: 'C', email: null });
        await store.insert('people', { name: 'D', email: null });
        await store.insert('people', { name: 'E', email: 'e@x.test' });
        await assertConflict(store.insert('people', { name: 'F', email: 'e@x.test' }), 'people', ['email']);
        await assertConflict(store.update('people', '1', { email: 'e@x.test' }), 'people', ['email']);
        await store.update('people', '5', { email: null });
        await store.update('people', '1', { email: 'e@x.test' });
        await store.insert('follows', { user_id: '1' });
        await store.insert('follows', { user_id: '1' });
        assert.equal(await store.count('people'), 5);
        assert.equal(await store.count('follows'), 2);
      }));
  });
}
