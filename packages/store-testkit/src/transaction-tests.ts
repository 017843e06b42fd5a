import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreConflictError, eq, type Doc, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { delay, gate, ids, snapshot, withStore } from './fixtures';

type Person = Doc & { name: string; age?: number };

/** Seeds two people and a follow; answers the state to compare a rollback with. */
async function seedSmall(store: Store): Promise<Record<string, Doc[]>> {
  await store.insert('people', { name: 'A', age: 30, score: 1 });
  await store.insert('people', { name: 'B', age: 40 });
  await store.insert('follows', { user_id: '1', target_id: '2' });
  await store.insert('tags', { id: 't', label: 'T', uses: 1 });
  return snapshot(store);
}

/** Every kind of write, through `tx`. */
async function writeEverything(tx: Store): Promise<void> {
  await tx.insert('people', { name: 'C' });
  await tx.update('people', '1', { age: 31, name: undefined });
  await tx.increment('people', '1', 'score', 5);
  await tx.delete('people', '2');
  await tx.deleteWhere('follows', eq('user_id', '1'));
  await tx.insert('follows', { user_id: '2', target_id: '1' });
  await tx.insert('tags', { id: 'u', label: 'U' });
  await tx.increment('tags', 't', 'uses', 1);
}

export function transactionTests(driver: StoreTestDriver): void {
  describe('transactions', () => {
    it('commits every write and answers the callback result', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        assert.equal(await store.transaction(async (tx) => (await writeEverything(tx), 'done')), 'done');
        assert.deepEqual(await snapshot(store), {
          people: [
            { id: '1', age: 31, score: 6 },
            { id: '3', name: 'C' },
          ],
          follows: [{ id: '2', user_id: '2', target_id: '1' }],
          tags: [
            { id: 't', label: 'T', uses: 2 },
            { id: 'u', label: 'U' },
          ],
        });
      }));

    it('writes made through tx are visible to the callback', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        await store.transaction(async (tx) => {
          const c = await tx.insert<Person>('people', { name: 'C' });
          assert.deepEqual(await tx.get('people', c.id), c);
          await tx.delete('people', '2');
          await tx.update('people', '1', { age: 99 });
          assert.deepEqual(ids(await tx.find('people')), ['1', c.id]);
          assert.equal(await tx.count('people', eq('age', 99)), 1);
          assert.equal((await tx.findOne('people', eq('name', 'C')))?.id, c.id);
        });
      }));

    it('a thrown error rolls back every write and is rethrown as is', () =>
      withStore(driver, async (store) => {
        const before = await seedSmall(store);
        const boom = new Error('boom');
        await assert.rejects(
          store.transaction(async (tx) => {
            await writeEverything(tx);
            throw boom;
          }),
          (error) => error === boom,
        );
        assert.deepEqual(await snapshot(store), before);
        // A rolled-back auto id may be reused or skipped, never collide.
        const next = await store.insert('people', { name: 'D' });
        assert.ok(Number(next.id) >= 3, `got ${next.id}`);
        assert.equal(await store.count('people'), 3);
      }));

    it('an uncaught conflict rolls back the whole transaction', () =>
      withStore(driver, async (store) => {
        const before = await seedSmall(store);
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.insert('people', { name: 'C' });
            await tx.insert('follows', { user_id: '1', target_id: '2' });
          }),
          StoreConflictError,
        );
        assert.deepEqual(await snapshot(store), before);
      }));

    it('a conflict caught inside the callback leaves the other writes to commit', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        await store.transaction(async (tx) => {
          await tx.insert('people', { name: 'C' });
          await assert.rejects(tx.insert('follows', { user_id: '1', target_id: '2' }), StoreConflictError);
          await assert.rejects(tx.insert('tags', { id: 't', label: 'dup' }), StoreConflictError);
          await tx.insert('follows', { user_id: '2', target_id: '1' });
        });
        assert.deepEqual(ids(await store.find('people')), ['1', '2', '3']);
        assert.equal(await store.count('follows'), 2);
        assert.deepEqual(await store.get('tags', 't'), { id: 't', label: 'T', uses: 1 });
      }));

    it('a failed nested transaction caught by the outer one undoes only its own writes', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        const inner = new Error('inner');
        const result = await store.transaction(async (tx) => {
          await tx.insert('people', { name: 'outer-before' });
          await assert.rejects(
            tx.transaction(async (tx2) => {
              await tx2.insert('people', { name: 'inner' });
              await tx2.update('people', '1', { age: 0 });
              await tx2.delete('people', '2');
              await tx2.increment('tags', 't', 'uses', 10);
              throw inner;
            }),
            (error) => error === inner,
          );
          assert.equal(await tx.count('people', eq('name', 'inner')), 0);
          assert.equal((await tx.get<Person>('people', '1'))?.age, 30);
          const nested = await tx.transaction(async (tx2) => (await tx2.insert<Person>('people', { name: 'inner-ok' })).name);
          await tx.insert('people', { name: 'outer-after' });
          return nested;
        });
        assert.equal(result, 'inner-ok');
        const names = (await store.find<Person>('people')).items.map((p) => p.name);
        assert.deepEqual(names, ['A', 'B', 'outer-before', 'inner-ok', 'outer-after']);
        assert.equal((await store.get<Person>('people', '1'))?.age, 30);
        assert.equal((await store.get<Doc & { uses: number }>('tags', 't'))?.uses, 1);
      }));

    it('writes of a successful nested transaction roll back with a failing outer one', () =>
      withStore(driver, async (store) => {
        const before = await seedSmall(store);
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.transaction(async (tx2) => {
              await tx2.insert('people', { name: 'inner' });
              await tx2.transaction(async (tx3) => tx3.update('people', '1', { age: 1 }));
            });
            throw new Error('outer');
          }),
          { message: 'outer' },
        );
        assert.deepEqual(await snapshot(store), before);
      }));

    it('concurrent transactions are serialised: read-modify-write in each both land', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A', age: 0 });
        const events: string[] = [];
        const bump = (label: string) =>
          store.transaction(async (tx) => {
            events.push(`${label} start`);
            const person = (await tx.get<Person>('people', '1'))!;
            await delay(10);
            await tx.update('people', '1', { age: (person.age ?? 0) + 1 });
            events.push(`${label} end`);
          });
        await Promise.all([bump('a'), bump('b'), bump('c')]);
        assert.equal((await store.get<Person>('people', '1'))?.age, 3);
        for (let i = 0; i < events.length; i += 2) assert.equal(events[i].split(' ')[0], events[i + 1].split(' ')[0], events.join(', '));
      }));

    it('root reads during an open transaction never see its uncommitted writes', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        const inside = gate();
        const release = gate();
        const tx = store.transaction(async (tx) => {
          await tx.insert('people', { name: 'uncommitted' });
          await tx.update('people', '1', { age: 0 });
          inside.open();
          await release.promise;
          throw new Error('rollback');
        });
        await inside.promise;
        const reads = Promise.all([store.count('people'), store.get<Person>('people', '1'), store.find('people')]);
        await delay(5);
        release.open();
        await assert.rejects(tx, { message: 'rollback' });
        const [count, first, all] = await reads;
        assert.equal(count, 2);
        assert.equal(first?.age, 30);
        assert.deepEqual(ids(all), ['1', '2']);
      }));

    it('root reads and writes overlapping a committing transaction end consistent', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        const inside = gate();
        const release = gate();
        const tx = store.transaction(async (tx) => {
          await tx.insert('people', { name: 'C' });
          inside.open();
          await release.promise;
          await tx.increment('people', '1', 'age', 1);
        });
        await inside.promise;
        const count = store.count('people');
        const write = store.increment('people', '2', 'age', 1);
        await delay(5);
        release.open();
        await tx;
        assert.ok([2, 3].includes(await count), 'a concurrent read sees the state before or after');
        await write;
        assert.deepEqual(
          (await store.find<Person>('people')).items.map((p) => [p.name, p.age]),
          [
            ['A', 31],
            ['B', 41],
            ['C', undefined],
          ],
        );
      }));

    it('a root write overlapping a failing transaction is not rolled back with it', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        const inside = gate();
        const release = gate();
        const tx = store.transaction(async (tx) => {
          await tx.insert('people', { name: 'tx' });
          inside.open();
          await release.promise;
          throw new Error('rollback');
        });
        await inside.promise;
        const write = store.insert<Person>('people', { name: 'root' });
        await delay(5);
        release.open();
        await assert.rejects(tx, { message: 'rollback' });
        await write;
        assert.deepEqual(
          (await store.find<Person>('people')).items.map((p) => p.name),
          ['A', 'B', 'root'],
        );
      }));

    it('of concurrent transactions, one that throws mid-way loses its writes and the others keep theirs', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        const boom = new Error('boom');
        const settled = await Promise.allSettled([
          store.transaction(async (tx) => (await tx.insert<Person>('people', { name: 'C' })).name),
          store.transaction(async (tx) => {
            await tx.insert('people', { name: 'lost' });
            await tx.increment('people', '1', 'score', 100);
            await tx.transaction(async (tx2) => tx2.insert('tags', { id: 'lost', label: 'L' }));
            throw boom;
          }),
          store.insert<Person>('people', { name: 'D' }).then((person) => person.name),
          store.transaction(async (tx) => {
            await tx.transaction(async (tx2) => tx2.increment('people', '1', 'score', 1));
            return (await tx.get<Doc & { score: number }>('people', '1'))?.score;
          }),
        ]);
        assert.deepEqual(
          settled.map((s) => (s.status === 'fulfilled' ? s.value : s.reason)),
          ['C', boom, 'D', 2],
        );
        assert.deepEqual(
          (await store.find<Person>('people')).items.map((p) => p.name),
          ['A', 'B', 'C', 'D'],
        );
        assert.equal((await store.get<Doc & { score: number }>('people', '1'))?.score, 2);
        assert.deepEqual(ids(await store.find('tags')), ['t']);
      }));

    it('of concurrent transactions, one that violates a unique key fails alone, even against another of them', () =>
      withStore(driver, async (store) => {
        await seedSmall(store);
        const settled = await Promise.allSettled([
          store.transaction(async (tx) => tx.insert('follows', { user_id: '2', target_id: '1' })),
          store.transaction(async (tx) => {
            await tx.insert('people', { name: 'C' });
            await tx.insert('follows', { user_id: '1', target_id: '2' });
          }),
          store.transaction(async (tx) => tx.insert('follows', { user_id: '2', target_id: '1' })),
          store.transaction(async (tx) => tx.insert('tags', { id: 'u', label: 'U' })),
        ]);
        assert.deepEqual(
          settled.map((s) => s.status),
          ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
        );
        for (const i of [1, 2]) assert.ok((settled[i] as PromiseRejectedResult).reason instanceof StoreConflictError, `transaction ${i}`);
        assert.deepEqual(
          (await store.find('follows')).items.map((f) => [f.user_id, f.target_id]),
          [
            ['1', '2'],
            ['2', '1'],
          ],
        );
        assert.deepEqual(ids(await store.find('people')), ['1', '2']);
        assert.deepEqual(ids(await store.find('tags')), ['t', 'u']);
      }));
  });
}
