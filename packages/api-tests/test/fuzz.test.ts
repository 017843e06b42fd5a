import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { describeParams, operations, type Operation } from '@reelbase/core';
import { drivers, Harness } from '../src/index';
import { buildWorld, counts, type World } from '../src/world';

/**
 * Property-based fuzzing of every operation of the table with fast-check: parameter objects
 * built from each operation's own struct (its field names, dot paths nested), filled with wrong
 * types, huge and negative numbers, very long strings, deep nesting, unicode and injection
 * strings, and path segments that are real ids or junk. Properties: never a 5xx, and a 4xx
 * changes no collection's count (a write either completes or changes nothing).
 * Deterministic (fixed seed) and bounded (RUNS_PER_OPERATION runs per operation).
 */
const SEED = 0x5eed11;
const RUNS_PER_OPERATION = 8;

const injections = [
  "' OR 1=1; DROP TABLE videos; --",
  '"; DELETE FROM users; --',
  '{"$gt": ""}',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%00%0d%0aSet-Cookie: x=1',
  '\u0000',
  '\uD800',
  '😀👨‍👩‍👧‍👦\u202Eevil',
  'NaN',
  'Infinity',
  '-0',
  '1e999',
  '',
  ' ',
];

const deep = (depth: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...injections),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 5_000, maxLength: 70_000, unit: fc.constantFrom('a', 'é', '😀', ' ') }).map((s) => s),
  fc.integer(),
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, Number.MIN_VALUE),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)), { maxLength: 5 }),
  fc.dictionary(fc.constantFrom('uri', 'name', '__proto__', 'constructor', 'x'), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
  fc.integer({ min: 20, max: 400 }).map(deep),
);

const pathJunk = fc.constantFrom('0', '-1', '1.5', '99999999999999999999999', 'abc', "'%20OR%201=1", '%00', '%F0%9F%98%80', '..', '%2e%2e', 'a'.repeat(3000));

const set = (target: Record<string, unknown>, dotted: string, value: unknown): void => {
  const keys = dotted.split('.');
  let node = target;
  for (const k of keys.slice(0, -1)) {
    if (typeof node[k] !== 'object' || node[k] === null || Array.isArray(node[k])) node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
};

interface Input {
  path: string;
  segments: Record<string, string | null>;
  fields: Record<string, unknown>;
  /** Instead of an object of fields: a body that is not one (array, string, deep nesting, duplicate keys). */
  weird: string | null;
  token: 'owner' | 'stranger';
}

const inputFor = (op: Operation): fc.Arbitrary<Input> => {
  const fields = describeParams(op.params).map((p) => p.name);
  const vars = [...new Set(op.paths.flatMap((p) => [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))];
  return fc.record({
    path: fc.constantFrom(...op.paths),
    segments: fc.record(Object.fromEntries(vars.map((v) => [v, fc.option(pathJunk, { freq: 3 })]))) as fc.Arbitrary<Record<string, string | null>>,
    fields: fields.length ? (fc.record(Object.fromEntries(fields.map((f) => [f, nasty])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({}),
    weird: fc.option(
      fc.oneof(
        fc.constantFrom('[1,2,3]', '"a string"', '42', 'null', '{"name":"a","name":{"x":1},"name":[1]}', '{"a":', '\u0000', '{"__proto__":{"admin":true}}'),
        // Nesting far deeper than any struct, written as text (JSON.stringify would overflow here).
        fc.integer({ min: 500, max: 50_000 }).map((d) => '{"a":['.repeat(d) + '1' + ']}'.repeat(d)),
      ),
      { freq: 6 },
    ),
    token: fc.constantFrom<'owner' | 'stranger'>('owner', 'owner', 'stranger'),
  });
};

for (const driver of drivers) {
  describe(`fuzzing every operation with fast-check (${driver.name})`, () => {
    let h: Harness;
    let w: World;
    before(async () => {
      h = await Harness.start(driver);
      w = await buildWorld(h);
    });
    after(() => h.stop());

    let runs = 0;
    const statuses: Record<string, number> = {};
    // Deletes last, so the world's objects are there for the rest.
    const ordered = [...operations].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
    it(`${ordered.length} operations × ${RUNS_PER_OPERATION} runs: never 5xx, a 4xx changes nothing`, async () => {
      // The counts after a refused write are the counts before the next one: most answers are 4xx,
      // and counting every collection is a round trip each on PostgreSQL.
      let known: Record<string, number> | null = null;
      for (const [i, op] of ordered.entries()) {
        await fc.assert(
          fc.asyncProperty(inputFor(op), async (input) => {
            runs++;
            const url = input.path.replace(/\{(\w+)\}/g, (_, v: string) => input.segments[v] ?? encodeURIComponent(w.vars[v] ?? '1'));
            const token = input.token === 'owner' ? w.a.token : w.b.token;
            const before = op.method === 'GET' ? null : (known ??= await counts(h));
            known = null;
            let r;
            if (op.method === 'GET') {
              const query = new URLSearchParams();
              for (const [k, v] of Object.entries(input.fields)) query.set(k, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
              r = await h.call('GET', `${url}?${query.toString().slice(0, 60_000)}`, { token });
            } else if (input.weird !== null) {
              r = await h.call(op.method, url, { token, raw: input.weird, headers: { 'content-type': 'application/json' } });
            } else {
              const body: Record<string, unknown> = {};
              for (const [k, v] of Object.entries(input.fields)) set(body, k, v);
              r = await h.call(op.method, url, { token, json: body });
            }
            statuses[`${String(r.status)[0]}xx`] = (statuses[`${String(r.status)[0]}xx`] ?? 0) + 1;
            const what = `${op.id}: ${op.method} ${url.slice(0, 120)} → ${r.status} ${r.text.slice(0, 200)}`;
            assert.ok(r.status < 500, what);
            if (before && r.status >= 400) {
              assert.deepEqual(await counts(h), before, `a ${r.status} changed the store: ${what}`);
              known = before;
            }
          }),
          { seed: SEED + i, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
        );
      }
    });
    it('run count', (t) => {
      t.diagnostic(`fuzz (${driver.name}): ${runs} runs over ${ordered.length} operations (seed ${SEED}); answers ${JSON.stringify(statuses)}`);
      assert.equal(runs, ordered.length * RUNS_PER_OPERATION);
    });
  });
}
