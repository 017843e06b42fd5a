import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyJson, deepFreeze, isShared, ScopeStorage } from '../src/index';

describe('copyJson', () => {
  it('copies JSON data all the way down', () => {
    const value = { a: 1, b: 'x', c: null, d: [1, { e: [true, false] }], f: { g: { h: 0.5 } }, empty: {}, none: [] };
    const copy = copyJson(value);
    assert.deepEqual(copy, value);
    copy.d.push(2);
    (copy.f.g as { h: number }).h = 9;
    assert.deepEqual(value.d, [1, { e: [true, false] }]);
    assert.equal(value.f.g.h, 0.5);
    assert.equal(copyJson('text'), 'text');
    assert.equal(copyJson(null), null);
  });

  it('keeps an own "__proto__" key a key, never the prototype', () => {
    const parsed = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const copy = copyJson(parsed);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.deepEqual(Object.keys(copy), ['a', '__proto__']);
    assert.equal((copy as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value, { polluted: true });
  });
});

describe('deepFreeze', () => {
  it('freezes and marks every part shared, and the mark shows in no copy, key walk or JSON', () => {
    const value = { a: { b: [1, { c: 'x' }] }, d: null };
    assert.equal(isShared(value), false);
    const frozen = deepFreeze(value);
    assert.equal(frozen, value);
    for (const part of [value, value.a, value.a.b, value.a.b[1]]) {
      assert.equal(Object.isFrozen(part), true);
      assert.equal(isShared(part), true);
    }
    assert.deepEqual(Object.keys(value), ['a', 'd']);
    assert.equal(JSON.stringify(value), '{"a":{"b":[1,{"c":"x"}]},"d":null}');
    assert.equal(isShared({ ...value }), false);
    assert.equal(isShared(copyJson(value)), false);
    assert.equal(isShared(structuredClone(value)), false);
    assert.deepStrictEqual(value, { a: { b: [1, { c: 'x' }] }, d: null });
  });

  it('shares a value frozen before it saw it, and what that value holds', () => {
    const inner = { n: 1 };
    const outer = Object.freeze({ inner });
    assert.equal(isShared(outer), false);
    deepFreeze(outer);
    assert.equal(isShared(outer), true);
    assert.equal(isShared(inner), true);
    assert.equal(Object.isFrozen(inner), true);
  });

  it('answers not shared for primitives and null', () => {
    for (const v of [null, undefined, 1, 'x', true]) assert.equal(isShared(v), false);
  });
});

describe('ScopeStorage', () => {
  const later = () => new Promise((resolve) => setImmediate(resolve));

  it('names the running scope in everything the scope starts, and nothing outside it', async () => {
    const storage = new ScopeStorage<string>();
    assert.equal(storage.getStore(), undefined);
    let leaked: Promise<string | undefined> | undefined;
    const seen = await storage.run('a', async () => {
      await later();
      // Started inside the scope, looked at after it ended.
      leaked = later().then(() => later()).then(() => storage.getStore());
      return storage.getStore();
    });
    assert.equal(seen, 'a');
    assert.equal(storage.getStore(), undefined);
    assert.equal(await leaked, undefined, 'no scope runs any more');
  });

  it('keeps concurrent scopes apart and ends a scope whose callback fails', async () => {
    const storage = new ScopeStorage<string>();
    const inside = (name: string) =>
      storage.run(name, async () => {
        await later();
        const first = storage.getStore();
        await later();
        return [first, storage.getStore()];
      });
    assert.deepEqual(await Promise.all([inside('a'), inside('b'), inside('c')]), [
      ['a', 'a'],
      ['b', 'b'],
      ['c', 'c'],
    ]);
    await assert.rejects(
      storage.run('d', async () => {
        await later();
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(storage.getStore(), undefined);
    assert.equal(await storage.run('e', async () => (await later(), storage.getStore())), 'e');
  });
});
