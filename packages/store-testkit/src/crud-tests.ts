import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq, gte, or, StoreConflictError, type Doc } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { ids, withStore } from './fixtures';

/** insert/get/update/delete/deleteWhere/count/increment and copy semantics. */
export function crudTests(driver: StoreTestDriver): void {
  describe('documents', () => {
    it('insert assigns increasing numeric string ids per collection and returns the stored document', () =>
      withStore(driver, async (store) => {
        const a = await store.insert('people', { name: 'A', age: 1 });
        const b = await store.insert('people', { name: 'B' });
        const f = await store.insert('follows', { user_id: '1', target_id: '2' });
        assert.deepEqual(a, { id: '1', name: 'A', age: 1 });
        assert.deepEqual(b, { id: '2', name: 'B' });
        assert.deepEqual(f, { id: '1', user_id: '1', target_id: '2' });
        assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'A', age: 1 });
        assert.deepEqual(await store.get('follows', '1'), { id: '1', user_id: '1', target_id: '2' });
      }));

    it('never reuses an auto id after delete or deleteWhere', () =>
      withStore(driver, async (store) => {
        for (const name of ['A', 'B', 'C']) await store.insert('people', { name });
        assert.equal(await store.delete('people', '3'), true);
        assert.equal((await store.insert('people', { name: 'D' })).id, '4');
        assert.equal(await store.deleteWhere('people', gte('name', '')), 3);
        assert.equal((await store.insert('people', { name: 'E' })).id, '5');
        assert.deepEqual(ids(await store.find('people')), ['5']);
      }));

    it('ignores a caller-supplied id in an auto collection', () =>
      withStore(driver, async (store) => {
        const doc = await store.insert('people', { id: '77', name: 'A' });
        assert.equal(doc.id, '1');
        assert.equal(await store.get('people', '77'), null);
        assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'A' });
      }));

    it('honours text ids and rejects a duplicate one with StoreConflictError', () =>
      withStore(driver, async (store) => {
        assert.deepEqual(await store.insert('tags', { id: 'rock', label: 'Rock' }), { id: 'rock', label: 'Rock' });
        assert.deepEqual(await store.get('tags', 'rock'), { id: 'rock', label: 'Rock' });
        await assert.rejects(store.insert('tags', { id: 'rock', label: 'Other' }), { name: 'StoreConflictError' });
        assert.deepEqual(await store.get('tags', 'rock'), { id: 'rock', label: 'Rock' });
        assert.equal(await store.count('tags'), 1);
      }));

    it('get answers null for a missing id or a different collection', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A' });
        assert.equal(await store.get('people', '2'), null);
        assert.equal(await store.get('follows', '1'), null);
        assert.equal(await store.get('tags', '1'), null);
      }));

    it('update shallow-merges, removes fields set to undefined, keeps null and replaces nested values whole', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A', age: 30, city: 'Paris', profile: { bio: 'x', links: ['a'] } });
        const updated = await store.update('people', '1', { age: 31, city: undefined, score: null, profile: { bio: 'y' } });
        const expected = { id: '1', name: 'A', age: 31, score: null, profile: { bio: 'y' } };
        assert.deepEqual(updated, expected);
        assert.deepEqual(await store.get('people', '1'), expected);
        assert.deepEqual(await store.update('people', '1', {}), expected);
        assert.equal(await store.count('people', eq('city', 'Paris')), 0);
      }));

    it('update of a missing document answers null and creates nothing', () =>
      withStore(driver, async (store) => {
        assert.equal(await store.update('people', '1', { name: 'A' }), null);
        assert.equal(await store.count('people'), 0);
        assert.equal((await store.insert('people', { name: 'B' })).id, '1');
      }));

    it('delete answers whether a document was deleted', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A' });
        await store.insert('people', { name: 'B' });
        assert.equal(await store.delete('people', '1'), true);
        assert.equal(await store.delete('people', '1'), false);
        assert.equal(await store.delete('people', '99'), false);
        assert.equal(await store.get('people', '1'), null);
        assert.deepEqual(ids(await store.find('people')), ['2']);
      }));

    it('deleteWhere deletes exactly the matches and answers how many; count follows', () =>
      withStore(driver, async (store) => {
        for (const age of [10, 20, 30, 40, 50]) await store.insert('people', { name: `P${age}`, age });
        assert.equal(await store.count('people'), 5);
        assert.equal(await store.deleteWhere('people', or(eq('age', 20), gte('age', 40))), 3);
        assert.equal(await store.deleteWhere('people', eq('age', 99)), 0);
        assert.deepEqual(ids(await store.find('people')), ['1', '3']);
        assert.equal(await store.count('people'), 2);
        assert.equal(await store.count('people', eq('age', 30)), 1);
        assert.equal(await store.deleteWhere('people', { and: [] }), 2);
        assert.equal(await store.count('people'), 0);
      }));

    it('increment adds to a numeric field (missing counts as 0) and answers the document', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A', age: 30, score: 1.5 });
        assert.deepEqual(await store.increment('people', '1', 'age', 1), { id: '1', name: 'A', age: 31, score: 1.5 });
        assert.equal((await store.increment<Doc & { age: number }>('people', '1', 'age', -5))?.age, 26);
        assert.equal((await store.increment<Doc & { score: number }>('people', '1', 'score', 0.25))?.score, 1.75);
        assert.equal((await store.increment<Doc & { plays: number }>('people', '1', 'plays', 3))?.plays, 3);
        assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'A', age: 26, score: 1.75, plays: 3 });
        assert.equal(await store.increment('people', '2', 'age', 1), null);
        assert.equal(await store.count('people'), 1);
      }));

    it('concurrent root increments and inserts all land', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A', age: 0 });
        await Promise.all(Array.from({ length: 10 }, () => store.increment('people', '1', 'age', 1)));
        const inserted = await Promise.all(Array.from({ length: 10 }, (_, i) => store.insert('people', { name: `P${i}` })));
        assert.equal((await store.get<Doc & { age: number }>('people', '1'))?.age, 10);
        assert.deepEqual(inserted.map((d) => d.id).sort((a, b) => Number(a) - Number(b)), ['2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
      }));

    it('nested JSON values round-trip exactly through insert, get, find and update', () =>
      withStore(driver, async (store) => {
        const rich = {
          name: 'Zoë 日本 🎬',
          city: null,
          meta: { a: { b: [1, 'two', null, true, { c: [] }] }, empty: {}, 'dotted.key': 1, $dollar: 'x' },
          list: [{ x: 1 }, [2, [3]], 'str', 0.1, -7, 9007199254740991],
          text: 'quote " apostrophe \' backslash \\ newline \n tab \t',
          flag: false,
          zero: 0,
          blank: '',
        };
        const inserted = await store.insert('people', rich);
        assert.deepEqual(inserted, { id: '1', ...rich });
        assert.deepEqual(await store.get('people', '1'), { id: '1', ...rich });
        assert.deepEqual((await store.find('people')).items, [{ id: '1', ...rich }]);
        const updated = await store.update('people', '1', { age: 3 });
        assert.deepEqual(updated, { id: '1', ...rich, age: 3 });
        assert.deepEqual(await store.get('people', '1'), { id: '1', ...rich, age: 3 });
      }));

    it('insertMany inserts in order and answers the ids', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'Before' });
        const input = [{ name: 'A', age: 1 }, { name: 'B', email: 'b@x', gone: undefined }, { name: 'C', tags: ['x'], at: new Date('2026-01-02T03:04:05Z') }];
        assert.deepEqual(await store.insertMany('people', input), ['2', '3', '4']);
        (input[2].tags as string[]).push('mutated-input');
        assert.deepEqual(await Promise.all(['2', '3', '4'].map((id) => store.get('people', id))), [
          { id: '2', name: 'A', age: 1 },
          { id: '3', name: 'B', email: 'b@x' },
          { id: '4', name: 'C', tags: ['x'], at: '2026-01-02T03:04:05.000Z' },
        ]);
        assert.deepEqual(ids(await store.find('people', { where: eq('email', 'b@x') })), ['3']);
        assert.deepEqual(await store.insertMany('people', []), []);
        assert.deepEqual(await store.insertMany('tags', [{ id: 'b', label: 'B' }, { id: 'a', label: 'A' }]), ['b', 'a']);
        assert.deepEqual(await store.get('tags', 'b'), { id: 'b', label: 'B' });
        assert.equal((await store.insert('people', { name: 'After' })).id, '5');
      }));

    it('insertMany of many documents answers each its own id, in order (a driver may write them several to a statement)', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'Before' });
        const people = Array.from({ length: 70 }, (_, i) => ({ name: `P${i}`, age: i, ...(i % 3 === 0 ? { email: `p${i}@x` } : {}) }));
        const ids = await store.insertMany('people', people);
        assert.deepEqual(ids, people.map((_, i) => String(i + 2)));
        for (const [i, id] of ids.entries()) assert.deepEqual(await store.get('people', id), { id, ...people[i] });
        const tags = Array.from({ length: 70 }, (_, i) => ({ id: `t${69 - i}`, label: `L${i}` }));
        assert.deepEqual(await store.insertMany('tags', tags), tags.map((t) => t.id));
        assert.deepEqual(await store.get('tags', 't0'), { id: 't0', label: 'L69' });
        assert.equal(await store.count('tags'), 70);
        assert.equal((await store.insert('people', { name: 'After' })).id, '72');
        await assert.rejects(store.insertMany('people', people.slice(0, 40).map((p, i) => (i === 35 ? { ...p, email: 'p0@x' } : { name: p.name }))), StoreConflictError);
        assert.equal(await store.count('people'), 72);
      }));

    it('applies insertMany calls made without waiting in the order they were made', () =>
      withStore(driver, async (store) => {
        const batch = (n: number) => Array.from({ length: 40 }, (_, i) => ({ name: `B${n}-${i}` }));
        const calls = [store.insertMany('people', batch(0)), store.insertMany('people', batch(1)), store.insertMany('people', batch(2))];
        const clash = assert.rejects(store.insertMany('people', [{ name: 'X', email: 'x@x' }, { name: 'Y', email: 'x@x' }]), StoreConflictError);
        const last = store.insertMany('people', batch(3));
        const answered = [...(await Promise.all(calls)), await last];
        await clash;
        assert.deepEqual(answered.slice(0, 3).flat(), Array.from({ length: 120 }, (_, i) => String(i + 1)));
        // A driver may spend ids on the failed call: the last call's come after the others, in order.
        const lastIds = answered[3].map(Number);
        assert.ok(lastIds[0] > 120 && lastIds.every((id, i) => i === 0 || id === lastIds[i - 1] + 1), String(lastIds));
        const stored = await store.find('people', { orderBy: [{ field: 'id', direction: 'asc' }] });
        assert.deepEqual(stored.items.map((p) => p.name), [0, 1, 2, 3].flatMap((n) => batch(n).map((p) => p.name)));
      }));

    it('filters and sorts on a field as its stored JSON holds it (a Date as its ISO string), however it was written', () =>
      withStore(driver, async (store) => {
        const at = (day: number) => new Date(Date.UTC(2026, 0, day));
        await store.insert('people', { name: 'A', city: at(1) });
        await store.insertMany('people', [{ name: 'B', city: at(2) }]);
        await store.insertWithId('people', { id: '7', name: 'C', city: at(3) } as Doc);
        await store.insert('people', { name: 'D', city: 'x' });
        await store.update('people', '8', { city: at(4) });
        for (const day of [1, 2, 3, 4]) {
          const iso = at(day).toISOString();
          assert.deepEqual((await store.find('people', { where: eq('city', iso) })).items.map((p) => [p.name, p.city]), [[['A', 'B', 'C', 'D'][day - 1], iso]]);
        }
        assert.deepEqual(ids(await store.find('people', { where: gte('city', at(2).toISOString()), orderBy: [{ field: 'city', direction: 'desc' }] })), ['8', '7', '2']);
      }));

    it('insertMany writes none of its documents when one clashes, on the root store and in a transaction', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'Taken', email: 'taken@x' });
        const clashing = [{ name: 'A', email: 'a@x' }, { name: 'B', email: 'taken@x' }, { name: 'C' }];
        await assert.rejects(store.insertMany('people', clashing), StoreConflictError);
        await assert.rejects(store.insertMany('tags', [{ id: 'x' }, { id: 'x' }]), StoreConflictError);
        assert.equal(await store.count('people'), 1);
        assert.equal(await store.count('tags'), 0);
        await store.transaction(async (tx) => {
          await tx.insert('people', { name: 'Kept', email: 'kept@x' });
          await assert.rejects(tx.insertMany('people', [{ name: 'D', email: 'd@x' }, { name: 'E', email: 'kept@x' }]), StoreConflictError);
          assert.equal(await tx.count('people'), 2);
          await tx.insertMany('people', [{ name: 'F', email: 'f@x' }]);
        });
        assert.deepEqual(
          (await store.find('people', { orderBy: [{ field: 'name', direction: 'asc' }] })).items.map((p) => p.name),
          ['F', 'Kept', 'Taken'],
        );
      }));

    it('callers never share objects with stored state', () =>
      withStore(driver, async (store) => {
        const input = { name: 'A', meta: { tags: ['x'] } };
        const inserted = await store.insert('people', input);
        input.meta.tags.push('mutated-input');
        inserted.meta = 'mutated-result';
        // A read's answer is never to be changed (a driver may share it, frozen): trying either
        // fails with a TypeError or changes a copy; stored state stays as it was either way.
        const got = (await store.get<Doc & { meta: { tags: string[] } }>('people', '1'))!;
        attempt(() => got.meta.tags.push('mutated-get'));
        const found = (await store.find<Doc & { meta: { tags: string[] } }>('people')).items[0];
        attempt(() => found.meta.tags.push('mutated-find'));
        const patch = { meta: { tags: ['y'] } };
        const updated = (await store.update<Doc & { meta: { tags: string[] } }>('people', '1', patch))!;
        patch.meta.tags.push('mutated-patch');
        updated.meta.tags.push('mutated-update');
        const one = (await store.findOne<Doc & { meta: { tags: string[] } }>('people', eq('name', 'A')))!;
        attempt(() => one.meta.tags.push('mutated-findOne'));
        const again = (await store.get<Doc & { meta: { tags: string[] } }>('people', '1'))!;
        attempt(() => (again.name = 'mutated-get-again'));
        assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'A', meta: { tags: ['y'] } });
        assert.deepEqual((await store.find('people')).items, [{ id: '1', name: 'A', meta: { tags: ['y'] } }]);
      }));

    it('answers what was stored last to reads repeated between writes', () =>
      withStore(driver, async (store) => {
        await store.insert('people', { name: 'A', age: 1 });
        assert.equal(await store.get('people', '2'), null);
        for (let i = 0; i < 3; i++) assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'A', age: 1 });
        await store.update('people', '1', { age: 2 });
        assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'A', age: 2 });
        await store.insert('people', { name: 'B' });
        assert.deepEqual(await store.get('people', '2'), { id: '2', name: 'B' });
        await store.increment('people', '1', 'age', 5);
        assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'A', age: 7 });
        await store.transaction(async (tx) => {
          await tx.update('people', '1', { name: 'Z' });
          assert.deepEqual(await tx.get('people', '1'), { id: '1', name: 'Z', age: 7 });
        });
        assert.deepEqual(await store.get('people', '1'), { id: '1', name: 'Z', age: 7 });
        await store.delete('people', '1');
        assert.equal(await store.get('people', '1'), null);
      }));
  });
}

/** Tries to change a read's answer: a frozen (shared) answer refuses with a TypeError, a copy takes it. */
function attempt(change: () => unknown): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}
