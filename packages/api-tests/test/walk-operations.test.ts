import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeParams, operations, scopes, type Operation } from '@reelbase/core';
import { drivers, Harness, type Fixture } from '../src/index';

const nest = (path: string, value: unknown): Record<string, unknown> =>
  path.split('.').reduceRight<unknown>((acc, key) => ({ [key]: acc }), value) as Record<string, unknown>;

const junkValues: unknown[] = [
  { deep: { er: [1, { x: null }] } },
  [1, 'two', null],
  1e308,
  -1,
  Number.MAX_SAFE_INTEGER,
  'x'.repeat(20_000),
  "' OR 1=1; DROP TABLE videos; --",
  '\u0000\uFFFF😀',
  null,
  true,
];
const junkSegments = ['%00', 'abc', '99999999999999999999999', "'%20OR%201=1", '%F0%9F%98%80', '-1', '1.5'];

const needsUser = (op: Operation): boolean =>
  op.auth === 'user' || (op.scope !== undefined && op.scope !== 'public') || op.paths.every((p) => p === '/me' || p.startsWith('/me/'));

for (const driver of drivers) {
  describe(`every operation of the table (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let videoId: string;
    const concrete = (path: string) => path.replace('{user_id}', alice.user.id).replace('{video_id}', videoId).replace(/\{\w+\}/g, '1');
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      const r = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Walk' } });
      videoId = r.body.uri.split('/').pop();
    });
    after(() => h.stop());

    for (const op of operations) {
      const label = `${op.method} ${op.paths.join(' | ')} (${op.id})`;

      if (needsUser(op)) {
        it(`${label}: anonymous → 401`, async () => {
          for (const path of op.paths) {
            const r = await h.call(op.method, concrete(path));
            assert.equal(r.status, 401, `${path}: ${r.text}`);
            assert.equal(r.body.error_code, op.invalidCredentials ?? 8003);
          }
        });
      }

      if (op.scope && op.scope !== 'public') {
        it(`${label}: a token without "${op.scope}" → 403 and nothing changes`, async () => {
          const lacking = await h.user(`Lacks ${op.scope}`, scopes.filter((s) => s !== op.scope).join(','));
          const before = await h.call('GET', `/videos/${videoId}`, { token: alice.token });
          for (const path of op.paths) {
            const r = await h.call(op.method, concrete(path).replace(alice.user.id, lacking.user.id), { token: lacking.token, json: op.method === 'GET' ? undefined : {} });
            assert.equal(r.status, 403, `${path}: ${r.text}`);
            assert.match(r.body.developer_message, new RegExp(`"${op.scope}"`));
          }
          assert.deepEqual((await h.call('GET', `/videos/${videoId}`, { token: alice.token })).body, before.body);
        });
      }

      it(`${label}: junk in every parameter and path segment never answers 5xx`, async () => {
        const method = op.method;
        for (const path of op.paths) {
          for (const { name: field } of describeParams(op.params)) {
            for (const value of junkValues) {
              const url = concrete(path);
              const r =
                method === 'GET'
                  ? await h.call(method, `${url}?${new URLSearchParams({ [field]: typeof value === 'string' ? value : JSON.stringify(value) })}`, { token: alice.token })
                  : await h.call(method, url, { token: alice.token, json: nest(field, value) });
              assert.ok(r.status < 500, `${method} ${url} ${field}=${JSON.stringify(value).slice(0, 40)} → ${r.status} ${r.text.slice(0, 200)}`);
            }
          }
          for (const segment of junkSegments) {
            const url = path.replace(/\{\w+\}/g, segment);
            const r = await h.call(method, url, { token: alice.token, raw: method === 'GET' ? undefined : 'a=%ZZ&b.c.=1' });
            assert.ok(r.status < 500, `${method} ${url} → ${r.status} ${r.text.slice(0, 200)}`);
          }
        }
      });
    }

    it('the video the walk edited is still readable and whole', async () => {
      const r = await h.call('GET', `/videos/${videoId}`, { token: alice.token });
      assert.ok(r.status === 200 || r.status === 404, r.text);
    });
  });
}
