import type { Table, Tables } from './sqlite-schema';

/** What this process's writer changed, as the read cache forgets it. */
export interface Changed {
  /** `table\0id` of documents written one by one. */
  docs: Set<string>;
  /** Tables with a changed row: their documents written in bulk, or any row their finds and counts read. */
  tables: Set<string>;
  /** Tables whose documents were written in bulk (deleteWhere, insertMany): every remembered one goes. */
  wholeTables: Set<string>;
}

export const docKey = (table: string, id: string): string => `${table}\u0000${id}`;

const noChanges = (): Changed => ({ docs: new Set(), tables: new Set(), wholeTables: new Set() });

/**
 * The writes of this process's writer connection, kept until the read cache has forgotten what
 * they changed. A commit by this process then costs the cache only the documents it wrote and the
 * lists and totals of their tables, instead of everything (under 50 likes a second, every read
 * had rebuilt its video's Clip from a fresh document). Writes wait in `pending` until their
 * COMMIT: a read snapshot taken before it still sees the old rows, and may remember them.
 */
export class OwnWrites {
  #pending = noChanges();
  #committed = noChanges();
  /** Table → the tables whose rows change with its rows (itself, and those mirroring its fields). */
  readonly #dependents = new Map<string, string[]>();

  constructor(tables: Tables) {
    for (const table of tables.values()) this.#dependents.set(table.name, [table.name]);
    for (const table of tables.values()) if (table.mirror) this.#dependents.get(table.mirror.collection)!.push(table.name);
  }

  /** A document written by id (inserted, updated, deleted). */
  doc(table: Table, id: string | number): void {
    this.#pending.docs.add(docKey(table.name, String(id)));
    this.#rows(table);
  }

  /** Documents written by a condition, or many at once. */
  bulk(table: Table): void {
    this.#pending.wholeTables.add(table.name);
    this.#rows(table);
  }

  /** Right before COMMIT (and before the read snapshot moves past it). */
  committing(): void {
    const p = this.#pending;
    for (const key of p.docs) this.#committed.docs.add(key);
    for (const name of p.tables) this.#committed.tables.add(name);
    for (const name of p.wholeTables) this.#committed.wholeTables.add(name);
    this.#pending = noChanges();
  }

  /** What committed since the last call. */
  take(): Changed {
    const taken = this.#committed;
    this.#committed = noChanges();
    return taken;
  }

  #rows(table: Table): void {
    for (const name of this.#dependents.get(table.name)!) this.#pending.tables.add(name);
  }
}
