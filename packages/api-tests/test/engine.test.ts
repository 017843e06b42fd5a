import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`engine over HTTP (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('GET / indexes every operation of the table', async () => {
      const r = await h.call('GET', '/');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/json');
      const ids = r.body.endpoints.map((e: { id: string }) => e.id);
      assert.deepEqual(ids.sort(), h.service.operations.map((o) => o.id).sort());
      const patch = r.body.endpoints.find((e: { id: string }) => e.id === 'videos.update');
      assert.deepEqual(patch, { id: 'videos.update', method: 'PATCH', paths: ['/videos/{video_id}'], summary: 'Edit a video', scope: 'edit' });
    });

    it('answers 404 with the Error shape for an unknown route', async () => {
      const r = await h.call('GET', '/no/such/thing');
      expectError(r, 404, 5000);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.error+json;version=3.4');
      assert.equal(r.headers.get('cache-control'), 'private, no-store, no-cache');
    });

    it('answers 405 with Allow for a known path and a wrong method', async () => {
      const r = await h.call('POST', '/videos/1', { token: alice.token });
      assert.equal(r.status, 405);
      assert.equal(r.headers.get('allow'), 'GET, PATCH, DELETE');
      assert.equal(r.body.error_code, 2204);
    });

    it('rejects malformed JSON with 400/2205', async () => {
      const r = await h.call('PATCH', '/me', { token: alice.token, raw: '{"name": ', headers: { 'content-type': 'application/json' } });
      expectError(r, 400, 2205);
    });

    it('rejects a JSON body that is not an object with 400/2205', async () => {
      const r = await h.call('PATCH', '/me', { token: alice.token, json: ['name'] });
      expectError(r, 400, 2205);
    });

    it('rejects JSON nested absurdly deep with 400/2205', async () => {
      let deep: unknown = 1;
      for (let i = 0; i < 200; i++) deep = { a: deep };
      expectError(await h.call('PATCH', '/me', { token: alice.token, json: deep }), 400, 2205);
    });

    it('refuses a body over 1 MiB with 413', async () => {
      const r = await h.call('PATCH', '/me', { token: alice.token, json: { bio: 'x'.repeat(1024 * 1024 + 10) } });
      expectError(r, 413, 2205);
    });

    it('answers 401/8003 with WWW-Authenticate for an unknown or malformed token', async () => {
      for (const authorization of ['Bearer nope', 'Basic abc', 'Bearer', 'bearer  ']) {
        const r = await h.call('GET', '/me', { headers: { authorization } });
        expectError(r, 401, 8003);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
      }
    });

    it('accepts the Bearer scheme in any case', async () => {
      const r = await h.call('GET', '/me', { headers: { authorization: `bEaReR ${alice.token}` } });
      assert.equal(r.status, 200);
      assert.equal(r.body.uri, `/users/${alice.user.id}`);
    });

    it('answers 401 to an anonymous caller of /me', async () => {
      expectError(await h.call('GET', '/me'), 401, 8003);
    });

    it('answers 403 naming the scope a token lacks', async () => {
      const reader = await h.user('Reader', 'public,private');
      const r = await h.call('PATCH', '/me', { token: reader.token, json: { name: 'x' } });
      expectError(r, 403, 3200);
      assert.match(r.body.developer_message, /"edit"/);
    });

    it('selects versions through Accept, any vendor word, spaces, three parts and lists', async () => {
      const accept = async (value: string) => (await h.call('GET', '/me', { token: alice.token, headers: { accept: value } })).headers.get('content-type');
      assert.equal(await accept('application/vnd.vimeo.*+json;version=3.2'), 'application/vnd.reelbase.user+json;version=3.2');
      assert.equal(await accept('application/vnd.acme.*+json ; version=3.3'), 'application/vnd.reelbase.user+json;version=3.3');
      assert.equal(await accept('application/vnd.x.*;version=3.4.4'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(await accept('application/vnd.x.*+json;version=3.2, application/json'), 'application/vnd.reelbase.user+json;version=3.2');
      assert.equal(await accept('application/json'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(await accept('application/vnd.vimeo.*+json;version=3.1'), 'application/json');
    });

    it('rejects an unsupported version with 400/2206', async () => {
      for (const v of ['3.9', '2.0', 'latest', '4.1']) {
        expectError(await h.call('GET', '/me', { token: alice.token, headers: { accept: `application/vnd.vimeo.*+json;version=${v}` } }), 400, 2206);
      }
    });

    it('trims any response with fields, reaching into nested objects', async () => {
      const r = await h.call('GET', '/me?fields=uri,name,preferences.videos.privacy.view,nope');
      assert.equal(r.status, 401);
      const ok = await h.call('GET', '/me?fields=uri,name,preferences.videos.privacy.view,nope', { token: alice.token });
      assert.deepEqual(ok.body, { uri: `/users/${alice.user.id}`, name: 'Alice', preferences: { videos: { privacy: { view: 'anybody' } } } });
    });

    it('trims each item of a list and keeps the envelope', async () => {
      const r = await h.call('GET', '/users?fields=name&per_page=1&sort=alphabetical');
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ['data', 'page', 'paging', 'per_page', 'total']);
      assert.deepEqual(r.body.data, [{ name: 'Alice' }]);
    });

    it('never answers 500 to path junk', async () => {
      for (const path of ['/videos/%zz', '/videos/abc', '/videos/99999999999999999999999', '/videos/-1', '/users/%00', '//videos//1//', '/videos/1/../../me']) {
        const r = await h.call('GET', path);
        assert.ok(r.status >= 400 && r.status < 500, `${path} → ${r.status}`);
        assert.equal(typeof r.body.error_code, 'number');
      }
    });

    it('rejects conflicting dot-notation names with 400 naming the field', async () => {
      const r = await h.call('PATCH', '/me', { token: alice.token, raw: 'videos=1&videos.privacy.view=nobody' });
      expectError(r, 400, 2204, 'videos.privacy.view');
    });

    it('rejects prototype-polluting names', async () => {
      const r = await h.call('PATCH', '/me', { token: alice.token, raw: '__proto__.admin=1' });
      expectError(r, 400, 2204, '__proto__.admin');
      assert.equal(({} as Record<string, unknown>).admin, undefined);
    });

    it('answers CORS preflights and adds CORS headers', async () => {
      const pre = await h.call('OPTIONS', '/me', { headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH' } });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), '*');
      assert.match(pre.headers.get('access-control-allow-methods') ?? '', /PATCH/);
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /Authorization/);
      const r = await h.call('GET', '/', { headers: { origin: 'https://app.example' } });
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
    });

    it('answers HEAD like GET without a body', async () => {
      const r = await h.call('HEAD', '/me', { token: alice.token });
      assert.equal(r.status, 200);
      assert.equal(r.text, '');
      assert.ok(Number(r.headers.get('content-length')) > 0);
    });
  });
}
