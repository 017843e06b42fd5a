import { assertSequenced, autoIdNumber, checkSequence, StoreConflictError, type CollectionSchema, type Doc, type SearchQuery } from '@reelbase/core';
import type { FieldReader } from './evaluate-filter';
import { SearchIndex } from './search-index';
import type { UndoJournal } from './undo-journal';

/** One collection as persisted: the last auto id handed out and the documents. */
export interface CollectionData {
  seq: number;
  rows: Doc[];
}

interface UniqueIndex {
  fields: readonly string[];
  /** Encoded key values → id of the document holding them. */
  owners: Map<string, string>;
}

/**
 * One collection in memory: the persisted rows array plus an id → position index and one map
 * per unique key, so point reads and writes never scan. Stored documents are never mutated in
 * place (writes swap in a new object), which lets the undo journal simply keep the old one.
 */
export class Table {
  readonly numericIds: boolean;
  /** Fields declared `text`, which sort case-insensitively (the Store contract). */
  readonly textFields: ReadonlySet<string>;
  /** The declared fields, which alone may be grouped by (Store.countBy), like the SQL drivers' columns. */
  readonly fields: ReadonlySet<string>;
  /** Set for a collection with a mirror (json-store.ts): reads mirrored fields from their source. */
  read?: FieldReader;
  readonly #positions = new Map<string, number>();
  readonly #unique: UniqueIndex[];
  readonly #search: SearchIndex | undefined;

  constructor(
    readonly name: string,
    schema: CollectionSchema,
    private readonly data: CollectionData,
  ) {
    this.numericIds = schema.id === 'auto';
    this.fields = new Set(Object.keys(schema.fields));
    this.textFields = new Set(Object.entries(schema.fields).filter(([, type]) => type === 'text').map(([field]) => field));
    this.#unique = (schema.unique ?? []).map((fields) => ({ fields, owners: new Map() }));
    this.#search = schema.search && new SearchIndex(schema.search);
    data.rows.forEach((doc, position) => {
      if (this.#positions.has(doc.id)) throw new StoreConflictError(name, ['id']);
      this.#assertFree(doc);
      this.#positions.set(doc.id, position);
      this.#index(doc);
    });
  }

  /** The documents matching a search with their scores (search-index.ts); throws where the schema declares no search. */
  search(query: SearchQuery): ReadonlyMap<string, number> {
    if (!this.#search) throw new Error(`collection ${this.name} is not searchable`);
    return this.#search.search(query, (id) => this.get(id));
  }

  get rows(): readonly Doc[] {
    return this.data.rows;
  }

  get(id: string): Doc | undefined {
    const position = this.#positions.get(id);
    return position === undefined ? undefined : this.data.rows[position];
  }

  /** Adds a document, assigning the next id in auto collections and taking the caller's in text ones. */
  insert(fields: Record<string, unknown>, journal: UndoJournal): Doc {
    const { id: given, ...rest } = fields;
    return this.#add(this.numericIds ? String(this.data.seq + 1) : given, rest, journal);
  }

  /** Adds a document under the id it carries, auto collections included (restoring a copy). */
  insertWithId(fields: Record<string, unknown>, journal: UndoJournal): Doc {
    const { id, ...rest } = fields;
    if (this.numericIds) autoIdNumber(this.name, id);
    return this.#add(id, rest, journal);
  }

  /** The last auto id handed out. */
  sequence(): number {
    assertSequenced(this.name, this.numericIds ? 'auto' : 'text');
    return this.data.seq;
  }

  setSequence(value: number, journal: UndoJournal): void {
    assertSequenced(this.name, this.numericIds ? 'auto' : 'text');
    let maxId = 0;
    for (const doc of this.data.rows) maxId = Math.max(maxId, Number(doc.id));
    this.#setSeq(checkSequence(this.name, value, maxId), journal);
  }

  /** Swaps in a new version of an existing document (same id). */
  replace(next: Doc, journal: UndoJournal): void {
    const previous = this.get(next.id);
    if (!previous) throw new Error(`${this.name}: no document ${next.id}`);
    this.#assertFree(next);
    this.#swap(previous, next);
    journal.record(() => this.#swap(next, previous));
  }

  remove(id: string, journal: UndoJournal): boolean {
    const doc = this.get(id);
    if (!doc) return false;
    this.#remove(id);
    journal.record(() => this.#append(doc));
    return true;
  }

  #add(id: unknown, rest: Record<string, unknown>, journal: UndoJournal): Doc {
    if (typeof id !== 'string' || id === '') throw new TypeError(`${this.name}: a text id must be a non-empty string`);
    if (this.#positions.has(id)) throw new StoreConflictError(this.name, ['id']);
    const doc: Doc = { id, ...rest };
    this.#assertFree(doc);
    // An id past the sequence (a restored one) moves it on, so it is never handed out again.
    if (this.numericIds && Number(id) > this.data.seq) this.#setSeq(Number(id), journal);
    this.#append(doc);
    journal.record(() => this.#remove(id));
    return doc;
  }

  #setSeq(value: number, journal: UndoJournal): void {
    const previous = this.data.seq;
    this.data.seq = value;
    journal.record(() => (this.data.seq = previous));
  }

  #append(doc: Doc): void {
    this.#positions.set(doc.id, this.data.rows.push(doc) - 1);
    this.#index(doc);
  }

  /** Swap-remove keeps deletes O(1); row order carries no meaning (queries sort by id). */
  #remove(id: string): void {
    const rows = this.data.rows;
    const position = this.#positions.get(id)!;
    const doc = rows[position];
    const last = rows.pop()!;
    if (last !== doc) {
      rows[position] = last;
      this.#positions.set(last.id, position);
    }
    this.#positions.delete(id);
    this.#unindex(doc);
  }

  #swap(previous: Doc, next: Doc): void {
    this.data.rows[this.#positions.get(previous.id)!] = next;
    this.#unindex(previous);
    this.#index(next);
  }

  #assertFree(doc: Doc): void {
    for (const { fields, owners } of this.#unique) {
      const key = uniqueKey(doc, fields);
      const owner = key === undefined ? undefined : owners.get(key);
      if (owner !== undefined && owner !== doc.id) throw new StoreConflictError(this.name, fields);
    }
  }

  #index(doc: Doc): void {
    this.#search?.add(doc);
    for (const { fields, owners } of this.#unique) {
      const key = uniqueKey(doc, fields);
      if (key !== undefined) owners.set(key, doc.id);
    }
  }

  #unindex(doc: Doc): void {
    this.#search?.remove(doc);
    for (const { fields, owners } of this.#unique) {
      const key = uniqueKey(doc, fields);
      if (key !== undefined && owners.get(key) === doc.id) owners.delete(key);
    }
  }
}

/** Like SQL, a key with a null or missing part is not unique-checked (many users without a link). */
function uniqueKey(doc: Doc, fields: readonly string[]): string | undefined {
  const values = fields.map((field) => doc[field] ?? null);
  return values.includes(null) ? undefined : JSON.stringify(values);
}
