import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, type Filter, type Store, type SumRow } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { seed, testSchema } from './fixtures';

type Case = [label: string, by: string[], sums: string[], where: Filter | undefined, expected: SumRow[]];

/** Groups in a stable order to compare: drivers answer them in no particular one. */
const sorted = (rows: SumRow[]): SumRow[] => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Store.sumBy against the fixtures (fixtures.ts): what an analytics report asks of its rollups. */
const cases: Case[] = [
  // Person 3 has a null city and 7 none: one null group; person 8's null age adds nothing.
  [
    'one field, the null group kept',
    ['city'],
    ['age', 'score'],
    undefined,
    [
      { city: 'Berlin', age: 70, score: 3.5 },
      { city: 'London', age: 69, score: 6.5 },
      { city: 'Paris', age: 85, score: 16 },
      { city: null, age: 87, score: 6.5 },
    ],
  ],
  [
    'two fields',
    ['city', 'age'],
    ['score'],
    eq('city', 'Paris'),
    [
      { city: 'Paris', age: 25, score: 0 },
      { city: 'Paris', age: 30, score: 6 },
      { city: 'Paris', age: null, score: 10 },
    ],
  ],
  ['no fields: one row of totals', [], ['age'], eq('active', true), [{ age: 139 }]],
  ['no fields and nothing matches: one row of zeros', [], ['age', 'score'], eq('city', 'Rome'), [{ age: 0, score: 0 }]],
  ['grouped and nothing matches: no rows', ['city'], ['age'], eq('city', 'Rome'), []],
];

export function sumByTests(driver: StoreTestDriver): void {
  describe('sumBy', () => {
    let store: Store;
    before(async () => {
      store = await driver.open(testSchema);
      await seed(store);
    });
    after(() => store.close());

    for (const [label, by, sums, where, expected] of cases) {
      it(label, async () => {
        assert.deepEqual(sorted(await store.sumBy('people', by, sums, where)), sorted(expected));
      });
    }

    it('rejects a field the collection does not declare', async () => {
      await assert.rejects(store.sumBy('people', ['nickname'], ['age']), /unknown field "nickname"/);
      await assert.rejects(store.sumBy('people', ['city'], ['height']), /unknown field "height"/);
    });

    it('sums within a transaction the rows it wrote', async () => {
      const rows = await store.transaction(async (tx) => {
        await tx.insert('people', { name: 'New', age: 1, city: 'Rome', email: 'new@example.com' });
        return tx.sumBy('people', ['city'], ['age'], eq('city', 'Rome'));
      });
      assert.deepEqual(rows, [{ city: 'Rome', age: 1 }]);
    });
  });
}
