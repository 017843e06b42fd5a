import { canMatch, SEARCH_WEIGHTS, searchWords, type Doc, type SearchQuery, type SearchTerm } from '@reelbase/core';

/**
 * A searchable collection's inverted index (CollectionSchema.search): each folded word → the
 * documents holding it, with a bit per tier it appears in. Built at load and kept by the table's
 * every write (and its undo), so a rolled-back write leaves no word behind. Phrases are checked
 * against the candidates' own text, so no positions are kept.
 */
export class SearchIndex {
  readonly #postings = new Map<string, Map<string, number>>();
  /** Words by their first character: a prefix looks among those only. */
  readonly #byInitial = new Map<string, Set<string>>();
  /** The last answer, for the filter and the order of one find; any write forgets it. */
  #last: { query: SearchQuery; scores: Map<string, number> } | undefined;

  constructor(private readonly tiers: readonly (readonly string[])[]) {}

  add(doc: Doc): void {
    this.#last = undefined;
    this.tiers.forEach((fields, tier) => {
      for (const field of fields) {
        for (const word of wordsOf(doc, field)) {
          let posting = this.#postings.get(word);
          if (!posting) {
            this.#postings.set(word, (posting = new Map()));
            const initial = word[0];
            (this.#byInitial.get(initial) ?? this.#byInitial.set(initial, new Set()).get(initial)!).add(word);
          }
          posting.set(doc.id, (posting.get(doc.id) ?? 0) | (1 << tier));
        }
      }
    });
  }

  remove(doc: Doc): void {
    this.#last = undefined;
    for (const field of this.tiers.flat()) {
      for (const word of wordsOf(doc, field)) {
        const posting = this.#postings.get(word);
        if (!posting?.delete(doc.id) || posting.size > 0) continue;
        this.#postings.delete(word);
        this.#byInitial.get(word[0])?.delete(word);
      }
    }
  }

  /** The documents matching `query` with their scores (higher is better); `get` reads a document by id. */
  search(query: SearchQuery, get: (id: string) => Doc | undefined): Map<string, number> {
    if (this.#last?.query === query) return this.#last.scores;
    const scores = new Map<string, number>();
    if (canMatch(query)) {
      const wanted = query.terms.filter((t) => !t.exclude).map((t) => this.#hits(t, get));
      wanted.sort((a, b) => a.size - b.size);
      const excluded = query.terms.filter((t) => t.exclude).map((t) => this.#hits(t, get));
      for (const [id, tiers] of wanted[0]) {
        let score = weight(tiers);
        for (const other of wanted.slice(1)) score = other.has(id) ? score + weight(other.get(id)!) : NaN;
        if (!Number.isNaN(score) && !excluded.some((hits) => hits.has(id))) scores.set(id, score);
      }
    }
    this.#last = { query, scores };
    return scores;
  }

  /** The documents a term holds in, each with the tiers (bits) it holds in. */
  #hits(term: SearchTerm, get: (id: string) => Doc | undefined): Map<string, number> {
    if (!term.phrase) {
      const [prefix] = term.words;
      const hits = new Map<string, number>();
      for (const word of this.#byInitial.get(prefix[0]) ?? []) {
        if (!word.startsWith(prefix)) continue;
        for (const [id, tiers] of this.#postings.get(word)!) hits.set(id, (hits.get(id) ?? 0) | tiers);
      }
      return hits;
    }
    // Documents holding every word of the phrase, then the tiers whose text holds them in a row.
    const postings = term.words.map((w) => this.#postings.get(w));
    if (postings.some((p) => !p)) return new Map();
    const [first, ...rest] = (postings as Map<string, number>[]).sort((a, b) => a.size - b.size);
    const hits = new Map<string, number>();
    for (const id of first.keys()) {
      if (!rest.every((p) => p.has(id))) continue;
      const doc = get(id)!;
      let tiers = 0;
      this.tiers.forEach((fields, tier) => {
        if (fields.some((field) => holdsPhrase(wordsOf(doc, field), term.words))) tiers |= 1 << tier;
      });
      if (tiers) hits.set(id, tiers);
    }
    return hits;
  }
}

const wordsOf = (doc: Doc, field: string): string[] => (typeof doc[field] === 'string' ? searchWords(doc[field]) : []);

/** The weight of the heaviest tier among the bits. */
const weight = (tiers: number): number => SEARCH_WEIGHTS[Math.log2(tiers & -tiers)];

function holdsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, i) => words[start + i] === word)) return true;
  }
  return false;
}
