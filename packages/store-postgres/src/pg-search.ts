import { tierScore, type SearchQuery, type SearchTerm } from '@reelbase/core';
import { quote, searchColumns, type SqlTable } from '@reelbase/core/sql';
import type { PoolClient } from 'pg';
import { identifier, type PgTable, type PgTables } from './pg-columns';

/**
 * A searchable collection's index (CollectionSchema.search) is a weighted tsvector, a generated
 * column (so every write keeps it, in its own transaction) under a GIN index. Tiers take the
 * weights A, B, C, D. Words are compared as the `simple` configuration leaves them (lower case,
 * never stemmed: core stems the query, for every driver), after `unaccent` (or, where the
 * extension cannot be created, a fixed table of Latin accents) and with punctuation turned to
 * spaces, so words split where FTS5's unicode61 splits them.
 */
export const SEARCH_COLUMN = 'rb_search';
const UNACCENT = 'rb_search_unaccent';
/** Folds a text as the index reads it: accents off, punctuation to spaces (case is the tsvector's and pg_trgm's own). */
export const FOLD = 'rb_search_fold';

const ACCENTED = 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ';
const PLAIN = 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy';

/**
 * The schema holding an extension the search uses (unaccent, pg_trgm), creating it when it is
 * missing and this user may; null when it cannot be had. Run outside a transaction: a refused
 * CREATE EXTENSION would abort it.
 */
export async function extensionSchema(db: PoolClient, name: 'unaccent' | 'pg_trgm'): Promise<string | null> {
  const find = async () =>
    (await db.query<{ schema: string }>(`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`, [name])).rows[0]
      ?.schema ?? null;
  const found = await find();
  if (found !== null) return found;
  // Both are trusted extensions since PostgreSQL 13; a user without CREATE on the database is refused.
  await db.query(`CREATE EXTENSION IF NOT EXISTS ${name}`).catch(() => undefined);
  return find();
}

/**
 * The fold functions' bodies, by name, as created in the store's schema `home`. Each names what it
 * calls with its schema: a body is parsed under the session's search_path, which pg_restore
 * empties while it refills the search columns. A qualified call keeps the functions inlinable
 * into queries and index expressions, which a pinned search_path (a SET clause) would prevent.
 */
function functionBodies(unaccent: string | null, home: string): Map<string, string> {
  return foldBodies(unaccent, `${quote(home)}.${UNACCENT}`);
}

/**
 * What the fold computes, as the search columns and trigram indexes record it (their comments):
 * they are rebuilt when it changes. Where a function is, is not part of it: qualifying the calls
 * (above) left every result as it was, so stores made before keep their columns and indexes, and
 * the IMMUTABLE functions these read may take the new bodies in place.
 */
export const foldRecord = (unaccent: string | null): string => [...foldBodies(unaccent, UNACCENT).values()].join(';');

function foldBodies(unaccent: string | null, unaccentCall: string): Map<string, string> {
  const strip = unaccent === null ? `translate($1, '${ACCENTED}', '${PLAIN}')` : `${quote(unaccent)}.unaccent('${quote(unaccent)}.unaccent'::regdictionary, $1)`;
  return new Map([
    [UNACCENT, ` SELECT ${strip} `],
    [FOLD, ` SELECT regexp_replace(${unaccentCall}($1), '[[:punct:]]+', ' ', 'g') `],
  ]);
}

export const searchableTables = (tables: PgTables): PgTable[] => [...tables.values()].filter((t) => t.search);

/**
 * A lexeme no folded text holds (the fold turns punctuation to spaces), put between two fields'
 * vectors and deleted after: `||` numbers the right vector's words on from the left's last, so
 * without it a field's last word and the next field's first would make a phrase (`<->`), where a
 * phrase is whole words in a row in one field (core's search.ts). Its position stays empty.
 */
const GAP = '.';

/** The tsvector of a table's search fields, each tier with its weight, a position apart (GAP). */
function vectorOf(table: SqlTable): string {
  const fields = searchColumns(table).map(
    ({ field, tier }) => `setweight(to_tsvector('simple'::regconfig, ${FOLD}(coalesce(${quote(field)}, ''))), '${'ABCD'[tier]}')`,
  );
  return fields.length === 1 ? fields[0] : `ts_delete(${fields.join(` || '''${GAP}'':1'::tsvector || `)}, '${GAP}')`;
}

/** What a table's search column computes, as its comment records it: a column (and its vocabulary) is rebuilt when it changes. */
export const searchDefinition = (table: SqlTable, unaccent: string | null): string => `${vectorOf(table)} /* ${foldRecord(unaccent)} */`;

/**
 * The statements that bring the search columns, their functions and GIN indexes to the schema;
 * none when they match. A column is made again when its definition (recorded as its comment)
 * changes, which rebuilds it from the rows in that one statement; functions whose bodies alone
 * changed are replaced in place (see foldRecord).
 */
export async function planSearch(db: PoolClient, tables: PgTables, unaccent: string | null): Promise<string[]> {
  const searchable = searchableTables(tables);
  if (searchable.length === 0) return [];
  const home = (await db.query<{ schema: string }>(`SELECT current_schema() AS schema`)).rows[0].schema;
  const bodies = functionBodies(unaccent, home);
  const existing = new Map(
    (
      await db.query<{ name: string; body: string }>(
        `SELECT proname AS name, prosrc AS body FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname = ANY($1)`,
        [[...bodies.keys()]],
      )
    ).rows.map((f) => [f.name, f.body]),
  );
  const comments = new Map(
    (
      await db.query<{ table: string; comment: string | null }>(
        `SELECT c.relname AS table, col_description(a.attrelid, a.attnum) AS comment FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          WHERE c.relnamespace = current_schema()::regnamespace AND a.attname = $1 AND NOT a.attisdropped`,
        [SEARCH_COLUMN],
      )
    ).rows.map((r) => [r.table, r.comment]),
  );
  const ddl: string[] = [];
  if ([...bodies].some(([name, body]) => existing.get(name) !== body)) {
    for (const [name, body] of bodies) {
      ddl.push(`CREATE OR REPLACE FUNCTION ${name}(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $rb$${body}$rb$`);
    }
  }
  for (const table of searchable) {
    const vector = vectorOf(table);
    const definition = searchDefinition(table, unaccent);
    const index = quote(identifier(`rbsearch_${table.name}`));
    if (comments.get(table.name) === definition) continue;
    // CASCADE: the vocabulary's update trigger reads the column; planVocabulary makes it again, as the definition changed.
    if (comments.has(table.name)) ddl.push(`ALTER TABLE ${table.sql} DROP COLUMN ${SEARCH_COLUMN} CASCADE`);
    ddl.push(`ALTER TABLE ${table.sql} ADD COLUMN ${SEARCH_COLUMN} tsvector GENERATED ALWAYS AS (${vector}) STORED`);
    ddl.push(`COMMENT ON COLUMN ${table.sql}.${SEARCH_COLUMN} IS '${definition.replaceAll("'", "''")}'`);
    ddl.push(`CREATE INDEX ${index} ON ${table.sql} USING gin (${SEARCH_COLUMN})`);
  }
  return ddl;
}

/** The whole words each bare word of a search begins, by the word, where they were looked up (pg-vocabulary.ts). */
const WHOLE_WORDS = new WeakMap<SearchQuery, ReadonlyMap<string, readonly string[]>>();

/**
 * A copy of `query` whose bare words are written as the whole words they begin (`wholeWords`,
 * word → words) instead of as prefixes: the same matches, but a GIN index reads a prefix by
 * gathering every match of every word it begins before combining them, where whole words are
 * combined as they are read (pg-vocabulary.ts). A copy, made for one read, so words looked up
 * once never stand for a later state of the store.
 */
export function withWholeWords(query: SearchQuery, wholeWords: ReadonlyMap<string, readonly string[]>): SearchQuery {
  const copy = { terms: query.terms };
  WHOLE_WORDS.set(copy, wholeWords);
  return copy;
}

/** tsquery text of one term: a phrase's words in a row, a bare word as a prefix or as the whole words it begins; `weight` limits each to a tier. */
function termQuery(query: SearchQuery, term: SearchTerm, weight = ''): string {
  const whole = term.phrase ? undefined : WHOLE_WORDS.get(query)?.get(term.words[0]);
  // A lexeme, unlike a typed word, is the index's own text: quoted as tsquery reads it.
  if (whole) return `(${whole.map((w) => `'${w.replaceAll('\\', '\\\\').replaceAll("'", "''")}'${weight ? `:${weight}` : ''}`).join(' | ')})`;
  return `(${term.words.map((w) => `'${w}'${term.phrase ? (weight ? `:${weight}` : '') : `:*${weight}`}`).join(' <-> ')})`;
}

/** tsquery text for a parsed search (which has a term to match): every word quoted, bare ones as prefixes (or the whole words they begin). */
export function tsQuery(query: SearchQuery): string {
  const term = (t: SearchTerm) => termQuery(query, t);
  return [...query.terms.filter((t) => !t.exclude).map(term), ...query.terms.filter((t) => t.exclude).map((t) => `!${term(t)}`)].join(' & ');
}

/** The bound tsquery, folded as the documents are. */
export const tsQueryExpression = (bound: string): string => `to_tsquery('simple'::regconfig, ${UNACCENT}(${bound}))`;

/**
 * Relevance as every driver scores it (SEARCH_WEIGHTS): for each wanted term, the weight of the
 * heaviest tier (tsvector weight A to D) it matches in, summed. `bind` adds a value and answers
 * its placeholder.
 */
export function tsScore(table: SqlTable, query: SearchQuery, bind: (value: string) => string): string {
  const term = (t: SearchTerm) => tierScore(table.search?.length ?? 0, (tier) => `${SEARCH_COLUMN} @@ ${tsQueryExpression(bind(termQuery(query, t, 'ABCD'[tier])))}`);
  return `(${query.terms.filter((t) => !t.exclude).map(term).join(' + ')})`;
}


/**
 * The condition "every wanted term of `query` matches in the first tier" (a name): the rows of
 * the highest relevance there is, every term scoring its heaviest weight.
 */
export const firstTierMatch = (query: SearchQuery, bind: (value: string) => string): string =>
  `${SEARCH_COLUMN} @@ ${tsQueryExpression(bind(query.terms.filter((t) => !t.exclude).map((t) => termQuery(query, t, 'A')).join(' & ')))}`;
