import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { createService, createToken, createUser, operations, parseScopes, schema, type Operation, type Service } from '@reelbase/core';
import { serve, type RunningServer } from '@reelbase/http';
import { openJsonStore } from '@reelbase/store-json';

/**
 * Tokens are never logged. The one log path of a running server is the report of an unexpected
 * error (a bug: a 500), which receives the request; its Authorization header reaches that report
 * redacted, through a custom onError and through the default console.error alike. No error answer
 * echoes a token either.
 */
const failing: Operation<unknown> = {
  id: 'test.failing',
  summary: 'Fails as a bug would',
  method: 'GET',
  paths: ['/test/failing'],
  async handle() {
    throw new Error('the disk is on fire');
  },
};

describe('access tokens never reach a log', () => {
  let service: Service;
  let server: RunningServer;
  let token: string;
  const reports: unknown[][] = [];
  before(async () => {
    const store = await openJsonStore({ schema });
    const user = await createUser(store, new Date(), { name: 'Alice' });
    token = (await createToken(store, new Date(), user.id, parseScopes('all'))).token;
    service = createService({ store, operations: [...operations, failing], onError: (...args) => void reports.push(args) });
    server = await serve(service, { port: 0, host: '127.0.0.1' });
  });
  after(() => server.close());

  it('reports an unexpected error with the request, its Authorization redacted (over HTTP and in-process)', async () => {
    const overHttp = await fetch(`${server.url}/test/failing`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(overHttp.status, 500);
    const inProcess = await service.handle(token, { method: 'GET', url: '/test/failing', headers: { authorization: `Bearer ${token}` } });
    assert.equal(inProcess.status, 500);
    assert.equal(reports.length, 2);
    for (const report of reports) {
      const logged = inspect(report, { depth: 10 });
      assert.ok(logged.includes('the disk is on fire'), 'the report says what failed');
      assert.ok(logged.includes("authorization: '[redacted]'"), logged);
      assert.ok(!logged.includes(token), `the token was reported: ${logged}`);
    }
    assert.equal(((await overHttp.json()) as { error_code: number }).error_code, 4005);
  });

  it('the default report (console.error) holds no token', async (t) => {
    const printed: unknown[][] = [];
    t.mock.method(console, 'error', (...args: unknown[]) => void printed.push(args));
    const plain = createService({ store: service.store, operations: [...operations, failing] });
    const answer = await plain.handle(undefined, { method: 'GET', url: '/test/failing', headers: { authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 500);
    assert.equal(printed.length, 1);
    assert.ok(!inspect(printed, { depth: 10 }).includes(token));
  });

  it('no error answer repeats the token it was given', async () => {
    for (const presented of [token, `${token}x`]) {
      for (const url of ['/me', '/test/failing', '/videos/999999', '/nowhere']) {
        const r = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${presented}` } });
        const text = await r.text();
        assert.ok(!text.includes(presented) && !JSON.stringify([...r.headers]).includes(presented), `${url} echoed the token: ${text}`);
      }
    }
  });
});
