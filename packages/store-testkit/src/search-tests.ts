import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { and, eq, foldText, matches, RELEVANCE, type Doc, type FindOptions, type OrderBy, type Schema, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';

/** A searchable collection: title weighs most, then labels, then body; searches are often one owner's, and relevance ties go to plays. */
export const searchSchema: Schema = {
  clips: {
    id: 'auto',
    fields: { title: 'text', labels: 'text', body: 'text', owner: 'string', plays: 'integer' },
    search: [['title'], ['labels'], ['body']],
    searchKeys: ['owner'],
    searchTies: 'plays',
  },
};

const clips = [
  { title: 'Café au lait', labels: 'drinks', body: 'Morning in Paris', owner: 'a', plays: 5 },
  { title: 'The red car', labels: 'cars', body: 'A fast drive', owner: 'a', plays: 9 },
  { title: 'Car, red and blue', labels: 'paint', body: 'Colours', owner: 'b', plays: 1 },
  { title: 'Documentary night', labels: 'film', body: 'About cafes', owner: 'b', plays: 3 },
  { title: 'Sunset', labels: 'documentary', body: 'Beach walk', owner: 'a', plays: 7 },
  { title: 'Harbour', labels: 'boats', body: 'A documentary on fishing', owner: 'b', plays: 2 },
  { title: 'ÉCOLE', labels: 'school', body: 'Crème brûlée recipe', owner: 'a', plays: 4 },
];

const ids = (docs: readonly Doc[]) => docs.map((d) => d.id).sort((a, b) => Number(a) - Number(b));

/**
 * Full-text `match` and RELEVANCE (core's search.ts): the same answers from every driver's index,
 * kept in step with each write and rolled back with its transaction.
 */
export function searchTests(driver: StoreTestDriver): void {
  describe('search', () => {
    let store: Store;
    beforeEach(async () => {
      store = await driver.open(searchSchema);
      await store.insertMany('clips', clips);
    });
    afterEach(() => store.close());

    const found = async (query: string) => ids((await store.find('clips', { where: matches(query) })).items);
    // What a search whose words find nothing finds: names near them where the driver has near matches (docs/search.md "Typos"), else nothing.
    const near = (expected: string[]) => (driver.nearMatches ? expected : []);

    const cases: [string, string, string[]][] = [
      ['folds case and accents, in documents', 'cafe', ['1', '4']],
      ['folds case and accents, in queries', 'ÉCOLE', ['7']],
      ['folds accents typed into a query', 'creme brulee', ['7']],
      ['matches a word by its beginning', 'docu', ['4', '5', '6']],
      ['needs every word', 'red car', ['2', '3']],
      ['matches a quoted phrase in order', '"red car"', ['2']],
      ['keeps a phrase within one field: a title and its labels', '"sunset documentary"', []],
      ['keeps a phrase within one field: labels and the body', '"film about"', []],
      ['a quoted word is whole', '"cafe"', ['1']],
      ['excludes a -word', 'car -blue', ['2']],
      ['excludes a -"phrase"', 'car -"red and"', ['2']],
      ['a query of exclusions alone matches nothing', '-car', []],
      ['punctuation alone matches nothing', '!!! ,,', []],
      ['matches nothing for an unknown word', 'zebra', []],
      ['searches every tier', 'paint', ['3']],
      ['stems a plural to the word', 'documentaries', ['4', '5', '6']],
      ['stems a verb form to the word', 'drinking', ['1']],
      ['stems a form to the word another form of it begins', 'fished', ['6']],
      ['never stems a quoted word', '"documentaries"', []],
    ];
    for (const [label, query, expected] of cases) it(`${label}: ${JSON.stringify(query)}`, async () => assert.deepEqual(await found(query), expected));

    it('ranks a query that can match nothing (exclusions or punctuation alone) as an empty page, not an error', async () => {
      for (const query of ['-car', '-1', '!!!']) {
        const result = await store.find('clips', { where: matches(query), orderBy: [{ field: RELEVANCE, direction: 'desc' }], limit: 5 });
        assert.deepEqual(result, { items: [], total: 0 }, query);
      }
    });

    it('never matches a typed word to a search key: "b" finds words beginning b, not owner b', async () => {
      assert.deepEqual(await found('b'), ['3', '5', '6', '7']);
      assert.deepEqual(ids((await store.find('clips', { where: and(eq('owner', 'b'), matches('b')) })).items), ['3', '6']);
    });

    it('counts a search exactly up to exactTotal, past it more than that, and any other find exactly', async () => {
      assert.equal((await store.find('clips', { where: matches('doc'), limit: 1, exactTotal: 3 })).total, 3);
      assert.ok((await store.find('clips', { where: matches('doc'), limit: 1, exactTotal: 2 })).total > 2);
      assert.equal((await store.find('clips', { where: and(eq('owner', 'b'), matches('doc')), limit: 1, exactTotal: 2 })).total, 2);
      assert.equal((await store.find('clips', { where: eq('owner', 'a'), limit: 1, exactTotal: 2 })).total, 4);
      assert.equal(await store.count('clips', matches('doc')), 3);
    });

    it('combines with other conditions, and counts only what both hold', async () => {
      const result = await store.find('clips', { where: and(matches('documentary'), eq('owner', 'b')), limit: 1 });
      assert.equal(result.total, 2);
      assert.equal(await store.count('clips', and(matches('documentary'), eq('owner', 'b'))), 2);
    });

    it('ranks by tier: a title match before a label match before a body match', async () => {
      const { items, total } = await store.find('clips', { where: matches('documentary'), orderBy: [{ field: RELEVANCE, direction: 'desc' }] });
      assert.deepEqual(
        items.map((d) => d.id),
        ['4', '5', '6'],
      );
      assert.equal(total, 3);
      const reversed = await store.find('clips', { where: matches('documentary'), orderBy: [{ field: RELEVANCE, direction: 'asc' }] });
      assert.deepEqual(
        reversed.items.map((d) => d.id),
        ['6', '5', '4'],
      );
    });

    it('pages a ranked list, and findOne answers its first', async () => {
      const orderBy = [{ field: RELEVANCE, direction: 'desc' as const }];
      const page = await store.find('clips', { where: and(eq('owner', 'b'), matches('doc')), orderBy, offset: 1, limit: 1 });
      assert.deepEqual(
        page.items.map((d) => d.id),
        ['6'],
      );
      assert.equal(page.total, 2);
      assert.equal((await store.findOne('clips', matches('doc'), orderBy))?.id, '4');
    });

    it('scores by tier only, so equal tiers fall to the next sort key', async () => {
      // "car" is in both titles: the same score whatever else the titles hold; plays then decide.
      const { items } = await store.find('clips', { where: matches('car'), orderBy: [{ field: RELEVANCE, direction: 'desc' }, { field: 'plays', direction: 'asc' }] });
      assert.deepEqual(
        items.map((d) => d.id),
        ['3', '2'],
      );
    });

    it('ranks after another sort key as a tie-break', async () => {
      const { items } = await store.find('clips', { where: matches('car'), orderBy: [{ field: 'owner', direction: 'asc' }, { field: RELEVANCE, direction: 'desc' }] });
      assert.deepEqual(
        items.map((d) => d.id),
        ['2', '3'],
      );
    });

    it('finds a document by its new words after an update, and not by its old ones', async () => {
      await store.update('clips', '5', { title: 'Moonrise' });
      assert.deepEqual(await found('sunset'), []);
      assert.deepEqual(await found('moon'), ['5']);
      await store.update('clips', '5', { plays: 100 });
      assert.deepEqual(await found('moon'), ['5']);
    });

    it('forgets a deleted document', async () => {
      await store.delete('clips', '1');
      assert.deepEqual(await found('cafe'), ['4']);
      await store.deleteWhere('clips', eq('owner', 'b'));
      // No word begins with "caf" now; "The red car" is near it.
      assert.deepEqual(await found('cafe'), near(['2']));
    });

    it('indexes within the transaction and forgets what a rollback undoes', async () => {
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.insert('clips', { title: 'Volcano', labels: '', body: '', owner: 'a', plays: 0 });
          await tx.update('clips', '2', { title: 'Blue bicycle' });
          assert.deepEqual(ids((await tx.find('clips', { where: matches('volcano') })).items), ['8']);
          throw new Error('undo');
        }),
        /undo/,
      );
      assert.deepEqual(await found('volcano'), []);
      assert.deepEqual(await found('bicycle'), []);
      assert.deepEqual(await found('"red car"'), ['2']);
    });

    describe('a search that finds nothing', () => {
      const relevance = [{ field: RELEVANCE, direction: 'desc' as const }];
      const nearCases: [string, string, string[]][] = [
        ['a misspelt word finds the name near it', 'documentery', near(['4'])],
        ['a word spelt another way finds the name', 'harbor', near(['6'])],
        ['every bare word must be near the names', 'documentery harbor', []],
        ['a word found as written stays as written, in any field', 'cafes documentery', near(['4'])],
        ['only names are near: a word near a body finds nothing', 'fishng', []],
        ['exclusions still exclude', 'documentery -film', []],
        ['exclusions exclude only what they name', 'documentery -beach', near(['4'])],
        ['a phrase still matches as written', '"night" documentery', near(['4'])],
        ['a phrase found nowhere still finds nothing', '"day" documentery', []],
        ['a quoted word is never near', '"documentery"', []],
      ];
      for (const [label, query, expected] of nearCases) it(`${label}: ${JSON.stringify(query)}`, async () => assert.deepEqual(await found(query), expected));

      it('counts near matches as it finds them, under the other conditions, in find, count and findOne', async () => {
        for (const [owner, expected] of [['b', near(['4'])], ['a', []]] as const) {
          const where = and(matches('documentery'), eq('owner', owner));
          const result = await store.find('clips', { where, orderBy: relevance, limit: 5 });
          assert.deepEqual(ids(result.items), expected, owner);
          assert.equal(result.total, expected.length, owner);
          assert.equal(await store.count('clips', where), expected.length, owner);
          assert.equal((await store.findOne('clips', where, relevance))?.id, expected[0], owner);
        }
        const pastTheEnd = await store.find('clips', { where: matches('documentery'), offset: 3, limit: 2 });
        assert.deepEqual(pastTheEnd, { items: [], total: near(['4']).length });
        await store.transaction(async (tx) => assert.deepEqual(ids((await tx.find('clips', { where: matches('documentery') })).items), near(['4'])));
      });

      it('ranks near matches by nearness, keeps them a filter under another sort, and never mixes them into words found as written', async () => {
        await store.insert('clips', { title: 'Harbor lights', labels: '', body: '', owner: 'a', plays: 1 });
        const order = async (query: string, orderBy: OrderBy[]) => (await store.find('clips', { where: matches(query), orderBy })).items.map((d) => d.id);
        // "harboux" is nearer "Harbour" (6) than "Harbor lights" (8).
        assert.deepEqual(await order('harboux', relevance), near(['6', '8']));
        assert.deepEqual(await order('harboux', [{ field: RELEVANCE, direction: 'asc' }]), near(['8', '6']));
        assert.deepEqual(await order('harboux', [{ field: 'plays', direction: 'desc' }]), near(['6', '8']));
        // "Harbor lights" is near "harbour", and "Harbour" near "harbor", but each word is found as written.
        assert.deepEqual(await found('harbour'), ['6']);
        assert.deepEqual(await found('harbor'), ['8']);
      });
    });

    describe('many matches', () => {
      // Enough rows that the SQLite driver pages a common word's best matches from the most
      // played rows and walks one owner's rows probing each (docs/search.md): every driver must
      // answer what ordering every match answers.
      // Some text holds more than ASCII ("Hârbour", found as harbour) or a line break.
      const many = Array.from({ length: 400 }, (_, i) => ({
        title: i % 4 ? `${i % 50 === 1 ? 'Hârbour' : 'Harbour'} ${i}` : `Quay ${i}`,
        labels: i % 5 ? 'boats' : 'harbours',
        body: i % 7 ? 'calm\nwater' : `anchor${i % 40} harbour`,
        owner: i % 2 ? 'a' : 'b',
        plays: (i * 7919) % 101,
      }));
      let first = 0;
      beforeEach(async () => {
        first = Number((await store.insertMany('clips', many))[0]);
      });
      const relevance = [{ field: RELEVANCE, direction: 'desc' as const }, { field: 'plays', direction: 'desc' as const }];
      const byPlays = [{ field: 'plays', direction: 'desc' as const }];
      type Clip = (typeof many)[number];
      /** The ids of the clips (the first seven and `many`) `test` holds, in `score` then plays then id order. */
      const expected = (test: (c: Clip) => boolean, score: (c: Clip) => number = () => 0) =>
        [...clips.map((c, i) => ({ c, id: i + 1 })), ...many.map((c, i) => ({ c, id: first + i }))]
          .filter(({ c }) => test(c))
          .sort((x, y) => score(y.c) - score(x.c) || y.c.plays - x.c.plays || x.id - y.id)
          .map(({ id }) => String(id));
      const harbour = (c: Clip) => foldText(`${c.title} ${c.labels} ${c.body}`).includes('harbour');
      const tier = (c: Clip) => (foldText(c.title).includes('harbour') ? 10 : c.labels.includes('harbour') ? 4 : 1);
      const page = async (options: FindOptions, limit: number, offset: number) => (await store.find('clips', { ...options, limit, offset })).items.map((d) => d.id);

      it('pages a common word by relevance as from every match', async () => {
        const all = expected(harbour, tier);
        for (const [limit, offset] of [[5, 0], [5, 5], [10, 290], [25, 300], [3, 1]]) {
          assert.deepEqual(await page({ where: matches('harbour'), orderBy: relevance }, limit, offset), all.slice(offset, offset + limit), `${limit} from ${offset}`);
        }
        assert.deepEqual(await page({ where: matches('harbour -quay'), orderBy: relevance }, 5, 0), all.slice(0, 5));
        assert.deepEqual(await page({ where: and(matches('harbour'), eq('plays', 100)), orderBy: relevance }, 5, 0), expected((c) => harbour(c) && c.plays === 100, tier).slice(0, 5));
      });

      it("pages one owner's matches in another order as from every match, counted exactly up to exactTotal", async () => {
        const mine = expected((c) => harbour(c) && c.owner === 'a');
        const where = and(eq('owner', 'a'), matches('harbour'));
        for (const [limit, offset] of [[5, 0], [7, 3], [25, 140]]) {
          const result = await store.find('clips', { where, orderBy: byPlays, limit, offset, exactTotal: 10 });
          assert.deepEqual(result.items.map((d) => d.id), mine.slice(offset, offset + limit), `${limit} from ${offset}`);
          assert.ok(result.total > 10);
        }
        assert.equal((await store.find('clips', { where, orderBy: byPlays, limit: 5 })).total, mine.length);
      });

      it('finds a word beginning many others as a prefix all the same', async () => {
        // "anchor" begins forty words here, more than the SQLite driver looks up whole.
        const anchored = expected((c) => c.body.startsWith('anchor'));
        assert.deepEqual(await page({ where: matches('anchor'), orderBy: byPlays }, 100, 0), anchored);
        assert.deepEqual(await page({ where: and(eq('owner', 'b'), matches('anchor')), orderBy: byPlays, exactTotal: 5 }, 100, 0), expected((c) => c.body.startsWith('anchor') && c.owner === 'b'));
      });
    });

    const { reopen } = driver;
    if (reopen) it('finds what a store held before it was searchable, once reopened with search declared (an upgrade)', async () => {
      await store.close();
      const { search: _search, searchKeys: _keys, searchTies: _ties, ...plain } = searchSchema.clips;
      const before = await driver.open({ clips: plain });
      await before.insertMany('clips', clips);
      await before.close();
      store = await reopen(searchSchema);
      assert.deepEqual(await found('cafe'), ['1', '4']);
      await store.update('clips', '1', { title: 'Tea' });
      assert.deepEqual(await found('cafe'), ['4']);
    });

    it('indexes documents restored with their ids', async () => {
      await store.insertWithId('clips', { id: '40', title: 'Glacier', labels: '', body: '', owner: 'a', plays: 0 });
      assert.deepEqual(await found('glac'), ['40']);
    });
  });
}
