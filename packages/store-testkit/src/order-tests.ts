import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, gt, ne, or, type FindOptions, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { ids, seed, testSchema } from './fixtures';

type Case = [label: string, options: FindOptions, expected: string[], total?: number];

/**
 * Sorting and paging on the fixture people. Pinned: ties always fall back to id ascending
 * (numerically for auto ids, as text for text ids); nulls and missing values sort first
 * ascending and last descending; false sorts before true; `text` fields fold ASCII case;
 * `total` ignores offset and limit.
 */
const peopleCases: Case[] = [
  ['no orderBy: id ascending, numerically', {}, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']],
  ['id descending', { orderBy: [{ field: 'id', direction: 'desc' }] }, ['11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1']],
  ['integer asc: null first, ties by id', { orderBy: [{ field: 'age', direction: 'asc' }] }, ['8', '6', '2', '4', '11', '1', '9', '10', '3', '5', '7']],
  ['integer desc: null last, ties still by id asc', { orderBy: [{ field: 'age', direction: 'desc' }] }, ['7', '5', '3', '1', '9', '10', '2', '4', '11', '6', '8']],
  [
    'string asc then integer desc',
    { orderBy: [{ field: 'city', direction: 'asc' }, { field: 'age', direction: 'desc' }] },
    ['7', '3', '5', '9', '2', '11', '6', '1', '10', '4', '8'],
  ],
  [
    'number desc then text asc',
    { orderBy: [{ field: 'score', direction: 'desc' }, { field: 'name', direction: 'asc' }] },
    ['8', '1', '3', '9', '11', '2', '7', '10', '6', '5', '4'],
  ],
  ['text asc folds ASCII case', { orderBy: [{ field: 'name', direction: 'asc' }] }, ['5', '1', '11', '2', '3', '4', '9', '7', '8', '6', '10']],
  ['text desc folds ASCII case', { orderBy: [{ field: 'name', direction: 'desc' }] }, ['10', '6', '8', '7', '9', '4', '3', '2', '11', '1', '5']],
  ['boolean asc: missing, false, true', { orderBy: [{ field: 'active', direction: 'asc' }] }, ['11', '2', '5', '7', '10', '1', '3', '4', '6', '8', '9']],
  ['boolean desc: true, false, missing', { orderBy: [{ field: 'active', direction: 'desc' }] }, ['1', '3', '4', '6', '8', '9', '2', '5', '7', '10', '11']],
  [
    'where + orderBy + offset + limit',
    { where: eq('city', 'Paris'), orderBy: [{ field: 'age', direction: 'desc' }], offset: 1, limit: 2 },
    ['10', '4'],
    4,
  ],
  ['limit only', { limit: 3 }, ['1', '2', '3'], 11],
  ['offset only', { offset: 9 }, ['10', '11'], 11],
  ['limit 0', { limit: 0 }, [], 11],
  ['offset past the end', { offset: 20, limit: 5 }, [], 11],
  ['page across the 9/10 boundary', { where: eq('age', 30), offset: 1, limit: 1 }, ['9'], 3],
  ['no match', { where: eq('city', 'Nowhere'), limit: 5 }, [], 0],
];

const tagCases: Case[] = [
  ['text ids sort as text', {}, ['10', '9', 'audio', 'video']],
  ['ties on text ids by id', { orderBy: [{ field: 'uses', direction: 'desc' }] }, ['audio', 'video', '10', '9']],
];

export function orderTests(driver: StoreTestDriver): void {
  describe('ordering, paging, findOne, count', () => {
    let store: Store;
    before(async () => {
      store = await driver.open(testSchema);
      await seed(store);
    });
    after(() => store.close());

    for (const [collection, cases] of [['people', peopleCases], ['tags', tagCases]] as const) {
      for (const [label, options, expected, total] of cases) {
        it(`${collection}: ${label}`, async () => {
          const result = await store.find(collection, options);
          assert.deepEqual(ids(result), expected);
          assert.equal(result.total, total ?? expected.length);
        });
      }
    }

    it('a find with countTotal false answers the same page, its total the count or offset plus the items', async () => {
      for (const [, options, expected, total] of peopleCases) {
        const result = await store.find('people', { ...options, countTotal: false });
        assert.deepEqual(ids(result), expected);
        assert.ok([total ?? expected.length, (options.offset ?? 0) + expected.length].includes(result.total), `${result.total}`);
      }
    });

    it('find items are whole documents', async () => {
      const { items } = await store.find('people', { where: eq('id', '3') });
      assert.deepEqual(items, [{ id: '3', name: 'Carol King', age: 35, city: null, active: true, score: 4.5 }]);
      assert.deepEqual((await store.find('people', { where: eq('id', '7') })).items, [
        { id: '7', name: "O'Brien", age: 52, active: false, score: 2 },
      ]);
    });

    it('findOne answers the lowest id among the matches, numerically', async () => {
      assert.equal((await store.findOne('people', eq('city', 'Paris')))?.id, '1');
      assert.equal((await store.findOne('people', and(eq('age', 30), ne('id', '1'))))?.id, '9');
      assert.deepEqual(await store.findOne('tags', eq('uses', 1)), { id: '10', label: 'Ten', uses: 1 });
      assert.equal(await store.findOne('people', eq('city', 'Nowhere')), null);
      assert.equal(await store.findOne('people', or()), null);
    });

    it('findOne follows an orderBy, then id', async () => {
      const byAge = [{ field: 'age', direction: 'desc' as const }];
      assert.equal((await store.findOne('people', eq('city', 'Paris'), byAge))?.id, '1');
      assert.equal((await store.findOne('people', eq('city', 'London'), byAge))?.id, '2');
      assert.equal((await store.findOne('people', eq('active', true), [{ field: 'name', direction: 'desc' }]))?.id, '6');
      assert.equal(await store.findOne('people', eq('city', 'Nowhere'), byAge), null);
    });

    it('count with and without a filter', async () => {
      assert.equal(await store.count('people'), 11);
      assert.equal(await store.count('people', gt('age', 30)), 3);
      assert.equal(await store.count('follows'), 5);
      assert.equal(await store.count('tags', eq('uses', 3)), 2);
    });
  });
}
