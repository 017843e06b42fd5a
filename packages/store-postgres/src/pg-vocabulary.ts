import type { Filter, SearchQuery } from '@reelbase/core';
import { quote, type SqlTable } from '@reelbase/core/sql';
import type { PoolClient } from 'pg';
import { commentedRelations, identifier, type PgTable, type PgTables } from './pg-columns';
import { searchableTables, searchDefinition, SEARCH_COLUMN, withWholeWords } from './pg-search';
import type { Executor } from './pg-types';

/**
 * Each searchable table's vocabulary: every word its search column holds (or held), one row each,
 * kept by statement triggers in the writing transaction. A search writes a bare word as the whole
 * words it begins, looked up here, instead of as a prefix (`'quiet':*`): the GIN index reads a
 * prefix by first gathering every match of every word it begins into a bitmap, and only then
 * combines the terms, where whole words are combined as their lists are read, skipping. Measured
 * at 300,000 videos (load 22): `orchard:* & quiet:*`, 4,311 matches, read its index in 340-430 ms
 * and took 630-780 ms in all; the same as whole words, `(orchard | orchards) & (quiet | …)`,
 * 3-9 ms and 26-51 ms; server CPU 70 against 10 ms a query.
 *
 * Words are never removed (a word no row holds any more costs a lookup that finds nothing), so
 * the vocabulary holds every word of every visible row: the whole words found are exactly the
 * prefix's. A word beginning more than MOST_WHOLE_WORDS stays a prefix, as on SQLite.
 */
export const MOST_WHOLE_WORDS = 32;

const PREFIX = 'rbwords_';

/** The vocabulary table of a searchable table. */
export const vocabularyOf = (table: SqlTable): string => quote(identifier(`${PREFIX}${table.name}`));

/**
 * The statements that bring the vocabularies to the search columns: a table, its function and
 * triggers for a searchable table, and every word of its rows (again) whenever what it records
 * (its comment: the search column's definition and the function's body) changed, since the
 * words the column holds change with it. Run after planSearch's statements, which (re)make the
 * column.
 *
 * Inserts add their words once a statement, from its new rows (a transition table: one statement
 * for a bulk load's batch). An update adds them row by row, only when its searched text changed
 * (the trigger's WHEN, evaluated without calling the function): the updates that count plays and
 * likes cost nothing, where a transition table would copy every updated row (measured: 3,000
 * single-row updates of plays took 4.1-5.2 s with one, 1.0-1.9 s without, at load 15).
 */
export async function planVocabulary(db: PoolClient, tables: PgTables, unaccent: string | null): Promise<string[]> {
  const existing = await commentedRelations(db, 'r', PREFIX);
  const ddl: string[] = [];
  for (const table of searchableTables(tables)) {
    const name = identifier(`${PREFIX}${table.name}`);
    const vocabulary = quote(name);
    const add = quote(identifier(`${PREFIX}${table.name}__add`));
    const words = (vectors: string) => `INSERT INTO ${vocabulary} (word) SELECT DISTINCT w FROM ${vectors} AS w ON CONFLICT DO NOTHING`;
    const body =
      `BEGIN IF TG_LEVEL = 'STATEMENT' THEN ${words(`rb_new, unnest(tsvector_to_array(rb_new.${SEARCH_COLUMN}))`)}; ` +
      `ELSE ${words(`unnest(tsvector_to_array(NEW.${SEARCH_COLUMN}))`)}; END IF; RETURN NULL; END`;
    const recorded = `${searchDefinition(table, unaccent)} /* ${body} */`;
    if (existing.get(name) === recorded) continue;
    const trigger = (event: string) => quote(identifier(`${PREFIX}${table.name}__${event}`));
    ddl.push(
      existing.has(name) ? `TRUNCATE ${vocabulary}` : `CREATE TABLE ${vocabulary} (word text COLLATE "C" PRIMARY KEY)`,
      `CREATE OR REPLACE FUNCTION ${add}() RETURNS trigger LANGUAGE plpgsql AS $rb$${body}$rb$`,
      `DROP TRIGGER IF EXISTS ${trigger('insert')} ON ${table.sql}`,
      `DROP TRIGGER IF EXISTS ${trigger('update')} ON ${table.sql}`,
      `CREATE TRIGGER ${trigger('insert')} AFTER INSERT ON ${table.sql} REFERENCING NEW TABLE AS rb_new FOR EACH STATEMENT EXECUTE FUNCTION ${add}()`,
      `CREATE TRIGGER ${trigger('update')} AFTER UPDATE ON ${table.sql} FOR EACH ROW WHEN (OLD.${SEARCH_COLUMN} IS DISTINCT FROM NEW.${SEARCH_COLUMN}) EXECUTE FUNCTION ${add}()`,
      `INSERT INTO ${vocabulary} (word) SELECT DISTINCT w FROM ${table.sql}, unnest(tsvector_to_array(${SEARCH_COLUMN})) AS w`,
      `COMMENT ON TABLE ${vocabulary} IS '${recorded.replaceAll("'", "''")}'`,
    );
  }
  return ddl;
}

/**
 * `where` with each search on a table with a vocabulary written in whole words (withWholeWords),
 * for one read: the words each bare word begins, looked up in one statement. A word beginning
 * none or more than MOST_WHOLE_WORDS stays a prefix, and so does one the text search would split
 * into several words (its folded form is not one word).
 */
export async function wholeWordsOf(db: Executor, tables: PgTables, table: PgTable, where: Filter | undefined): Promise<Filter | undefined> {
  if (!where) return where;
  const found: { table: PgTable; query: SearchQuery }[] = [];
  visit(tables, table, where, (t, query) => {
    if (t.search && query.terms.some((term) => !term.phrase)) found.push({ table: t, query });
  });
  if (found.length === 0) return where;
  const replaced = new Map<SearchQuery, SearchQuery>();
  for (const { table: t, query } of found) {
    const typed = [...new Set(query.terms.filter((term) => !term.phrase).map((term) => term.words[0]))];
    const { rows } = await db.query<{ typed: string; word: string }>(
      `SELECT p.typed, w.word FROM unnest($1::text[]) AS p(typed)
        CROSS JOIN LATERAL (SELECT tsvector_to_array(to_tsvector('simple'::regconfig, rb_search_unaccent(p.typed))) AS lexemes) AS l
        CROSS JOIN LATERAL (SELECT word FROM ${vocabularyOf(t)} WHERE cardinality(l.lexemes) = 1 AND word >= l.lexemes[1] AND word < l.lexemes[1] || chr(1114111)
                             ORDER BY word LIMIT ${MOST_WHOLE_WORDS + 1}) AS w`,
      [typed],
    );
    const words = new Map<string, string[]>();
    for (const { typed, word } of rows) (words.get(typed) ?? words.set(typed, []).get(typed)!).push(word);
    for (const [word, whole] of words) if (whole.length > MOST_WHOLE_WORDS) words.delete(word);
    if (words.size > 0) replaced.set(query, withWholeWords(query, words));
  }
  return replaced.size === 0 ? where : rewrite(where, replaced);
}

/** Calls `fn` with every search of `where` and the table it searches (its own, or a semi-join's). */
function visit(tables: PgTables, table: PgTable, where: Filter, fn: (table: PgTable, query: SearchQuery) => void): void {
  if ('match' in where) fn(table, where.match);
  else if ('and' in where) for (const part of where.and) visit(tables, table, part, fn);
  else if ('or' in where) for (const part of where.or) visit(tables, table, part, fn);
  else if ('not' in where) visit(tables, table, where.not, fn);
  else if (where.op === 'inSelect' && where.select.where) {
    const other = tables.get(where.select.collection);
    if (other) visit(tables, other, where.select.where, fn);
  }
}

function rewrite(where: Filter, replaced: ReadonlyMap<SearchQuery, SearchQuery>): Filter {
  if ('match' in where) return { match: replaced.get(where.match) ?? where.match };
  if ('and' in where) return { and: where.and.map((f) => rewrite(f, replaced)) };
  if ('or' in where) return { or: where.or.map((f) => rewrite(f, replaced)) };
  if ('not' in where) return { not: rewrite(where.not, replaced) };
  if (where.op === 'inSelect' && where.select.where) return { ...where, select: { ...where.select, where: rewrite(where.select.where, replaced) } };
  return where;
}
