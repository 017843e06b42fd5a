import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, inSelect, isIn, type Filter, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { seed, testSchema } from './fixtures';

type Case = [label: string, collection: string, field: string, where: Filter | undefined, expected: Record<string, number>, distinct?: string];

/** Store.countBy against the fixtures (fixtures.ts): a page of owners' rows counted in one read. */
const cases: Case[] = [
  ['every row', 'follows', 'user_id', undefined, { 1: 3, 2: 1, 3: 1 }],
  ['another field', 'follows', 'target_id', undefined, { 1: 1, 2: 1, 9: 1, 10: 2 }],
  ['a page of owners, one without rows', 'follows', 'user_id', isIn('user_id', ['1', '3', '99']), { 1: 3, 3: 1 }],
  // What user-connections.ts asks: the owners' rows whose member the viewer may see.
  ['semi-join on the members', 'follows', 'user_id', and(isIn('user_id', ['1', '2', '3']), inSelect('target_id', 'people', 'id', eq('city', 'Paris'))), { 1: 1, 2: 1, 3: 1 }],
  ['null and missing values left out', 'people', 'city', undefined, { Paris: 4, London: 3, Berlin: 2 }],
  ['integer values as strings', 'people', 'age', eq('active', true), { 19: 1, 25: 1, 30: 2, 35: 1 }],
  ['by id', 'people', 'id', isIn('id', ['2', '10']), { 2: 1, 10: 1 }],
  ['nothing matches', 'follows', 'user_id', eq('user_id', '99'), {}],
  // Groups whose rows hold no value of the distinct field count 0 (ages 35 and 52 have no city).
  ['distinct values of another field', 'people', 'age', undefined, { 19: 1, 25: 2, 30: 2, 35: 0, 40: 1, 52: 0 }, 'city'],
];

export function countByTests(driver: StoreTestDriver): void {
  describe('countBy', () => {
    let store: Store;
    before(async () => {
      store = await driver.open(testSchema);
      await seed(store);
    });
    after(() => store.close());

    for (const [label, collection, field, where, expected, distinct] of cases) {
      it(label, async () => {
        assert.deepEqual(Object.fromEntries(await store.countBy(collection, field, where, distinct)), expected);
      });
    }

    it('rejects a field the collection does not declare', async () => {
      await assert.rejects(store.countBy('follows', 'nickname', eq('user_id', '1')), /unknown field "nickname"/);
      await assert.rejects(store.countBy('follows', 'user_id', undefined, 'nickname'), /unknown field "nickname"/);
    });

    // Last, as it commits a row.
    it('counts within a transaction the rows it wrote', async () => {
      const counted = await store.transaction(async (tx) => {
        await tx.insert('follows', { user_id: '3', target_id: '2' });
        return tx.countBy('follows', 'user_id', isIn('user_id', ['3']));
      });
      assert.deepEqual(Object.fromEntries(counted), { 3: 2 });
    });
  });
}
