import type { Filter, FindOptions, MatchFilter } from '@reelbase/core';
import { canMatch, RELEVANCE, rankedSearch, SEARCH_EXACT_TOTAL, SEARCH_WEIGHTS, type SearchQuery } from '@reelbase/core';
import { column, compileOrderBy, type SqlParams } from '@reelbase/core/sql';
import { compileFilter, compileWhere, sqliteDialect } from './compile-filter';
import { bestWindow, documents, estimatedCount, ORDERED_WALK_ROW_COST, PROBED_ROWS_PER_ROW, probedPage, walkIndex, windowSize, type ProbedWalk, type Window } from './search-walks';
import { DOC_COLUMN, type Table, type Tables } from './sqlite-schema';
import { firstTier, ftsQuery, ftsScore, keyTerm, matchRows, searchTable, walkOrder, wholeQuery, type FtsText, type Vocabulary } from './sqlite-search';
import type { SqlValue } from './sqlite-types';

/** One statement and the values it binds. */
export interface Statement {
  sql: string;
  params: SqlValue[];
}

/**
 * The statements of one `find`: its rows, a page of them, and their total (bind `countParams`).
 * A page may come with a `first` statement to try: its rows are the page when it answers any.
 */
export interface CompiledFind {
  rows(limit: number | undefined, offset: number): Statement & { first?: Statement; window?: Window };
  /**
   * For a search in an order other than relevance, with `total` matches (past the exact bound)
   * in a table of `span` ids: pages walked in the find's order, each row's words looked up by its
   * id (wholeQuery), stopping at the page's last row, to try in turn (each only where its plan
   * walks an index rather than sorting: ProbedWalk). First the rows pinned to a key (a user's
   * videos, an album's), twenty rows a page row at most: where one row in twenty or more matches,
   * that reads a few hundred rows where `rows` reads every match first. Then every row, from the
   * order's window index (walkOrder), from matches² ≥ page · span on (windowSize, ORDERED_WALK_ROW_COST).
   * A walk gives up (fewer rows than the limit) past its bound.
   */
  probed?(limit: number, offset: number, total: number, span: number): ProbedWalk[];
  count: string;
  countParams: SqlValue[];
}

const SCORE = 'rb_score';

export function compileFind(tables: Tables, table: Table, options: FindOptions, vocabulary?: Vocabulary): CompiledFind {
  const words = vocabulary && onceEach(vocabulary);
  const parts = options.where ? required(options.where) : [];
  const pinned = pinnedKeys(table, parts);
  const text = textOf(words);
  const dialect = keyedDialect(table, pinned, text);
  const whereParams: SqlValue[] = [];
  const source = ` FROM ${table.sql}${compileWhere(tables, table, options.where, whereParams, dialect)}`;
  const counted = compileCount(tables, table, parts, pinned, text, options.exactTotal ?? SEARCH_EXACT_TOTAL) ?? { count: `SELECT count(*) AS n${source}`, countParams: whereParams };
  const ranked = rankedSearch(options.where, options.orderBy);
  if (ranked && canMatch(ranked)) {
    // A ranked search orders every match. The sort carries only the keys (read from an index that
    // holds them, when the schema declares one) and the page's documents are read afterwards:
    // carrying each row's document through the sort read every match's whole row.
    const scoreParams: SqlValue[] = [];
    const score = ftsScore(table, ranked, (value) => (scoreParams.push(value), '?'), text, pinned.keys);
    const keys = orderKeys(table, options);
    const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy, SCORE);
    const inner = `SELECT ${['id', ...keys, `${score} AS ${SCORE}`].join(', ')}${source} ORDER BY ${orderBy}`;
    const document = documents(table, orderBy);
    const selected = bestColumns(ranked, keys);
    const best = bestScored(tables, table, options, ranked, selected, orderBy, pinned, text);
    const window = best && !parts.some((p) => narrows(table, p)) && words ? bestWindow(tables, table, options, ranked, selected, words, document) : undefined;
    return {
      rows(limit, offset) {
        const params = [...scoreParams, ...whereParams];
        const sql = document(`${inner}${pageOf(limit, offset, params)}`);
        if (!best || limit === undefined) return { sql, params };
        // The page from the best-scored rows when they fill it (else no row, and the page is read as above).
        const need = offset + limit;
        const first = `WITH ${BEST} AS MATERIALIZED (${best.sql} LIMIT ?) ${document(`SELECT * FROM ${BEST} WHERE (SELECT count(*) FROM ${BEST}) = ? ORDER BY ${orderBy} LIMIT ? OFFSET ?`)}`;
        return { sql, params, first: { sql: first, params: [...best.params, need, need, limit, offset] }, window: window?.(limit, offset) };
      },
      ...counted,
    };
  }
  // A query that can match nothing still orders by an expression: a bare constant there names a column position.
  const orderBy = compileOrderBy(sqliteDialect, table, options.orderBy, ranked && 'CAST(NULL AS REAL)');
  const searched = parts.some((p) => 'match' in p && canMatch(p.match));
  const unrankedSearch = !ranked && words && searched;
  const walk = walkOrder(table, options.orderBy);
  return {
    rows(limit, offset) {
      const params = [...whereParams];
      const page = pageOf(limit, offset, params);
      // A search's matches are sorted by their keys alone, as a ranked one's are (a video's document is kilobytes).
      if (searched && page) return { sql: documents(table, orderBy)(`SELECT ${['id', ...orderKeys(table, options)].join(', ')}${source} ORDER BY ${orderBy}${page}`), params };
      return { sql: `SELECT id, ${DOC_COLUMN}${source} ORDER BY ${orderBy}${page}`, params };
    },
    probed: unrankedSearch
      ? (limit, offset, total, span) => {
          const need = offset + limit;
          const size = walk && windowSize(need, span, total, ORDERED_WALK_ROW_COST);
          return [
            parts.some(pins) ? probedPage(tables, table, parts, orderBy, orderBy, words, PROBED_ROWS_PER_ROW * need, limit, offset) : undefined,
            walk && size ? probedPage(tables, table, parts, walk, orderBy, words, size, limit, offset) : undefined,
          ].filter((w): w is ProbedWalk => w !== undefined);
        }
      : undefined,
    ...counted,
  };
}

/** The columns of the fields a find orders by (relevance and id aside): what a sort of keys alone carries. */
const orderKeys = (table: Table, options: FindOptions): string[] =>
  [...new Set((options.orderBy ?? []).map((o) => o.field).filter((f) => f !== RELEVANCE && f !== 'id'))].map((f) => column(table, f));

const BEST = 'rb_best';

/**
 * The rows a ranked search scores highest, when its table weighs fields in tiers: those holding
 * every wanted term in the first tier (a name), in the find's order. A common word is in a tenth
 * of a million videos' names and in twice as many documents: when the first page is among the
 * name matches, it is ordered from those alone, and no other match is scored or sorted.
 */
function bestScored(
  tables: Tables,
  table: Table,
  options: FindOptions,
  ranked: SearchQuery,
  selected: string,
  orderBy: string,
  pinned: Pinned,
  fts: FtsText,
): { sql: string; params: SqlValue[] } | undefined {
  const tier = firstTier(table);
  const first = options.orderBy?.[0];
  if (!tier || first?.field !== RELEVANCE || first.direction !== 'desc') return undefined;
  const params: SqlValue[] = [];
  const text = (t: Table, query: SearchQuery) => fts(t, query, { columns: query === ranked ? tier : undefined, keys: pinnedIn(table, pinned, t, query) });
  const narrowed = { ...sqliteDialect, match: (t: Table, query: SearchQuery, p: SqlParams<SqlValue>) => matchRows(t, p.bind(text(t, query))) };
  const source = ` FROM ${table.sql}${compileWhere(tables, table, options.where, params, narrowed)}`;
  return { sql: `SELECT ${selected}${source} ORDER BY ${orderBy}`, params };
}

/** The columns of a best-scored row: its id, its order keys, and the score every wanted word in the first tier gives. */
const bestColumns = (ranked: SearchQuery, keys: string[]): string =>
  ['id', ...keys, `${SEARCH_WEIGHTS[0] * ranked.terms.filter((t) => !t.exclude).length} AS ${SCORE}`].join(', ');

/** The conditions a find's where requires together: itself, or its `and`'s parts (at any depth of `and`s). */
const required = (where: Filter): Filter[] => ('and' in where ? where.and.flatMap(required) : [where]);

/** A condition on a field the planner can start from (an index's leading key): a user's videos, an album's. */
const pins = (f: Filter): boolean => 'op' in f && (f.op === 'eq' || f.op === 'in' || f.op === 'inSelect');

/**
 * A pin that leaves few of the table's rows: a search key's value (a user's videos) or a set (an
 * album's). A value of another field (`privacy_view = 'anybody'`, an anonymous search) keeps most
 * of them, and a ranked window over every row still finds its page.
 */
const narrows = (table: Table, f: Filter): boolean => pins(f) && !('op' in f && f.op === 'eq' && !table.searchKeys?.includes(f.field));

/**
 * The count of a search: its matches walked in the index's order (rowid), each joined to its row
 * for the find's other conditions (visibility, an owner), up to one past `exactTotal`. Below that
 * it is the total; at it, the total is estimated from how far into the table's ids the walk got,
 * so a word in 900,000 videos costs the same walk as one in 1,001. The keys the find pins
 * (pinnedKeys) narrow the walk to their own matches: a user's videos are not found among every
 * match of a word. Nothing else asked, the index alone holds exactly the table's rows. As a
 * condition (`id IN (…)`) SQLite would first copy every match into a temporary index; the CROSS
 * JOIN keeps the index the outer loop, never a lookup per row (an FTS5 prefix query merges its
 * lists again at each). Undefined without a match.
 */
function compileCount(tables: Tables, table: Table, parts: Filter[], pinned: Pinned, text: FtsText, exactTotal: number): { count: string; countParams: SqlValue[] } | undefined {
  const match = parts.find((p): p is MatchFilter => 'match' in p && canMatch(p.match));
  if (!match) return undefined;
  const fts = searchTable(table);
  const countParams: SqlValue[] = [exactTotal, exactTotal, text(table, match.match, { keys: pinned.keys })];
  const rest = parts.filter((p) => p !== match);
  const walked =
    rest.length === 0
      ? walkIndex(fts)
      : `SELECT rb_m.rb_match FROM (SELECT rowid AS rb_match FROM ${fts} WHERE ${fts} MATCH ?) AS rb_m CROSS JOIN ${table.sql} ON ${table.sql}.id = rb_m.rb_match ` +
        `WHERE ${compileFilter(tables, table, { and: rest }, countParams, keyedDialect(table, pinned, text))} ORDER BY rb_m.rb_match LIMIT ?`;
  countParams.push(exactTotal + 1);
  return { count: estimatedCount(table, walked), countParams };
}

/**
 * The search keys (CollectionSchema.searchKeys) a find's where requires of one value, as FTS5
 * terms (keyTerm), and the matches they may narrow: those the where requires too, of rows of the
 * find's own table, where the key holds anyway.
 */
interface Pinned {
  keys: string[];
  matches: ReadonlySet<SearchQuery>;
}

function pinnedKeys(table: Table, parts: Filter[]): Pinned {
  const keys: string[] = [];
  const matches = new Set<SearchQuery>();
  for (const part of parts) {
    if ('match' in part) matches.add(part.match);
    else if ('op' in part && part.op === 'eq' && table.searchKeys?.includes(part.field) && (typeof part.value === 'string' || typeof part.value === 'number')) {
      const term = keyTerm(part.field, part.value);
      if (term) keys.push(term);
    }
  }
  return { keys, matches };
}

/** The keys a match of `t` narrowed to `query` is pinned to: the find's, for its own required matches. */
const pinnedIn = (table: Table, pinned: Pinned, t: Table, query: SearchQuery): string[] => (t === table && pinned.matches.has(query) ? pinned.keys : []);

/** The SQLite dialect writing a find's matches with `text`, its required ones narrowed to the keys it pins. */
function keyedDialect(table: Table, pinned: Pinned, text: FtsText): typeof sqliteDialect {
  return { ...sqliteDialect, match: (t, query, p) => matchRows(t, p.bind(text(t, query, { keys: pinnedIn(table, pinned, t, query) }))) };
}

/**
 * How a find writes its FTS5 queries: with its words whole where a Vocabulary can make them so
 * (wholeQuery), each word looked up once for the find. A prefix longer than the prefix indexes is
 * merged in full by every statement naming it (12 ms for a word in 400,000 of a million videos,
 * bounded count or not); its words whole cost one vocabulary read (7 ms) and then nothing.
 */
const textOf =
  (words?: Vocabulary): FtsText =>
  (t, query, scope) =>
    (words && wholeQuery(t, query, words, scope)) ?? ftsQuery(t, query, scope);

/** `words`, each word read once for one find. */
function onceEach(words: Vocabulary): Vocabulary {
  const known = new Map<string, readonly string[]>();
  return (table, word, max) => {
    const key = `${table.name}\u0000${max}\u0000${word}`;
    return known.get(key) ?? known.set(key, words(table, word, max)).get(key)!;
  };
}

/**
 * The page clause, appending its values to `params`: none for a find without a limit or offset
 * (binding LIMIT -1 cost every such read about 3 µs), else `LIMIT ? OFFSET ?` bound. Written into
 * the text, a small LIMIT made SQLite sort a whole table rather than walk an index
 * (query-plans.test.ts), and every page size and offset would be a statement of its own.
 */
function pageOf(limit: number | undefined, offset: number, params: SqlValue[]): string {
  if (limit === undefined && offset === 0) return '';
  params.push(limit ?? -1, offset);
  return ' LIMIT ? OFFSET ?';
}
