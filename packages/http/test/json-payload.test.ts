import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { deepFreeze, splice } from '@reelbase/core';
import { jsonPayload, type JsonPayload } from '../src/json-payload';

/** The payload's pieces as one text. */
const text = (p: JsonPayload): string => p.chunks.map(String).join('');

/** JSON-like values with what JSON.stringify treats specially: undefined fields and items, Dates, escapes. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: true })),
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object'), tie('frozen'), tie('frozenArray'), tie('spliced')),
  array: fc.array(tie('node'), { maxLength: 5 }),
  object: fc.dictionary(fc.string(), tie('node'), { maxKeys: 6 }),
  frozen: tie('object').map((o) => deepFreeze(o as object)),
  frozenArray: tie('array').map((a) => deepFreeze(a as unknown[])),
  // A shared base with one of its fields replaced (an empty base has none to replace).
  spliced: fc.tuple(tie('object'), tie('node'), fc.nat()).map(([o, value, pick]) => {
    const base = deepFreeze(o as Record<string, unknown>);
    const keys = Object.keys(base);
    return keys.length ? splice(base, keys[pick % keys.length], value) : base;
  }),
}));

describe('jsonPayload', () => {
  it('answers exactly what JSON.stringify answers, whatever is frozen within', () => {
    fc.assert(
      fc.property(value.node, (body) => {
        const expected = JSON.stringify(body) ?? 'null';
        // Twice: the second reuses the texts the first remembered.
        for (let i = 0; i < 2; i++) {
          const payload = jsonPayload(body);
          assert.deepEqual({ data: text(payload), bytes: payload.bytes }, { data: expected, bytes: Buffer.byteLength(expected) });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes a body around a shared frozen part without serialising the part again', () => {
    const part = deepFreeze({ name: 'shared', sizes: [1, 2, 3] });
    jsonPayload({ a: part });
    const stringify = JSON.stringify;
    const seen: unknown[] = [];
    JSON.stringify = ((v: unknown, ...rest: []) => (seen.push(v), stringify(v, ...rest))) as typeof JSON.stringify;
    try {
      const payload = jsonPayload({ list: [{ part, own: 'é' }], n: 1 });
      assert.equal(payload.bytes, 70);
      assert.equal(text(payload), '{"list":[{"part":{"name":"shared","sizes":[1,2,3]},"own":"é"}],"n":1}');
    } finally {
      JSON.stringify = stringify;
    }
    assert.ok(!seen.includes(part), 'the frozen part was serialised again');
  });

  it("writes a shared page of shared items as the items' own bytes", () => {
    const items = [deepFreeze({ id: 1 }), deepFreeze({ id: 2, name: 'two' })];
    const own = items.map((item) => jsonPayload({ item }).chunks.find(Buffer.isBuffer));
    const page = deepFreeze([...items]);
    for (let i = 0; i < 2; i++) {
      const payload = jsonPayload({ total: 2, data: page });
      assert.equal(text(payload), '{"total":2,"data":[{"id":1},{"id":2,"name":"two"}]}');
      assert.deepEqual(
        payload.chunks.filter(Buffer.isBuffer).map((chunk) => own.indexOf(chunk)),
        [0, 1],
        'the very buffers of the items, no copy',
      );
    }
  });

  it("writes a spliced object as its base's text with the new field, once", () => {
    const base = deepFreeze({ uri: '/videos/1', metadata: { interactions: {} }, name: 'Film' });
    const spliced = splice(base, 'metadata', { interactions: { like: { added: true } } });
    const payload = jsonPayload(spliced);
    assert.equal(text(payload), '{"uri":"/videos/1","metadata":{"interactions":{"like":{"added":true}}},"name":"Film"}');
    assert.equal(jsonPayload(spliced).chunks[0], payload.chunks[0], 'the same bytes, made once');
    assert.equal(text(jsonPayload(splice(base, 'metadata', undefined))), '{"uri":"/videos/1","name":"Film"}');
    // Deep-frozen, so its remembered text stays true.
    assert.throws(() => ((spliced as { name: string }).name = 'Changed'), TypeError);
    assert.throws(() => ((spliced.metadata as { interactions: object }).interactions = {}), TypeError);
  });
});
