import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema, Store } from '@reelbase/core';
import { Low, Memory } from 'lowdb';
import { createJsonStore, type JsonData } from '../src/json-store';

const schema: Schema = { items: { id: 'auto', fields: { n: 'integer' } } };

/** A disk whose writes finish (or fail) only when the test says so; it keeps what each write held. */
class GatedAdapter extends Memory<JsonData> {
  readonly snapshots: { n: number }[][] = [];
  readonly #gates: { resolve(): void; reject(error: Error): void }[] = [];

  override write(data: JsonData): Promise<void> {
    // Serialised at the call, as the durable file adapter does.
    this.snapshots.push(JSON.parse(JSON.stringify(data.collections.items?.rows ?? [])));
    return new Promise<void>((resolve, reject) => this.#gates.push({ resolve, reject }));
  }

  get waiting(): number {
    return this.#gates.length;
  }

  finish(): void {
    this.#gates.shift()!.resolve();
  }

  fail(): void {
    this.#gates.shift()!.reject(new Error('disk full'));
  }
}

async function open(): Promise<{ store: Store; disk: GatedAdapter }> {
  const disk = new GatedAdapter();
  return { store: await createJsonStore(new Low(disk, { version: 1, collections: {} }), schema), disk };
}

/** Lets every pending callback run (no timers: the store never waits on the clock). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Tracks whether a promise has settled yet. */
function watch<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  tracked.catch(() => undefined);
  return { promise: tracked, settled: () => done };
}

const numbers = (rows: { n: number }[]) => rows.map((r) => r.n).sort((a, b) => a - b);

describe('json store group commit', () => {
  it('acknowledges no write before the file write holding it finishes', async () => {
    const { store, disk } = await open();
    const insert = watch(store.insert('items', { n: 1 }));
    await settle();
    assert.equal(disk.waiting, 1);
    assert.equal(insert.settled(), false);
    disk.finish();
    assert.equal((await insert.promise).id, '1');
  });

  it('writes the transactions that commit during a write together in the next one', async () => {
    const { store, disk } = await open();
    const first = watch(store.insert('items', { n: 0 }));
    await settle();
    const burst = Array.from({ length: 50 }, (_, i) => watch(store.insert('items', { n: i + 1 })));
    await settle();
    // All 50 are applied in memory, waiting behind the first write.
    assert.equal(disk.waiting, 1);
    assert.ok(burst.every((w) => !w.settled()));
    disk.finish();
    await first.promise;
    await settle();
    assert.equal(disk.waiting, 1, 'one more write for the whole burst');
    assert.ok(burst.every((w) => !w.settled()));
    disk.finish();
    await Promise.all(burst.map((w) => w.promise));
    assert.equal(disk.snapshots.length, 2);
    assert.deepEqual(numbers(disk.snapshots[1]), Array.from({ length: 51 }, (_, i) => i));
  });

  it('never writes part of a transaction: a snapshot waits for the transaction in progress', async () => {
    const { store, disk } = await open();
    const first = watch(store.insert('items', { n: 1 }));
    await settle();
    const second = watch(store.insert('items', { n: 2 }));
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    const tx = watch(
      store.transaction(async (t) => {
        await t.insert('items', { n: 10 });
        await paused;
        await t.insert('items', { n: 11 });
      }),
    );
    await settle();
    disk.finish();
    await first.promise;
    await settle();
    // The next snapshot is due but the transaction holds the store: nothing is written meanwhile.
    assert.equal(disk.waiting, 0);
    resume();
    await settle();
    disk.finish();
    await Promise.all([second.promise, tx.promise]);
    assert.deepEqual(numbers(disk.snapshots[1]), [1, 2, 10, 11]);
    for (const snapshot of disk.snapshots) assert.equal(numbers(snapshot).includes(10), numbers(snapshot).includes(11));
  });

  it('makes reads wait until what they saw is on disk', async () => {
    const { store, disk } = await open();
    const insert = watch(store.insert('items', { n: 1 }));
    await settle();
    const read = watch(store.count('items'));
    await settle();
    assert.equal(read.settled(), false);
    disk.finish();
    assert.equal(await read.promise, 1);
    await insert.promise;
    // With nothing waiting for the disk, reads answer at once.
    assert.equal(await store.count('items'), 1);
  });

  it('undoes a failed write and every later commit, failing them all, then carries on', async () => {
    const { store, disk } = await open();
    await Promise.all([store.insert('items', { n: 1 }), settle().then(() => disk.finish())]);
    const lost = watch(store.insert('items', { n: 2 }));
    await settle();
    const later = watch(store.transaction(async (tx) => void (await tx.update('items', '1', { n: 100 }))));
    const read = watch(store.find('items'));
    await settle();
    disk.fail();
    await assert.rejects(lost.promise, { message: 'disk full' });
    await assert.rejects(later.promise, { message: 'disk full' });
    await assert.rejects(read.promise, { message: 'disk full' });
    const again = watch(store.insert('items', { n: 3 }));
    await settle();
    disk.finish();
    assert.equal((await again.promise).id, '2', 'the failed insert gave its id back');
    assert.deepEqual(
      (await store.find('items')).items.map((d) => [d.id, d.n]),
      [
        ['1', 1],
        ['2', 3],
      ],
    );
  });

  it('closes after the writes in flight finish', async () => {
    const { store, disk } = await open();
    const insert = watch(store.insert('items', { n: 1 }));
    await settle();
    const closing = watch(store.close());
    await settle();
    assert.equal(closing.settled(), false);
    disk.finish();
    await Promise.all([insert.promise, closing.promise]);
    await assert.rejects(store.count('items'), /closed/);
  });
});
