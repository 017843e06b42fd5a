import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../src/store/store';
import { GenerationMemory } from '../src/store/generation-memory';

/** A store whose generation the test moves by hand (undefined: a driver that offers none). */
const storeAt = (at: { generation?: number }): Store => ({ generation: at.generation === undefined ? undefined : () => at.generation! }) as unknown as Store;

describe('GenerationMemory', () => {
  it('answers what it read again while the generation stands, and reads again once it moved', async () => {
    const at = { generation: 1 };
    const store = storeAt(at);
    const memory = new GenerationMemory<number>(4);
    const about = {};
    let reads = 0;
    const read = async () => ++reads;
    assert.equal(await memory.get(store, about, 'k', read), 1);
    assert.equal(await memory.get(store, about, 'k', read), 1);
    at.generation = 2;
    assert.equal(await memory.get(store, about, 'k', read), 2);
    assert.equal(await memory.get(store, about, 'k', read), 2);
    assert.equal(reads, 2);
  });

  it('keeps each object, key and store apart, and a few keys per object', async () => {
    const memory = new GenerationMemory<string>(2);
    const one = storeAt({ generation: 1 });
    const other = storeAt({ generation: 1 });
    const a = {};
    const b = {};
    let reads = 0;
    const read = (what: string) => async () => (reads++, what);
    assert.equal(await memory.get(one, a, 'x', read('a x')), 'a x');
    assert.equal(await memory.get(one, b, 'x', read('b x')), 'b x');
    assert.equal(await memory.get(one, a, 'y', read('a y')), 'a y');
    assert.equal(await memory.get(other, a, 'y', read('a y, other store')), 'a y, other store');
    assert.equal(reads, 4);
    assert.equal(await memory.get(one, b, 'x', read('again')), 'b x');
    // Two keys per object (x, then y, last read from the other store): a third pushes out the oldest.
    assert.equal(await memory.get(one, a, 'z', read('a z')), 'a z');
    assert.equal(await memory.get(other, a, 'y', read('a y, again')), 'a y, other store');
    assert.equal(await memory.get(one, a, 'x', read('a x, read again')), 'a x, read again');
  });

  it('reads every time from a store that offers no generation', async () => {
    const store = storeAt({});
    const memory = new GenerationMemory<number>(4);
    let reads = 0;
    for (let i = 0; i < 3; i++) await memory.get(store, store, 'k', async () => ++reads);
    assert.equal(reads, 3);
  });
});
