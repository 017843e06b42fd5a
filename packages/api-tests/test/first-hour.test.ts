import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

/**
 * What a new operator meets in the first hour (issue 47): a browser opening the server's address
 * gets a small page, not the operation index; the searches of videos and users take `query` as the
 * hosted API does (required to search videos, optional to list users); videos made in one second keep their order.
 */
const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

for (const driver of drivers) {
  describe(`the first hour (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('a browser opening / gets a small page saying what the server is, where its OpenAPI, docs and sign-in are, under a CSP that allows only its style', async () => {
      const r = await h.call('GET', '/', { headers: { accept: browserAccept } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(r.headers.get('vary'), 'Accept');
      const style = /<style>([\s\S]*?)<\/style>/.exec(r.text)![1];
      assert.equal(
        r.headers.get('content-security-policy'),
        `default-src 'none'; base-uri 'none'; form-action 'none'; style-src ${sha256(style)}; frame-ancestors 'none'`,
      );
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
      assert.ok(r.text.length < 4096, `a small page (${r.text.length} bytes)`);
      assert.match(r.text, /self-hosted video hosting API/);
      assert.ok(r.text.includes(`href="${h.server.url}/openapi.json"`), 'links the OpenAPI document');
      assert.ok(r.text.includes(`${h.server.url}/oauth/authorize`), 'names the sign-in page');
      assert.match(r.text, /docs\//);
      assert.ok(!/<script|<img|<form/i.test(r.text));
    });

    it('JSON clients keep the operation index: no Accept, */*, application/json, the vendor type', async () => {
      for (const accept of [undefined, '*/*', 'application/json', 'application/vnd.vimeo.*+json;version=3.4']) {
        const r = await h.call('GET', '/', { headers: accept ? { accept } : {} });
        assert.equal(r.status, 200, `${accept}: ${r.text.slice(0, 200)}`);
        assert.match(r.headers.get('content-type') ?? '', /^application\/json/, String(accept));
        assert.equal(r.headers.get('vary'), 'Accept');
        assert.ok(r.body.endpoints.some((e: { id: string }) => e.id === 'root.index'), String(accept));
      }
    });

    it('GET /videos searches and needs query (the hosted API’s search_videos); GET /users without query lists every user (its search_users)', async () => {
      const missing = await h.call('GET', '/videos', { token: alice.token });
      expectError(missing, 400, 2204, 'query');
      assert.match(missing.body.invalid_parameters[0].developer_message, /GET \/me\/videos or GET \/users\/\{user_id\}\/videos/);
      const users = await h.call('GET', '/users?fields=name', { token: alice.token });
      assert.equal(users.status, 200, users.text);
      assert.deepEqual(users.body.data, [{ name: 'Alice' }]);
    });

    it('videos made in the same second list in the order they were made: newest first, oldest first with direction=asc', async () => {
      const made: string[] = [];
      for (const name of ['One', 'Two', 'Three']) {
        const r = await h.call('POST', '/me/videos?fields=uri', { token: alice.token, json: { name, upload: { approach: 'post' } } });
        assert.equal(r.status, 201, r.text);
        made.push(r.body.uri);
      }
      const listed = async (query: string) => (await h.call('GET', `/me/videos?fields=uri${query}`, { token: alice.token })).body.data.map((v: { uri: string }) => v.uri);
      assert.deepEqual(await listed(''), [...made].reverse());
      assert.deepEqual(await listed('&sort=date'), [...made].reverse());
      assert.deepEqual(await listed('&sort=date&direction=asc'), made);
    });
  });
}
