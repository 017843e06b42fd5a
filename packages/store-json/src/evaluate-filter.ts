import { canonicalInteger, RELEVANCE, type Doc, type Filter, type OrderBy, type Scalar, type SearchQuery } from '@reelbase/core';

/** A collection as filters see it: its rows, and whether its ids are auto (numeric) ones. */
export interface FilterTable {
  readonly rows: Iterable<Doc>;
  readonly numericIds: boolean;
  /** Reads a field where a row does not hold it itself (mirrored fields); absent: the row's own. */
  readonly read?: FieldReader;
  /** The documents matching a search, with their scores (search-index.ts). */
  search(query: SearchQuery): ReadonlyMap<string, number>;
}
export type FieldReader = (doc: Doc, field: string) => unknown;
/** The collections by name, for semi-joins. */
export type TableSource = (collection: string) => FilterTable;
export type Predicate = (doc: Doc) => boolean;
export type Comparator = (a: Doc, b: Doc) => number;

/** A missing field and a stored null are the same to every filter and sort. */
export const ownValue: FieldReader = (doc, field) => doc[field] ?? null;

/**
 * Compiles a filter tree into a predicate, once per query, so semi-joins collect their value
 * sets up front instead of per row. Two-valued logic: `not f` matches exactly what `f` does not,
 * so `ne` and `nin` match null fields, while range comparisons never match a null on either side.
 */
export function compileFilter(filter: Filter | undefined, table: FilterTable, tableOf: TableSource): Predicate {
  if (!filter) return () => true;
  if ('and' in filter) {
    const parts = filter.and.map((f) => compileFilter(f, table, tableOf));
    return (doc) => parts.every((p) => p(doc));
  }
  if ('or' in filter) {
    const parts = filter.or.map((f) => compileFilter(f, table, tableOf));
    return (doc) => parts.some((p) => p(doc));
  }
  if ('not' in filter) {
    const inner = compileFilter(filter.not, table, tableOf);
    return (doc) => !inner(doc);
  }
  if ('match' in filter) {
    const scores = table.search(filter.match);
    return (doc) => scores.has(doc.id);
  }
  const { field } = filter;
  const valueOf = table.read ?? ownValue;
  switch (filter.op) {
    case 'eq': {
      const { value } = filter;
      return (doc) => valueOf(doc, field) === value;
    }
    case 'ne': {
      const { value } = filter;
      return (doc) => valueOf(doc, field) !== value;
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const { op, value } = filter;
      const accept = RANGE[op];
      // Auto ids are numbers stored as strings: "10" follows "9" here as it does in sorting.
      const idNumber = field === 'id' && table.numericIds ? autoIdValue(value) : undefined;
      if (idNumber !== undefined) return (doc) => accept(Number(doc.id) - idNumber);
      return (doc) => {
        const v = valueOf(doc, field);
        return v !== null && value !== null && kind(v) === kind(value) && accept(compareValues(v, value));
      };
    }
    case 'in':
    case 'nin': {
      const values = new Set<unknown>(filter.values);
      const wanted = filter.op === 'in';
      return (doc) => values.has(valueOf(doc, field)) === wanted;
    }
    case 'contains': {
      const needle = filter.value.toLowerCase();
      return (doc) => {
        const v = valueOf(doc, field);
        return typeof v === 'string' && v.toLowerCase().includes(needle);
      };
    }
    case 'inSelect': {
      const { collection, field: selected, where } = filter.select;
      const other = tableOf(collection);
      const match = compileFilter(where, other, tableOf);
      const values = new Set<unknown>();
      const selectedOf = other.read ?? ownValue;
      for (const row of other.rows) if (match(row)) values.add(selectedOf(row, selected));
      values.delete(null);
      return (doc) => values.has(valueOf(doc, field));
    }
    default:
      throw new Error(`unsupported filter: ${JSON.stringify(filter satisfies never)}`);
  }
}

/** The number an auto id compared with stands for: a number, or an integer in canonical form (as the sqlite driver binds it). */
function autoIdValue(value: Scalar): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' ? canonicalInteger(value) : undefined;
}

const RANGE: Record<'lt' | 'lte' | 'gt' | 'gte', (order: number) => boolean> = {
  lt: (c) => c < 0,
  lte: (c) => c <= 0,
  gt: (c) => c > 0,
  gte: (c) => c >= 0,
};

/** SQLite's cross-type order: null, then numbers and booleans (as 0/1), then text, then anything else. */
function kind(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number' || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return 2;
  return 3;
}

/** A total order over stored values; nulls sort lowest (first ascending, last descending). */
export function compareValues(a: unknown, b: unknown): number {
  const ka = kind(a);
  const kb = kind(b);
  if (ka !== kb) return ka - kb;
  if (ka === 1) return Number(a) - Number(b);
  const [x, y] = ka === 2 ? [a as string, b as string] : ka === 3 ? [JSON.stringify(a), JSON.stringify(b)] : ['', ''];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** ASCII case folding, as SQL's NOCASE collation does it. */
const foldCase = (v: unknown): unknown => (typeof v === 'string' ? v.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : v);

/**
 * Orders by `orderBy`, then by id ascending: numerically for auto ids, so "10" follows "9".
 * `text` fields compare case-insensitively.
 */
export function compareBy(
  orderBy: readonly OrderBy[] | undefined,
  table: { numericIds: boolean; textFields: ReadonlySet<string>; read?: FieldReader },
  /** The scores RELEVANCE orders by (the find's match). */
  relevance?: ReadonlyMap<string, number>,
): Comparator {
  const valueOf = table.read ?? ownValue;
  const byId: Comparator = table.numericIds ? (a, b) => Number(a.id) - Number(b.id) : (a, b) => compareValues(a.id, b.id);
  const keys = (orderBy ?? []).map(({ field, direction }): Comparator => {
    const sign = direction === 'desc' ? -1 : 1;
    if (field === 'id') return (a, b) => sign * byId(a, b);
    if (field === RELEVANCE) {
      if (!relevance) throw new Error('ordering by relevance needs a match condition at the top of where');
      return (a, b) => sign * ((relevance.get(a.id) ?? 0) - (relevance.get(b.id) ?? 0));
    }
    if (table.textFields.has(field)) return (a, b) => sign * compareValues(foldCase(valueOf(a, field)), foldCase(valueOf(b, field)));
    return (a, b) => sign * compareValues(valueOf(a, field), valueOf(b, field));
  });
  return (a, b) => {
    for (const key of keys) {
      const order = key(a, b);
      if (order) return order;
    }
    return byId(a, b);
  };
}
