import type { Filter } from '@reelbase/core';
import type { Table, Tables } from './sqlite-schema';

/**
 * What is known of the rows a write changed: field values every one of them had (a row's whole
 * document before or after, or the equalities of the condition it was deleted by). A remembered
 * page whose own condition asks for other values of one of those fields cannot have held such a
 * row, nor hold it now.
 */
export type RowFacts = Readonly<Record<string, unknown>>;

/** What this process's writer changed, as the read cache forgets it. */
export interface Changed {
  /** `table\0id` of documents written one by one. */
  docs: Set<string>;
  /** By table: what is known of its changed rows, or `all` when nothing is. */
  rows: Map<string, RowFacts[] | 'all'>;
  /** Tables whose documents were written in bulk (deleteWhere, insertMany): every remembered one goes. */
  wholeTables: Set<string>;
}

export const docKey = (table: string, id: string): string => `${table}\u0000${id}`;

const noChanges = (): Changed => ({ docs: new Set(), rows: new Map(), wholeTables: new Set() });

/** Rows described one by one in a change; a larger write counts as changing any row of its table. */
const MAX_FACTS = 64;

/**
 * The writes of this process's writer connection, kept until the read cache has forgotten what
 * they changed. A commit by this process then costs the cache only the documents it wrote and the
 * pages and totals that may have held the rows it changed, instead of everything (under 50 likes
 * a second, every read had rebuilt its video's Clip from a fresh document, and read the viewer's
 * likes again). Writes wait in `pending` until their COMMIT: a read snapshot taken before it
 * still sees the old rows, and may remember them.
 */
export class OwnWrites {
  #pending = noChanges();
  #committed = noChanges();
  /** Table → the tables mirroring its fields, by the field naming the source row (sqlite-mirror.ts). */
  readonly #mirrors = new Map<string, { table: string; key: string }[]>();

  constructor(tables: Tables) {
    for (const table of tables.values()) {
      if (table.mirror) this.#mirrors.set(table.mirror.collection, [...(this.#mirrors.get(table.mirror.collection) ?? []), { table: table.name, key: table.mirror.key }]);
    }
  }

  /** A document written by id: `facts` are its documents before and after (those known; none when unknown). */
  doc(table: Table, id: string, facts: (RowFacts | null)[]): void {
    this.#pending.docs.add(docKey(table.name, id));
    const known = facts.filter((f): f is RowFacts => f !== null).map((f) => ({ ...f, id }));
    this.#rows(table.name, known.length ? known : [{ id }]);
    // The triggers rewrite the mirroring rows of this source row.
    for (const mirror of this.#mirrors.get(table.name) ?? []) this.#rows(mirror.table, [{ [mirror.key]: id }]);
  }

  /** Documents written by a condition, or many at once: `facts` what is known of every row, if anything. */
  bulk(table: Table, facts: readonly RowFacts[] | 'all'): void {
    this.#pending.wholeTables.add(table.name);
    this.#rows(table.name, facts);
    for (const mirror of this.#mirrors.get(table.name) ?? []) this.#rows(mirror.table, 'all');
  }

  /** Right before COMMIT (and before the read snapshot moves past it). */
  committing(): void {
    merge(this.#committed, this.#pending);
    this.#pending = noChanges();
  }

  /** What committed since the last call. */
  take(): Changed {
    const taken = this.#committed;
    this.#committed = noChanges();
    return taken;
  }

  #rows(table: string, facts: readonly RowFacts[] | 'all'): void {
    add(this.#pending.rows, table, facts);
  }
}

function merge(into: Changed, from: Changed): void {
  for (const key of from.docs) into.docs.add(key);
  for (const name of from.wholeTables) into.wholeTables.add(name);
  for (const [table, facts] of from.rows) add(into.rows, table, facts);
}

function add(rows: Changed['rows'], table: string, facts: readonly RowFacts[] | 'all'): void {
  const known = rows.get(table);
  if (known === 'all') return;
  const all = facts === 'all' ? facts : [...(known ?? []), ...facts];
  rows.set(table, all === 'all' || all.length > MAX_FACTS ? 'all' : all);
}

/** The equalities of a condition's top level (`eq`, `in`, under `and`): what every row it selects has. */
export function equalities(where: Filter | undefined): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const visit = (f: Filter | undefined) => {
    if (!f) return;
    if ('and' in f) for (const part of f.and) visit(part);
    else if ('field' in f && f.op === 'eq') found.set(f.field, new Set([valueKey(f.value)]));
    else if ('field' in f && f.op === 'in') found.set(f.field, new Set(f.values.map(valueKey)));
  };
  visit(where);
  return found;
}

/** Equalities as row facts: the single-valued ones. */
export function factsOf(where: Filter): RowFacts {
  const facts: Record<string, unknown> = {};
  const visit = (f: Filter) => {
    if ('and' in f) for (const part of f.and) visit(part);
    else if ('field' in f && f.op === 'eq') facts[f.field] = f.value;
  };
  visit(where);
  return facts;
}

/** Whether a row with these facts may satisfy the equalities (no field known to differ). */
export function mayHold(equal: ReadonlyMap<string, ReadonlySet<string>>, facts: RowFacts): boolean {
  for (const [field, values] of equal) if (field in facts && !values.has(valueKey(facts[field]))) return false;
  return true;
}

/** Values compared as the store does: null and a missing field alike, a number and its text alike. */
export const valueKey = (value: unknown): string => (value === null || value === undefined ? '\u0000null' : String(value));
