import type { Filter, SearchQuery } from '@reelbase/core';
import { quote, type SqlTable } from '@reelbase/core/sql';
import type { PoolClient } from 'pg';
import { identifier, type PgTable, type PgTables } from './pg-columns';
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
 * The statements that bring the vocabularies to the search columns: a table and its triggers for
 * a searchable table without one, and every word of its rows (again) when the column's definition
 * changed (recorded as the table's comment), since the words it holds change with it. Run after
 * planSearch's statements, which (re)make the column.
 */
export async function planVocabulary(db: PoolClient, tables: PgTables, unaccent: string | null): Promise<string[]> {
  const existing = new Map(
    (
      await db.query<{ table: string; comment: string | null }>(
        `SELECT relname AS table, obj_description(oid, 'pg_class') AS comment FROM pg_class
          WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' AND starts_with(relname, $1)`,
        [PREFIX],
      )
    ).rows.map((r) => [r.table, r.comment]),
  );
  const ddl: string[] = [];
  for (const table of searchableTables(tables)) {
    const name = identifier(`${PREFIX}${table.name}`);
    const vocabulary = quote(name);
    const definition = searchDefinition(table, unaccent);
    if (existing.get(name) === definition) continue;
    if (!existing.has(name)) {
      const add = quote(identifier(`${PREFIX}${table.name}__add`));
      const words = (from: string, where = '') =>
        `INSERT INTO ${vocabulary} (word) SELECT DISTINCT w FROM ${from} CROSS JOIN LATERAL unnest(tsvector_to_array(n.${SEARCH_COLUMN})) AS w${where} ON CONFLICT DO NOTHING`;
      ddl.push(
        `CREATE TABLE ${vocabulary} (word text COLLATE "C" PRIMARY KEY)`,
        // An update that leaves the searched text as it was (plays, likes) adds nothing.
        `CREATE FUNCTION ${add}() RETURNS trigger LANGUAGE plpgsql AS $rb$BEGIN IF TG_OP = 'INSERT' THEN ${words('rb_new n')}; ` +
          `ELSE ${words(`rb_new n LEFT JOIN rb_old o ON o.id = n.id AND o.${SEARCH_COLUMN} = n.${SEARCH_COLUMN}`, ' WHERE o.id IS NULL')}; END IF; RETURN NULL; END$rb$`,
        `CREATE TRIGGER ${quote(identifier(`${PREFIX}${table.name}__insert`))} AFTER INSERT ON ${table.sql} REFERENCING NEW TABLE AS rb_new FOR EACH STATEMENT EXECUTE FUNCTION ${add}()`,
        `CREATE TRIGGER ${quote(identifier(`${PREFIX}${table.name}__update`))} AFTER UPDATE ON ${table.sql} REFERENCING OLD TABLE AS rb_old NEW TABLE AS rb_new FOR EACH STATEMENT EXECUTE FUNCTION ${add}()`,
      );
    } else {
      ddl.push(`TRUNCATE ${vocabulary}`);
    }
    ddl.push(
      `INSERT INTO ${vocabulary} (word) SELECT DISTINCT w FROM ${table.sql}, unnest(tsvector_to_array(${SEARCH_COLUMN})) AS w`,
      `COMMENT ON TABLE ${vocabulary} IS '${definition.replaceAll("'", "''")}'`,
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
