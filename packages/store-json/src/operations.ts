import { copyJson, rankedSearch, type Doc, type Filter, type FindOptions, type FindResult, type OrderBy, type Scalar, type SumRow } from '@reelbase/core';
import { compareBy, compileFilter, ownValue, type TableSource } from './evaluate-filter';
import type { Table } from './table';
import type { UndoJournal } from './undo-journal';

/**
 * The Store operations as synchronous steps over the tables; every write records its inverse in
 * the journal it is given. Documents are copied on the way in and out so no caller ever holds a
 * reference into stored state.
 */
export class Operations {
  constructor(private readonly tables: ReadonlyMap<string, Table>) {}

  readonly tableOf: TableSource = (collection) => this.table(collection);

  get(collection: string, id: string): Doc | null {
    return copyOut(this.table(collection).get(id));
  }

  insert(collection: string, doc: object, journal: UndoJournal): Doc {
    return copyOut(this.table(collection).insert(jsonFields(doc), journal));
  }

  /** In order, all or none: a failing document undoes the ones before it. */
  insertMany(collection: string, docs: readonly object[], journal: UndoJournal): string[] {
    const table = this.table(collection);
    const mark = journal.mark();
    try {
      return docs.map((doc) => table.insert(jsonFields(doc), journal).id);
    } catch (error) {
      journal.rollbackTo(mark);
      throw error;
    }
  }

  insertWithId(collection: string, doc: Doc, journal: UndoJournal): Doc {
    return copyOut(this.table(collection).insertWithId(jsonFields(doc), journal));
  }

  sequence(collection: string): number {
    return this.table(collection).sequence();
  }

  setSequence(collection: string, value: number, journal: UndoJournal): void {
    this.table(collection).setSequence(value, journal);
  }

  update(collection: string, id: string, patch: object, journal: UndoJournal): Doc | null {
    const table = this.table(collection);
    const previous = table.get(id);
    if (!previous) return null;
    // Shallow is enough: stored values are never mutated, so sharing nested objects is safe.
    const next: Doc = { ...previous };
    for (const [field, value] of Object.entries(patch)) {
      if (field === 'id') continue;
      const json = toJson(value);
      if (json === undefined) delete next[field];
      else next[field] = json;
    }
    table.replace(next, journal);
    return copyOut(next);
  }

  delete(collection: string, id: string, journal: UndoJournal): boolean {
    return this.table(collection).remove(id, journal);
  }

  find(collection: string, options: FindOptions = {}): FindResult {
    const table = this.table(collection);
    const ranked = rankedSearch(options.where, options.orderBy);
    const matches = this.#matching(table, options.where).sort(compareBy(options.orderBy, table, ranked && table.search(ranked)));
    const start = Math.max(0, options.offset ?? 0);
    const end = options.limit === undefined ? undefined : start + Math.max(0, options.limit);
    return { items: matches.slice(start, end).map((doc) => copyOut(doc)), total: matches.length };
  }

  findOne(collection: string, where: Filter, orderBy?: OrderBy[]): Doc | null {
    const table = this.table(collection);
    const ranked = rankedSearch(where, orderBy);
    const order = compareBy(orderBy, table, ranked && table.search(ranked));
    let first: Doc | undefined;
    for (const doc of this.#matching(table, where)) if (!first || order(doc, first) < 0) first = doc;
    return copyOut(first);
  }

  count(collection: string, where?: Filter): number {
    return this.#matching(this.table(collection), where).length;
  }

  countBy(collection: string, field: string, where?: Filter, distinct?: string): Map<string, number> {
    const table = this.table(collection);
    this.#declared(table, distinct === undefined ? [field] : [field, distinct]);
    const read = table.read ?? ownValue;
    // Each group's counted values: its rows, or the distinct non-null values of `distinct` (as SQL counts them).
    const groups = new Map<string, Set<unknown>>();
    for (const doc of this.#matching(table, where)) {
      const key = read(doc, field);
      if (key === null) continue;
      const counted = groups.get(String(key)) ?? groups.set(String(key), new Set()).get(String(key))!;
      const value = distinct === undefined ? doc : read(doc, distinct);
      if (value !== null) counted.add(value);
    }
    return new Map([...groups].map(([key, counted]) => [key, counted.size]));
  }

  sumBy(collection: string, by: readonly string[], sums: readonly string[], where?: Filter): SumRow[] {
    const table = this.table(collection);
    this.#declared(table, [...by, ...sums]);
    const read = table.read ?? ownValue;
    // Keyed by the JSON of the group's values, so null stays apart from the text "null".
    const groups = new Map<string, SumRow>();
    if (!by.length) groups.set('[]', Object.fromEntries(sums.map((field) => [field, 0])));
    for (const doc of this.#matching(table, where)) {
      const values = by.map((field) => (read(doc, field) ?? null) as Scalar);
      const key = JSON.stringify(values);
      const group = groups.get(key) ?? groups.set(key, Object.fromEntries([...by.map((field, i) => [field, values[i]]), ...sums.map((field) => [field, 0])])).get(key)!;
      for (const field of sums) group[field] = (group[field] as number) + Number(read(doc, field) ?? 0);
    }
    return [...groups.values()];
  }

  #declared(table: Table, names: readonly string[]): void {
    for (const name of names) {
      if (name !== 'id' && !table.fields.has(name)) {
        throw new Error(`unknown field ${JSON.stringify(name)} in collection ${table.name}: only declared fields can be filtered or sorted`);
      }
    }
  }

  deleteWhere(collection: string, where: Filter, journal: UndoJournal): number {
    const table = this.table(collection);
    const doomed = this.#matching(table, where).map((doc) => doc.id);
    for (const id of doomed) table.remove(id, journal);
    return doomed.length;
  }

  increment(collection: string, id: string, field: string, by: number, journal: UndoJournal): Doc | null {
    const table = this.table(collection);
    const previous = table.get(id);
    if (!previous) return null;
    const current = previous[field] ?? 0;
    if (typeof current !== 'number') throw new TypeError(`${collection}.${field} is not a number`);
    if (!Number.isFinite(by)) throw new TypeError(`cannot increment by ${by}`);
    const next: Doc = { ...previous, [field]: current + by };
    table.replace(next, journal);
    return copyOut(next);
  }

  table(collection: string): Table {
    const table = this.tables.get(collection);
    if (!table) throw new Error(`unknown collection: ${collection}`);
    return table;
  }

  #matching(table: Table, where: Filter | undefined): Doc[] {
    return table.rows.filter(compileFilter(where, table, this.tableOf));
  }
}

/** The fields of a document as JSON stores them (fields JSON drops are left out). */
function jsonFields(doc: object): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(doc)) {
    const json = toJson(value);
    if (json !== undefined) fields[field] = json;
  }
  return fields;
}

/** A deep copy as JSON would store it (undefined where JSON drops the value), so memory and file modes agree. */
function toJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

function copyOut(doc: Doc): Doc;
function copyOut(doc: Doc | undefined): Doc | null;
function copyOut(doc: Doc | undefined): Doc | null {
  return doc ? copyJson(doc) : null;
}
