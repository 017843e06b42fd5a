import { createService, schema, type Doc, type Service, type Store } from '@reelbase/core';
import { openStore, parseStoreSpec } from '../src/index';

/** Everything a store holds: every collection's documents in id order, and its sequence. */
export async function contents(store: Store): Promise<Record<string, { docs: Doc[]; sequence?: number }>> {
  const out: Record<string, { docs: Doc[]; sequence?: number }> = {};
  for (const [name, { id }] of Object.entries(schema)) {
    const { items } = await store.find(name, { orderBy: [{ field: 'id', direction: 'asc' }] });
    out[name] = id === 'auto' ? { docs: items, sequence: await store.sequence(name) } : { docs: items };
  }
  return out;
}

/** Opens the store a `--store` value names (relative to `cwd`), runs `fn`, closes it. */
export async function withStore<R>(spec: string, cwd: string, fn: (store: Store) => Promise<R>): Promise<R> {
  const store = await openStore(parseStoreSpec(spec, cwd));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** A service over the store a `--store` value names, at a fixed time, so two stores answer alike. */
export async function openFixedService(spec: string, cwd: string): Promise<Service> {
  const store = await openStore(parseStoreSpec(spec, cwd));
  return createService({ store, clock: () => new Date('2026-06-01T00:00:00Z'), onError: (e) => console.error('UNEXPECTED', e) });
}

/** The dump's lines, parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- dump lines are arbitrary JSON the tests read into
export const dumpLines = (dump: string): any[] => dump.trimEnd().split('\n').map((l) => JSON.parse(l));
