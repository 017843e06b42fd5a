import type { Filter, OrderBy } from './store';

/**
 * Full-text search as the Store contract carries it: core parses what a person typed into a
 * SearchQuery once, so every driver answers the same question from its own index (FTS5, tsvector,
 * the JSON store's inverted index), and the schema says which fields each collection searches.
 *
 * Semantics, the same on every driver: case and accents are ignored; every term must match (AND);
 * a bare word matches any word it begins (`doc` finds "Documentary"), after its English ending is
 * taken off (`stemOf`: "documentaries" finds "documentary"); `"quoted words"` match those whole
 * words in a row within one field; `-word` and `-"a phrase"` exclude. A query with no term to
 * match (only exclusions, or only punctuation) matches nothing.
 *
 * Stemming is of the query alone: a bare word already matches every word it begins, so cutting it
 * to the stem its forms share finds them all, and every driver's index stays as it is (words as
 * written, folded). Quoted words are never stemmed.
 */

/** One term: its folded words; a phrase when quoted, else one word matched as a prefix. */
export interface SearchTerm {
  words: readonly string[];
  phrase: boolean;
  exclude: boolean;
}

export interface SearchQuery {
  terms: readonly SearchTerm[];
}

/** The condition "this document matches `query` in its collection's search fields" (CollectionSchema.search). */
export interface MatchFilter {
  match: SearchQuery;
}

/**
 * The order key of relevance: `{ field: RELEVANCE, direction: 'desc' }` puts the best matches
 * first. Only with a `match` condition that `where` requires (itself, or under its `and`s).
 */
export const RELEVANCE = '$relevance';

/**
 * A search's `total` is exact up to this many matches (FindOptions.exactTotal); past it, a driver
 * may answer an estimate, always more than this. An exact count looks up every match for the
 * caller's visibility: for a word in a tenth of a million videos that pass cost more than the
 * whole request may (docs/search.md), and search engines stop counting exactly at some bound too.
 */
export const SEARCH_EXACT_TOTAL = 1000;

/**
 * A search answers its first this many results: a page starting past them is refused (400 naming
 * `page`), and `paging.last` stops at the last page within them. A deep page of a ranked search
 * scores and sorts every match; nobody reads a search's ten-thousandth result.
 */
export const SEARCH_WINDOW = 10_000;

/** Terms past this many are dropped: each costs an index lookup. */
const MAX_TERMS = 16;
/** Words are cut to this many characters. */
const MAX_WORD = 64;

/** Lower case without diacritics (NFD, combining marks removed): how both documents and queries are compared. */
export const foldText = (text: string): string => text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

/** The folded words of a text: runs of letters and digits, as FTS5's unicode61 tokenizer splits them. */
export const searchWords = (text: string): string[] => foldText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** A stem keeps at least this many characters: "bus" and "is" stay as typed. */
const MIN_STEM = 3;

/**
 * The beginning an English word's forms share, as a bare query word matches it: plural and verb
 * endings off (-ies, -es after a sibilant, -s, -ing, -ed, a doubled consonant before those), then a
 * final -y or -e after a consonant, which the other forms replace ("documentary" and
 * "documentaries" → "documentar", "make" and "making" → "mak", "stopped" → "stop"). A word that
 * would keep fewer than three characters, or holds a digit, stays whole. Over-reach is the
 * prefix rule's own: "series" → "ser" also finds "server".
 */
export function stemOf(word: string): string {
  if (/\d/.test(word)) return word;
  const stem = cut(word);
  // What the ending left: a doubled final consonant undoubled ("runn" → "run"), except -ll, -ss, -zz.
  const undoubled = stem !== word && /([b-df-hj-kmnp-rtv-xz])\1$/.test(stem) && !/(ll|ss|zz)$/.test(stem) ? stem.slice(0, -1) : stem;
  const final = /[^aeiou][ye]$/.test(undoubled) ? undoubled.slice(0, -1) : undoubled;
  return final.length >= MIN_STEM ? final : undoubled.length >= MIN_STEM ? undoubled : word;
}

/** `word` without its plural or verb ending, or as it is. */
function cut(word: string): string {
  const endings: [RegExp, number][] = [
    [/ies$/, 3],
    [/(s|x|z|ch|sh)es$/, 2],
    [/ing$/, 3],
    [/ed$/, 2],
    [/[^siu]s$/, 1],
  ];
  for (const [ending, length] of endings) if (ending.test(word) && word.length - length >= MIN_STEM) return word.slice(0, -length);
  return word;
}

/** Parses what a person typed; see the module comment for the syntax. */
export function parseSearch(input: string): SearchQuery {
  const terms: SearchTerm[] = [];
  // A quoted phrase (optionally -excluded; an unclosed quote runs to the end), or a bare word.
  for (const [, minus, quoted, bare] of input.matchAll(/(-?)(?:"([^"]*)"?|([^\s"]+))/g)) {
    const exclude = minus === '-';
    const words = searchWords(quoted ?? bare).map((w) => w.slice(0, MAX_WORD));
    if (words.length === 0) continue;
    if (quoted !== undefined) terms.push({ words, phrase: true, exclude });
    // A bare word with punctuation inside ("rock-n-roll") is each of its words.
    else for (const word of words) terms.push({ words: [stemOf(word)], phrase: false, exclude });
  }
  return { terms: terms.slice(0, MAX_TERMS) };
}

/** The `match` condition for what a person typed. */
export const matches = (input: string): MatchFilter => ({ match: parseSearch(input) });

/** A list's `query` as a condition: none when it is absent or blank. */
export const matching = (input: string | undefined): MatchFilter | undefined => (input?.trim() ? matches(input) : undefined);

/** Whether a query can match anything at all: it needs a term that is not an exclusion. */
export const canMatch = (query: SearchQuery): boolean => query.terms.some((t) => !t.exclude);

/**
 * Relevance weights by tier (CollectionSchema.search: the first tier weighs most). Drivers with
 * their own scale (PostgreSQL's four weight classes) keep this order.
 */
export const SEARCH_WEIGHTS: readonly number[] = [10, 4, 1, 0.5];

/**
 * A wanted term's relevance as SQL, from `test(tier)`, the condition "the term matches in this
 * tier": the weight of the first tier that holds it. The last tier is never tested: a find ranks
 * by a match its where requires, so a row it scores holds every wanted term in some tier, and a
 * term in no heavier one is in the last (for a common word, the largest set of all to look up).
 */
export function tierScore(tiers: number, test: (tier: number) => string): string {
  const last = String(SEARCH_WEIGHTS[tiers - 1]);
  if (tiers === 1) return last;
  const cases = Array.from({ length: tiers - 1 }, (_, tier) => `WHEN ${test(tier)} THEN ${SEARCH_WEIGHTS[tier]}`);
  return `(CASE ${cases.join(' ')} ELSE ${last} END)`;
}

/** The search a find ranks by: the `match` of its where (alone or in its top `and`) when its order asks for RELEVANCE. */
export function rankedSearch(where: Filter | undefined, orderBy: readonly OrderBy[] = []): SearchQuery | undefined {
  return orderBy.some((o) => o.field === RELEVANCE) ? topMatch(where) : undefined;
}

/** The `match` that `where` requires: itself, or one of its `and`'s (at any depth of `and`s). */
function topMatch(where: Filter | undefined): SearchQuery | undefined {
  if (!where) return undefined;
  if ('match' in where) return where.match;
  if ('and' in where) for (const part of where.and) {
    const found = topMatch(part);
    if (found) return found;
  }
  return undefined;
}
