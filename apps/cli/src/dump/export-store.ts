import { and, gt, lte, type Doc, type OrderBy, type Schema, type Store } from '@reelbase/core';
import { dumpFormat, dumpVersion, type DumpCollection, type DumpHeader, type DumpSink } from './dump-format';

/** Documents read per query: large enough to amortise each query, small enough to stream. */
export const exportPageSize = 1000;

/**
 * Streams every collection of `schema` to `sink`: the header (counts and sequences), then each
 * collection's documents in id order, a page at a time. It all runs in one transaction, so the
 * dump is one consistent state: writers to the store wait until it is done. Answers the header,
 * whose counts were all written.
 */
export async function exportStore(store: Store, schema: Schema, sink: DumpSink, pageSize = exportPageSize): Promise<DumpHeader> {
  return store.transaction(async (tx) => {
    const header = await describeStore(tx, schema);
    await sink.header(header);
    for (const [name, { count, sequence }] of Object.entries(header.collections)) {
      let written = 0;
      const pages = sequence === undefined ? keysetPages(tx, name, pageSize) : idWindows(tx, name, sequence, pageSize);
      for await (const items of pages) {
        await sink.documents(name, items);
        written += items.length;
      }
      // Inside one transaction this cannot differ unless a driver pages wrongly: never write a dump that lies.
      if (written !== count) throw new Error(`export of ${name} read ${written} documents but the collection holds ${count}`);
    }
    return header;
  });
}

const byId: OrderBy[] = [{ field: 'id', direction: 'asc' }];

/**
 * An `auto` collection in windows of ids (1–1000, 1001–2000, … up to its sequence, above which no
 * id exists). A window needs no limit, so no driver counts the rest of the table for each page.
 */
async function* idWindows(store: Store, name: string, sequence: number, size: number): AsyncGenerator<Doc[]> {
  for (let low = 0; low < sequence; low += size) {
    const { items } = await store.find(name, { where: and(gt('id', String(low)), lte('id', String(low + size))), orderBy: byId });
    if (items.length > 0) yield items;
  }
}

/** A `text` collection in pages after the last id seen (an index range each). */
async function* keysetPages(store: Store, name: string, size: number): AsyncGenerator<Doc[]> {
  let last: string | undefined;
  for (;;) {
    const { items } = await store.find(name, { where: last === undefined ? undefined : gt('id', last), orderBy: byId, limit: size });
    if (items.length > 0) yield items;
    if (items.length < size) return;
    last = items[items.length - 1].id;
  }
}

/** The header of a store's dump: every collection with its id kind, count and sequence. */
async function describeStore(store: Store, schema: Schema): Promise<DumpHeader> {
  const collections: Record<string, DumpCollection> = {};
  for (const [name, { id }] of Object.entries(schema)) {
    const count = await store.count(name);
    collections[name] = id === 'auto' ? { id, count, sequence: await store.sequence(name) } : { id, count };
  }
  return { format: dumpFormat, version: dumpVersion, collections };
}
