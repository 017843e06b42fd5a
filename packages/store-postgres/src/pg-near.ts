import type { Filter, SearchQuery, SearchTerm } from '@reelbase/core';
import { quote, type SqlDialect, type SqlParams, type SqlTable } from '@reelbase/core/sql';
import type { PoolClient } from 'pg';
import { commentedRelations, identifier, type PgTable, type PgTables } from './pg-columns';
import { pgDialect } from './pg-dialect';
import { FOLD, foldRecord, SEARCH_COLUMN, tsQuery, tsQueryExpression } from './pg-search';

/**
 * Near matches, PostgreSQL's alone (docs/search.md "Typos"): a search whose tsquery finds nothing
 * looks again, in the same snapshot, for names near its bare words by pg_trgm's word similarity
 * (`names %> word`, true from NEAR_THRESHOLD on), so "documentery" finds "Documentary night".
 * Its quoted phrases and exclusions still apply as written. A collection's names are its first
 * search tier when it has several (videos, users, channels, groups, albums); one searched in a
 * single tier (comments) holds prose, which has no names to be near. The names' folded text
 * (FOLD, as the tsvector reads it) carries a GIN trigram index, so the second look is an index
 * read like the first.
 */

/**
 * The least word similarity of a near name: pg_trgm's default (0.6) misses most single slips in
 * words under nine letters; 0.5 finds most in words of seven or more, and at 0.4 a slip reaches
 * another word three times as often (docs/search.md "Typos" has the measurements).
 */
export const NEAR_THRESHOLD = 0.5;

/**
 * Sets NEAR_THRESHOLD, which `%>` and its index read, for the rest of the transaction the second
 * look runs in: nothing else of the connection changes, whatever pool (or PgBouncer) it is in.
 */
export const NEAR_SETTING = `SET LOCAL pg_trgm.word_similarity_threshold = ${NEAR_THRESHOLD}`;

/**
 * A search falling back to near matches, the schema of pg_trgm's operators, and the bare words
 * read as near: those that find nothing as written (nearWords); the others match as written.
 */
export interface Near {
  query: SearchQuery;
  trigrams: string;
  words: readonly SearchTerm[];
}

const INDEX_PREFIX = 'rbtrgm_';

/** A term the fallback reads as near: a bare word that is wanted (phrases and exclusions stay exact). */
const isNearWord = (term: SearchTerm): boolean => !term.phrase && !term.exclude;

/** Whether a collection has names to be near. */
export const hasNames = (table: SqlTable): boolean => (table.search?.length ?? 0) > 1;

/** The folded text of a table's names (its first search tier), as indexed and as compared. */
function namesOf(table: SqlTable): string {
  const fields = table.search![0];
  const text = fields.length === 1 ? quote(fields[0]) : fields.map((f) => `coalesce(${quote(f)}, '')`).join(` || ' ' || `);
  return `${FOLD}(${text})`;
}

/**
 * The statements that bring the names' trigram indexes to the schema (none without pg_trgm, and
 * those of a table that lost its names dropped). An index is made again when its definition,
 * recorded as its comment with what the fold computes (foldRecord), changes.
 */
export async function planNear(db: PoolClient, tables: PgTables, trigrams: string | null, unaccent: string | null): Promise<string[]> {
  const existing = await commentedRelations(db, 'i', INDEX_PREFIX);
  const wanted = trigrams === null ? [] : [...tables.values()].filter(hasNames);
  const names = new Set(wanted.map((table) => identifier(`${INDEX_PREFIX}${table.name}`)));
  const ddl = [...existing.keys()].filter((name) => !names.has(name)).map((name) => `DROP INDEX ${quote(name)}`);
  for (const table of wanted) {
    const index = identifier(`${INDEX_PREFIX}${table.name}`);
    const opclass = `${quote(trigrams!)}.gin_trgm_ops`;
    const definition = `${namesOf(table)} ${opclass} /* ${foldRecord(unaccent)} */`;
    if (existing.get(index) === definition) continue;
    if (existing.has(index)) ddl.push(`DROP INDEX ${quote(index)}`);
    ddl.push(`CREATE INDEX ${quote(index)} ON ${table.sql} USING gin ((${namesOf(table)}) ${opclass})`);
    ddl.push(`COMMENT ON INDEX ${quote(index)} IS '${definition.replaceAll("'", "''")}'`);
  }
  return ddl;
}

/**
 * The search a read of `table` falls back from when it finds nothing: the `match` its where
 * requires (itself, under its `and`s, or in a semi-join it requires, as a membership list reads
 * its members), when that match has a bare word and its collection has indexed names.
 */
export function nearSearch(tables: PgTables, table: PgTable, where: Filter | undefined): Near | undefined {
  const found = requiredMatch(tables, table, where);
  if (!found?.table.trigrams || !found.query.terms.some(isNearWord)) return undefined;
  return { query: found.query, trigrams: found.table.trigrams, words: found.query.terms.filter(isNearWord) };
}

/**
 * `where` asking, in `near`'s search's place, for one of its bare words alone: whether that word
 * finds anything as written under the list's own conditions (visibility, filters), which decides
 * whether it is read as near (docs/search.md "Typos"). Under the same conditions, so whether a
 * word is read as near tells nothing of rows the caller may not list.
 */
export function wordAlone(where: Filter, near: Near, word: SearchTerm): Filter {
  const swap = (f: Filter): Filter => {
    if ('match' in f) return f.match === near.query ? { match: { terms: [word] } } : f;
    if ('and' in f) return { and: f.and.map(swap) };
    if ('or' in f) return { or: f.or.map(swap) };
    if ('not' in f) return { not: swap(f.not) };
    if (f.op === 'inSelect' && f.select.where) return { ...f, select: { ...f.select, where: swap(f.select.where) } };
    return f;
  };
  return swap(where);
}

/** Whether the first look (the search as written, which found nothing) already says every bare word finds nothing: it was one bare word alone. */
export const nearWordsKnown = (near: Near): boolean => near.query.terms.length === 1;

function requiredMatch(tables: PgTables, table: PgTable, where: Filter | undefined): { query: SearchQuery; table: PgTable } | undefined {
  if (!where) return undefined;
  if ('match' in where) return { query: where.match, table };
  if ('and' in where) {
    for (const part of where.and) {
      const found = requiredMatch(tables, table, part);
      if (found) return found;
    }
  }
  if ('op' in where && where.op === 'inSelect') {
    const other = tables.get(where.select.collection);
    return other && requiredMatch(tables, other, where.select.where);
  }
  return undefined;
}

/** PostgreSQL's dialect with `near`'s match read as names near its bare words; every other match as written. */
export const nearDialect = (near: Near): SqlDialect<unknown> => ({
  ...pgDialect,
  match: (table, query, params) => (query === near.query ? nearMatch(table, near, params) : pgDialect.match(table, query, params)),
});

/** Every near word near a word of the names; the other words, phrases and exclusions by the tsquery, as ever. */
function nearMatch(table: SqlTable, near: Near, params: SqlParams<unknown>): string {
  const names = namesOf(table);
  const words = near.words.map((t) => `${names} OPERATOR(${quote(near.trigrams)}.%>) ${params.bind(t.words[0])}`);
  const exact = near.query.terms.filter((t) => !near.words.includes(t));
  if (exact.length > 0) words.push(`${SEARCH_COLUMN} @@ ${tsQueryExpression(params.bind(tsQuery({ terms: exact })))}`);
  return `(${words.join(' AND ')})`;
}

/** Relevance of a near match: the similarity of each near word to the names, summed. */
export function nearScore(table: SqlTable, near: Near, bind: (value: string) => string): string {
  const names = namesOf(table);
  return `(${near.words
    .map((t) => `${quote(near.trigrams)}.word_similarity(${bind(t.words[0])}, ${names})`)
    .join(' + ')})`;
}
