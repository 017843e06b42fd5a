import { and, type Doc, type Schema, type Store } from '@reelbase/core';
import { checkFits, DumpError, type DumpHeader, type DumpSink } from './dump-format';

/** The service's own secrets: a store holding only those is empty. */
const ownKeys = 'service_keys';

/** Documents inserted per transaction: each commit of a JSON file store rewrites the file, so not too few. */
export const importBatchSize = 2000;

/** One collection after an import: what the dump declares and what the target holds. */
export interface CollectionCheck {
  collection: string;
  expected: number;
  found: number;
  /** `auto` collections: the dump's sequence and the target's. */
  expectedSequence?: number;
  foundSequence?: number;
}

export const checkPassed = (c: CollectionCheck): boolean => c.expected === c.found && c.expectedSequence === c.foundSequence;

/** Counts that do not match after an import; the target has been emptied again. */
export class VerificationError extends Error {
  override readonly name = 'VerificationError';
  constructor(readonly checks: readonly CollectionCheck[]) {
    const bad = checks.filter((c) => !checkPassed(c)).map((c) => c.collection);
    super(`the target does not match the dump in ${bad.join(', ')}; the target was emptied again`);
  }
}

/** A target that already holds documents, and no --replace. */
export class TargetNotEmptyError extends Error {
  override readonly name = 'TargetNotEmptyError';
  constructor(readonly occupied: Readonly<Record<string, number>>) {
    const list = Object.entries(occupied).map(([name, n]) => `${name}: ${n}`);
    super(
      `the target store is not empty (${list.slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''}): ` +
        'import into an empty store, or add --replace to delete everything in it first',
    );
  }
}

/**
 * Restores a dump into `target` through the Store interface only (so any driver serves). `feed`
 * pushes the dump into the sink it is given. The target must be empty, or is emptied first with
 * `replace`. Documents are inserted with their ids in batched transactions, then the sequences
 * are set and every count checked. On any failure — a bad or truncated dump, a conflict, a count
 * that does not match — what was imported is deleted again and the sequences put back, so the
 * target is never left half-imported (with `replace`, its old contents are gone regardless).
 */
export async function importInto(
  target: Store,
  schema: Schema,
  options: { replace: boolean; batchSize?: number },
  feed: (sink: DumpSink) => Promise<void>,
): Promise<CollectionCheck[]> {
  const occupied = await occupiedCollections(target, schema);
  if (Object.keys(occupied).length > 0 && !options.replace) throw new TargetNotEmptyError(occupied);
  const sequences = await sequencesOf(target, schema);
  // An empty store may still hold the keys it made for itself; the dump's take their place, so
  // the media links the source handed out keep working.
  await clearStore(target, options.replace ? schema : { [ownKeys]: schema[ownKeys] });
  const importer = new Importer(target, schema, options.batchSize ?? importBatchSize);
  try {
    await feed(importer);
    return await importer.finish();
  } catch (error) {
    try {
      await clearStore(target, schema, sequences);
    } catch (cleanup) {
      throw new Error(`${(error as Error).message}; emptying the target again failed too: ${(cleanup as Error).message}`);
    }
    throw error;
  }
}

/** Receives the dump, inserting it a batch at a time, and checks it arrived whole. */
class Importer implements DumpSink {
  #header: DumpHeader | undefined;
  #batch: { collection: string; doc: Doc }[] = [];
  readonly #received = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly schema: Schema,
    private readonly batchSize: number,
  ) {}

  async header(header: DumpHeader): Promise<void> {
    checkFits(header, this.schema);
    this.#header = header;
  }

  async documents(collection: string, docs: readonly Doc[]): Promise<void> {
    if (!this.#header) throw new DumpError('the dump has documents before its header');
    this.#received.set(collection, (this.#received.get(collection) ?? 0) + docs.length);
    for (const doc of docs) {
      this.#batch.push({ collection, doc });
      if (this.#batch.length >= this.batchSize) await this.#flush();
    }
  }

  async finish(): Promise<CollectionCheck[]> {
    const header = this.#header;
    if (!header) throw new DumpError('the dump is empty: it has no header line');
    await this.#flush();
    const short = Object.entries(header.collections).filter(([name, { count }]) => (this.#received.get(name) ?? 0) !== count);
    if (short.length > 0) {
      const [name, { count }] = short[0];
      throw new DumpError(`the dump is incomplete: its header declares ${count} ${name} documents but it holds ${this.#received.get(name) ?? 0} (is it truncated?)`);
    }
    await this.store.transaction(async (tx) => {
      for (const [name, { sequence }] of Object.entries(header.collections)) if (sequence !== undefined) await tx.setSequence(name, sequence);
    });
    const checks = await verify(this.store, header);
    if (!checks.every(checkPassed)) throw new VerificationError(checks);
    return checks;
  }

  async #flush(): Promise<void> {
    const batch = this.#batch;
    if (batch.length === 0) return;
    this.#batch = [];
    await this.store.transaction(async (tx) => {
      for (const { collection, doc } of batch) {
        try {
          await tx.insertWithId(collection, doc);
        } catch (error) {
          throw new DumpError(`cannot import ${collection} ${doc.id}: ${(error as Error).message}`);
        }
      }
    });
  }
}

/** Each collection of the dump, counted again in the target. */
async function verify(store: Store, header: DumpHeader): Promise<CollectionCheck[]> {
  const checks: CollectionCheck[] = [];
  for (const [collection, { count, sequence }] of Object.entries(header.collections)) {
    const found = await store.count(collection);
    checks.push(sequence === undefined ? { collection, expected: count, found } : { collection, expected: count, found, expectedSequence: sequence, foundSequence: await store.sequence(collection) });
  }
  return checks;
}

/** The collections that hold documents, with their counts. */
export async function occupiedCollections(store: Store, schema: Schema): Promise<Record<string, number>> {
  const occupied: Record<string, number> = {};
  for (const name of Object.keys(schema)) {
    if (name === ownKeys) continue;
    const n = await store.count(name);
    if (n > 0) occupied[name] = n;
  }
  return occupied;
}

async function sequencesOf(store: Store, schema: Schema): Promise<Record<string, number>> {
  const sequences: Record<string, number> = {};
  for (const [name, { id }] of Object.entries(schema)) if (id === 'auto') sequences[name] = await store.sequence(name);
  return sequences;
}

/** Deletes every document, in one transaction, and sets the given sequences. */
async function clearStore(store: Store, schema: Schema, sequences: Record<string, number> = {}): Promise<void> {
  await store.transaction(async (tx) => {
    for (const name of Object.keys(schema)) await tx.deleteWhere(name, and());
    for (const [name, value] of Object.entries(sequences)) await tx.setSequence(name, value);
  });
}
