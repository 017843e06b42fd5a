import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, parseSearch, RELEVANCE, SEARCH_WEIGHTS, searchWords, type Doc, type FindOptions, type Schema, type SearchTerm, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { mulberry32 } from './mulberry32';
import { searchSchema } from './search-tests';

const tiers = [['title'], ['labels'], ['body']] as const;

/**
 * Words sharing beginnings ("ri" begins three, "river" two), the first ones far the commonest
 * (pick), so that a generated library holds words in most rows and words in few, as a real one
 * does: the SQLite driver plans each differently (windows, walks, lookups) and every plan must
 * answer what the plain one does.
 */
const vocabulary = ['river', 'harbour', 'red', 'rivet', 'rice', 'road', 'quay', 'café', 'harbours', 'reed', 'ridge', 'anchor'];

const random = mulberry32(50);
/** A vocabulary word, the first ones most often. */
const pick = (): string => vocabulary[Math.floor(random() ** 2 * vocabulary.length)];
const words = (n: number): string => Array.from({ length: n }, pick).join(' ');

// A generated phrase often runs from one field's last word into the next field's first: no driver may match it there.
const generated = Array.from({ length: 360 }, () => ({
  title: words(1 + Math.floor(random() * 3)),
  labels: random() < 0.3 ? words(1) : '',
  body: words(2 + Math.floor(random() * 3)),
  owner: random() < 0.5 ? 'a' : 'b',
  // Few distinct values: ties fall to the id.
  plays: Math.floor(random() * 12),
}));

/**
 * Words no generated row holds, in titles alone, which sort together by title: one after the
 * titles of a third of the rows, where a walk from the start falls short and is walked again,
 * longer; one at the end, where that falls short too and the matches are ordered instead.
 */
const bunched = ['quill', 'wharf'].flatMap((word, w) =>
  Array.from({ length: w ? 30 : 150 }, (_, i) => ({ title: `${word} ${i}`, labels: '', body: 'quay', owner: i % 2 ? 'b' : 'a', plays: i % 12 })),
);
// Spread among the others by id, as the count's estimate past its bound expects.
const library = generated.flatMap((row, i) => (i % 2 === 0 && i / 2 < bunched.length ? [row, bunched[i / 2]] : [row]));

/** What people type: one to three words, whole or begun, a quoted pair, an exclusion. */
const queries = Array.from({ length: 36 }, (_, i) => {
  const begun = (w: string) => (random() < 0.4 ? w.slice(0, 2 + Math.floor(random() * (w.length - 1))) : w);
  const typed = Array.from({ length: 1 + (i % 3) }, () => begun(pick()));
  if (i % 6 === 4) typed.push(`"${pick()} ${pick()}"`);
  if (i % 4 === 3) typed.push(`-${pick()}`);
  return typed.join(' ');
}).concat(['quill', 'wharf', 'quill 1', 'wharf -quill']);

type Clip = (typeof library)[number];

/** Whether `term` matches in `fields` of `clip`, as core's search.ts defines it: a bare word begins a word, a phrase is whole words in a row in one field. */
function holds(clip: Clip, fields: readonly string[], term: SearchTerm): boolean {
  return fields.some((field) => {
    const text = searchWords(String(clip[field as keyof Clip]));
    if (!term.phrase) return text.some((w) => w.startsWith(term.words[0]));
    return text.some((_, at) => term.words.every((w, k) => text[at + k] === w));
  });
}

/** The ids of the library's clips `query` matches, each with its relevance (SEARCH_WEIGHTS by the heaviest tier of each wanted term). */
function expectedMatches(query: string, firsts: number, only?: string): { id: string; score: number; clip: Clip }[] {
  const { terms } = parseSearch(query);
  const all = tiers.flat();
  const wanted = terms.filter((t) => !t.exclude);
  if (wanted.length === 0) return [];
  return library
    .map((clip, i) => ({ clip, id: String(firsts + i) }))
    .filter(({ clip }) => (!only || clip.owner === only) && wanted.every((t) => holds(clip, all, t)) && !terms.some((t) => t.exclude && holds(clip, all, t)))
    .map(({ clip, id }) => ({ id, clip, score: wanted.reduce((sum, t) => sum + SEARCH_WEIGHTS[tiers.findIndex((fields) => holds(clip, fields, t))], 0) }));
}

const orders = {
  relevance: [
    { field: RELEVANCE, direction: 'desc' as const },
    { field: 'plays', direction: 'desc' as const },
  ],
  plays: [{ field: 'plays', direction: 'desc' as const }],
  newest: [{ field: 'id', direction: 'desc' as const }],
  // Titles begin with a vocabulary word, so a word's matches bunch in this order (those whose
  // title begins with it together): a walk in it falls short and is walked again, longer.
  alphabetical: [{ field: 'title', direction: 'asc' as const }],
};

/** The search cases' schema with each owner's titles in order, an order SQLite walks a search in (a window of its own). */
const schema: Schema = { clips: { ...searchSchema.clips, indexes: [['owner', 'title']] } };

/**
 * Generated libraries and queries: every plan a driver picks for a page of a search (a window of
 * the most played rows, a walk of one owner's rows, the rarest word's matches) answers the same
 * rows in the same order, and the same total, as ordering every match (the plain plan: a find
 * without a limit), and that answer is the search's meaning (core's search.ts).
 */
export function searchPlanTests(driver: StoreTestDriver): void {
  describe('search plans over a generated library', () => {
    let store: Store;
    let first = 0;
    before(async () => {
      store = await driver.open(schema);
      first = Number((await store.insertMany('clips', library))[0]);
    });
    after(() => store.close());

    const idsOf = (docs: readonly Doc[]) => docs.map((d) => d.id);
    for (const [name, orderBy] of Object.entries(orders)) {
      for (const owner of [undefined, 'a']) {
        it(`pages every generated query ${owner ? "within one owner's rows " : ''}ordered by ${name} as the plain plan does`, async () => {
          for (const query of queries) {
            const where = owner ? and(eq('owner', owner), { match: parseSearch(query) }) : { match: parseSearch(query) };
            const options: FindOptions = { where, orderBy, exactTotal: 10 };
            const plain = idsOf((await store.find('clips', options)).items);
            const meant = expectedMatches(query, first, owner)
              .sort((x, y) => (name === 'relevance' ? y.score - x.score : 0) || (name === 'newest' ? Number(y.id) - Number(x.id) : y.clip.plays - x.clip.plays || Number(x.id) - Number(y.id)))
              .map(({ id }) => id);
            // A driver with near matches answers names near words that find nothing (search-tests.ts).
            // Text order is each driver's collation (the contract's): there the plain plan holds the meant rows.
            const same = name === 'alphabetical' ? (ids: string[]) => [...ids].sort() : (ids: string[]) => ids;
            if (meant.length > 0 || !driver.nearMatches) assert.deepEqual(same(plain), same(meant), `${query}: the plain plan`);
            for (const [limit, offset] of [[5, 0], [5, 5], [25, 0], [10, 40]]) {
              const page = await store.find('clips', { ...options, limit, offset });
              assert.deepEqual(idsOf(page.items), plain.slice(offset, offset + limit), `${query}: ${limit} from ${offset}`);
              if (plain.length <= 10) assert.equal(page.total, plain.length, `${query}: the total from ${offset}`);
              else assert.ok(page.total > 10, `${query}: the total from ${offset} is past exactTotal`);
            }
          }
        });
      }
    }
  });
}
