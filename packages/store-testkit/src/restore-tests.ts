import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { assertConflict, ids, snapshot, testSchema, withStore } from './fixtures';

/** insertWithId, sequence and setSequence: what copying a store from one driver to another needs. */
export function restoreTests(driver: StoreTestDriver): void {
  describe('restoring documents with their ids', () => {
    it('insertWithId keeps an auto id, raises the sequence past it, and later inserts continue after it', () =>
      withStore(driver, async (store) => {
        assert.equal(await store.sequence('people'), 0);
        assert.deepEqual(await store.insertWithId('people', { id: '5', name: 'E', age: 50 }), { id: '5', name: 'E', age: 50 });
        assert.deepEqual(await store.get('people', '5'), { id: '5', name: 'E', age: 50 });
        assert.equal(await store.sequence('people'), 5);
        assert.equal((await store.insert('people', { name: 'F' })).id, '6');
        // Filling a gap below the sequence leaves it where it is.
        assert.deepEqual(await store.insertWithId('people', { id: '3', name: 'C' }), { id: '3', name: 'C' });
        assert.equal(await store.sequence('people'), 6);
        assert.equal((await store.insert('people', { name: 'G' })).id, '7');
        assert.deepEqual(ids(await store.find('people')), ['3', '5', '6', '7']);
        assert.equal(await store.sequence('follows'), 0, 'sequences are per collection');
      }));

    it('insertWithId takes text ids as insert does', () =>
      withStore(driver, async (store) => {
        assert.deepEqual(await store.insertWithId('tags', { id: 'rock', label: 'Rock', uses: 2 }), { id: 'rock', label: 'Rock', uses: 2 });
        assert.deepEqual(await store.get('tags', 'rock'), { id: 'rock', label: 'Rock', uses: 2 });
      }));

    it('insertWithId rejects a taken id or unique key with StoreConflictError and keeps the stored document', () =>
      withStore(driver, async (store) => {
        await store.insertWithId('people', { id: '2', name: 'B', email: 'b@x' });
        await store.insertWithId('tags', { id: 'rock', label: 'Rock' });
        await assertConflict(store.insertWithId('people', { id: '2', name: 'other' }), 'people', ['id']);
        await assertConflict(store.insertWithId('people', { id: '3', name: 'other', email: 'b@x' }), 'people', ['email']);
        await assertConflict(store.insertWithId('tags', { id: 'rock', label: 'other' }), 'tags', ['id']);
        assert.deepEqual(await snapshot(store), {
          people: [{ id: '2', name: 'B', email: 'b@x' }],
          follows: [],
          tags: [{ id: 'rock', label: 'Rock' }],
        });
      }));

    it('insertWithId rejects an auto id that is not a canonical positive integer string with a TypeError', () =>
      withStore(driver, async (store) => {
        for (const id of ['0', '07', '-1', '1.5', '1e3', 'x', '', ' 7', 7, undefined]) {
          await assert.rejects(store.insertWithId('people', { id, name: 'bad' } as never), TypeError, `id ${JSON.stringify(id)}`);
        }
        await assert.rejects(store.insertWithId('tags', { id: '', label: 'bad' }), TypeError);
        assert.equal(await store.count('people'), 0);
        assert.equal(await store.count('tags'), 0);
        assert.equal(await store.sequence('people'), 0);
      }));
  });

  describe('sequences', () => {
    it('sequence answers the last auto id handed out, deletes included; text collections have none', () =>
      withStore(driver, async (store) => {
        for (const name of ['A', 'B', 'C']) await store.insert('people', { name });
        await store.delete('people', '3');
        assert.equal(await store.sequence('people'), 3);
        await store.deleteWhere('people', eq('name', 'A'));
        assert.equal(await store.sequence('people'), 3);
        await assert.rejects(store.sequence('tags'), TypeError);
      }));

    it('setSequence sets where the next auto id starts, above or below the current one', () =>
      withStore(driver, async (store) => {
        await store.setSequence('people', 10);
        assert.equal(await store.sequence('people'), 10);
        assert.equal((await store.insert('people', { name: 'A' })).id, '11');
        await store.delete('people', '11');
        // Lower again, as restoring a copy into an emptied store does.
        await store.setSequence('people', 4);
        assert.equal((await store.insert('people', { name: 'B' })).id, '5');
        await store.setSequence('people', 5);
        assert.equal((await store.insert('people', { name: 'C' })).id, '6');
      }));

    it('setSequence refuses a value below a stored id, a negative or fractional one, and text collections', () =>
      withStore(driver, async (store) => {
        for (const name of ['A', 'B', 'C']) await store.insert('people', { name });
        await assert.rejects(store.setSequence('people', 2), RangeError);
        await assert.rejects(store.setSequence('people', -1), RangeError);
        await assert.rejects(store.setSequence('people', 3.5), RangeError);
        await assert.rejects(store.setSequence('tags', 3), TypeError);
        assert.equal(await store.sequence('people'), 3);
        assert.equal((await store.insert('people', { name: 'D' })).id, '4');
      }));

    it('a rolled-back transaction undoes insertWithId and setSequence together', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A' });
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.insertWithId('people', { id: '9', name: 'I' });
            await tx.setSequence('people', 20);
            assert.equal(await tx.sequence('people'), 20);
            throw new Error('rollback');
          }),
          { message: 'rollback' },
        );
        assert.equal(await store.get('people', '9'), null);
        assert.equal(await store.sequence('people'), 1);
        assert.equal((await store.insert('people', { name: 'B' })).id, '2');
      }));

    if (driver.reopen) {
      const reopen = driver.reopen;
      it('a sequence set on an empty collection survives reopening', async () => {
        const first = await driver.open(testSchema);
        try {
          await first.setSequence('people', 20);
          await first.insertWithId('follows', { id: '7', user_id: '1', target_id: '2' });
        } finally {
          await first.close();
        }
        const second = await reopen(testSchema);
        try {
          assert.equal(await second.sequence('people'), 20);
          assert.equal((await second.insert('people', { name: 'A' })).id, '21');
          assert.equal((await second.insert('follows', { user_id: '2', target_id: '1' })).id, '8');
        } finally {
          await second.close();
        }
      });
    }
  });
}
