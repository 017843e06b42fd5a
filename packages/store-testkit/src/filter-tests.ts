import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  and,
  contains,
  eq,
  gt,
  gte,
  inSelect,
  isIn,
  lt,
  lte,
  ne,
  not,
  notIn,
  or,
  where,
  type Filter,
  type Store,
} from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { ids, seed, testSchema } from './fixtures';

type Case = [label: string, filter: Filter, expected: string[]];

const ALL = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'];

/**
 * Every Filter form against the fixture people (see fixtures.ts). Semantics pinned here:
 * a missing field equals null; `eq`/`in` with null match null or missing; `ne`/`nin`/`not` are
 * exact complements (so they match nulls); range operators never match a null on either side;
 * `eq` is case-sensitive while `contains` is case-insensitive and treats every character literally.
 */
const groups: Record<string, Case[]> = {
  eq: [
    ['string', eq('city', 'Paris'), ['1', '4', '8', '10']],
    ['integer', eq('age', 30), ['1', '9', '10']],
    ['number', eq('score', 4.5), ['1', '3', '9']],
    ['boolean true', eq('active', true), ['1', '3', '4', '6', '8', '9']],
    ['boolean false', eq('active', false), ['2', '5', '7', '10']],
    ['null matches null and missing', eq('city', null), ['3', '7']],
    ['null on a number', eq('score', null), ['4']],
    ['null on a boolean', eq('active', null), ['11']],
    ['case-sensitive', eq('name', 'alice martin'), []],
    ['id', eq('id', '10'), ['10']],
  ],
  ne: [
    ['string includes null and missing', ne('city', 'Paris'), ['2', '3', '5', '6', '7', '9', '11']],
    ['null', ne('city', null), ['1', '2', '4', '5', '6', '8', '9', '10', '11']],
    ['boolean', ne('active', true), ['2', '5', '7', '10', '11']],
    ['integer', ne('age', 30), ['2', '3', '4', '5', '6', '7', '8', '11']],
  ],
  range: [
    ['lt integer', lt('age', 30), ['2', '4', '6', '11']],
    ['lte integer', lte('age', 30), ['1', '2', '4', '6', '9', '10', '11']],
    ['gt integer', gt('age', 30), ['3', '5', '7']],
    ['gte integer', gte('age', 35), ['3', '5', '7']],
    ['gt number', gt('score', 3.25), ['1', '3', '8', '9']],
    ['gte number', gte('score', 3.25), ['1', '2', '3', '8', '9', '11']],
    ['lt negative', lt('score', 0), ['5']],
    ['lte zero', lte('score', 0), ['5', '6']],
    ['lt string', lt('city', 'London'), ['5', '9']],
    ['lte string', lte('city', 'Berlin'), ['5', '9']],
    ['gt string', gt('city', 'Berlin'), ['1', '2', '4', '6', '8', '10', '11']],
    ['gte string', gte('city', 'Paris'), ['1', '4', '8', '10']],
    ['string prefix range', and(gte('name', 'M'), lt('name', 'N')), ['9']],
    ['gt boolean', gt('active', false), ['1', '3', '4', '6', '8', '9']],
    ['lt boolean', lt('active', true), ['2', '5', '7', '10']],
    ['lt null matches nothing', lt('age', null), []],
    ['gte null matches nothing', gte('age', null), []],
    ['not lt is the complement, nulls included', not(lt('age', 30)), ['1', '3', '5', '7', '8', '9', '10']],
    // Auto ids compare as numbers, as they sort: paging by `id > last` must not skip "10" after "9".
    ['gt auto id', gt('id', '9'), ['10', '11']],
    ['lte auto id', lte('id', '2'), ['1', '2']],
    ['auto id window', and(gte('id', '9'), lt('id', '11')), ['9', '10']],
  ],
  'in / nin': [
    ['in strings', isIn('city', ['Paris', 'Berlin']), ['1', '4', '5', '8', '9', '10']],
    ['in empty list', isIn('city', []), []],
    ['nin empty list', notIn('city', []), ALL],
    ['nin includes null and missing', notIn('city', ['Paris', 'London']), ['3', '5', '7', '9']],
    ['in with null', isIn('city', ['Berlin', null]), ['3', '5', '7', '9']],
    ['nin with null', notIn('city', ['Paris', null]), ['2', '5', '6', '9', '11']],
    ['in integers', isIn('age', [19, 52]), ['6', '7']],
    ['in booleans', isIn('active', [false]), ['2', '5', '7', '10']],
    ['in ids', isIn('id', ['2', '10', '99']), ['2', '10']],
  ],
  contains: [
    ['lower-case needle', contains('name', 'martin'), ['1', '4', '9']],
    ['upper-case needle', contains('name', 'MARTIN'), ['1', '4', '9']],
    ['% is literal', contains('name', '%'), ['5']],
    ['% inside a needle', contains('name', '0% p'), ['5']],
    ['% is not a wildcard', contains('name', 'a%e'), []],
    ['_ is literal', contains('name', '_'), ['6']],
    ['_ inside a needle', contains('name', 'e_c'), ['6']],
    ['_ is not a wildcard', contains('name', 'b_b'), []],
    ['apostrophe', contains('name', "o'b"), ['7']],
    ['double quotes', contains('name', '"hi"'), ['8']],
    ['backslash', contains('name', '\\'), ['11']],
    ['empty needle matches every present value', contains('name', ''), ALL],
    ['no match', contains('name', 'zzz'), []],
  ],
  inSelect: [
    ['with where', inSelect('id', 'follows', 'target_id', eq('user_id', '1')), ['2', '9', '10']],
    ['without where', inSelect('id', 'follows', 'target_id'), ['1', '2', '9', '10']],
    ['other field', inSelect('id', 'follows', 'user_id', eq('target_id', '10')), ['1', '3']],
    ['where matching nothing', inSelect('id', 'follows', 'target_id', eq('user_id', '99')), []],
    ['combined with and', and(inSelect('id', 'follows', 'target_id', eq('user_id', '1')), eq('active', false)), ['2', '10']],
    ['negated', not(inSelect('id', 'follows', 'target_id')), ['3', '4', '5', '6', '7', '8', '11']],
    [
      'nested semi-join',
      inSelect('id', 'follows', 'target_id', inSelect('user_id', 'people', 'id', eq('city', 'Paris'))),
      ['2', '9', '10'],
    ],
    ['same collection, selected values include null', inSelect('city', 'people', 'city', eq('active', false)), ['1', '2', '4', '5', '6', '8', '9', '10', '11']],
    ['negated when selected values include null', not(inSelect('city', 'people', 'city', eq('active', false))), ['3', '7']],
  ],
  'and / or / not': [
    ['empty and matches everything', and(), ALL],
    ['empty or matches nothing', or(), []],
    ['not of empty and', not(and()), []],
    ['not of empty or', not(or()), ALL],
    ['and', and(eq('city', 'Paris'), gt('age', 25)), ['1', '10']],
    ['or', or(eq('city', 'Berlin'), lt('age', 20)), ['5', '6', '9']],
    ['and of or and not', and(or(eq('city', 'London'), eq('city', 'Berlin')), not(eq('active', true))), ['2', '5', '11']],
    ['not of or', not(or(eq('city', 'Paris'), eq('city', null))), ['2', '5', '6', '9', '11']],
    [
      'or of ands',
      or(and(eq('active', true), gte('score', 4.5)), and(eq('active', false), lt('score', 2))),
      ['1', '3', '5', '8', '9', '10'],
    ],
    ['double negation', not(not(eq('city', 'Berlin'))), ['5', '9']],
    ['where() builder', where({ city: 'Paris', active: true }), ['1', '4', '8']],
  ],
};

export function filterTests(driver: StoreTestDriver): void {
  describe('filters', () => {
    let store: Store;
    before(async () => {
      store = await driver.open(testSchema);
      await seed(store);
    });
    after(() => store.close());

    for (const [group, cases] of Object.entries(groups)) {
      describe(group, () => {
        for (const [label, filter, expected] of cases) {
          it(label, async () => {
            assert.deepEqual(ids(await store.find('people', { where: filter })), expected);
            assert.equal(await store.count('people', filter), expected.length);
          });
        }
      });
    }
  });
}
