import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { withStore } from './fixtures';

/** A turn of the event loop: a driver may hold one read snapshot per turn. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The optional generation (Store.generation): where a driver offers one, it stays while nothing is
 * written and moves with every commit, whatever the write; a transaction's store offers none (its
 * own writes are not committed).
 */
export function generationTests(driver: StoreTestDriver): void {
  describe('generation', () => {
    it('is offered by the root store alone: a transaction store offers none', () =>
      withStore(driver, async (store) => {
        await store.transaction(async (tx) => assert.equal(tx.generation, undefined));
        if (store.generation) assert.equal(typeof store.generation(), 'number');
      }));

    it('stays while nothing is written, and moves with every kind of write and committed transaction', () =>
      withStore(driver, async (store) => {
        const generation = store.generation?.bind(store);
        if (!generation) return assert.equal(store.generation, undefined);
        await store.insert('people', { name: 'A', score: 1 });
        await store.insert('tags', { id: 't', label: 'T' });
        const writes: [string, (s: Store) => Promise<unknown>][] = [
          ['insert', (s) => s.insert('people', { name: 'B' })],
          ['insertMany', (s) => s.insertMany('people', [{ name: 'C' }, { name: 'D' }])],
          ['update', (s) => s.update('people', '1', { age: 3 })],
          ['increment', (s) => s.increment('people', '1', 'score', 1)],
          ['delete', (s) => s.delete('people', '2')],
          ['deleteWhere', (s) => s.deleteWhere('people', eq('name', 'C'))],
          ['insertWithId', (s) => s.insertWithId('tags', { id: 'u', label: 'U' })],
          ['setSequence', (s) => s.setSequence('people', 50)],
          ['transaction', (s) => s.transaction((tx) => tx.update('tags', 't', { label: 'T2' }))],
        ];
        for (const [name, write] of writes) {
          const before = generation();
          await store.get('people', '1');
          await store.find('people', { where: eq('name', 'A') });
          await nextTurn();
          assert.equal(generation(), before, `unchanged before ${name}`);
          await write(store);
          assert.notEqual(generation(), before, `moved by ${name}`);
          await nextTurn();
          assert.notEqual(generation(), before, `still moved after ${name}, a turn later`);
        }
      }));
  });
}
