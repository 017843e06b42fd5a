import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientUsageError, createClient, type Client } from '@reelbase/http';
import { drivers, Harness, type Fixture } from '../src/index';

describe('createClient', () => {
  let h: Harness;
  let alice: Fixture;
  before(async () => {
    h = await Harness.start(drivers[0]);
    alice = await h.user('Alice');
  });
  after(() => h.stop());

  const transports: [string, () => Client][] = [
    ['in-process', () => createClient({ service: h.service, token: alice.token })],
    ['http', () => createClient({ baseUrl: h.server.url, token: alice.token })],
  ];
  for (const [name, make] of transports) {
    it(`${name}: call() routes by operation id, sends the rest as body or query, and request() reaches any path`, async () => {
      const client = make();
      const created = await client.call('users.videos.create', { name: `Via ${name}`, privacy: { view: 'nobody' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const body = created.body as { uri: string; name: string; privacy: { view: string } };
      assert.equal(body.name, `Via ${name}`);
      assert.equal(body.privacy.view, 'nobody');
      assert.match(created.headers['content-type'], /^application\/vnd\.reelbase\.video\+json/);
      const id = body.uri.split('/').pop();

      const renamed = await client.call('videos.update', { video_id: id, name: 'Renamed', fields: 'name' });
      assert.deepEqual(renamed.body, { name: 'Renamed' });

      const list = await client.call('users.videos.list', { user_id: alice.user.id, per_page: 1, fields: 'uri' });
      assert.equal(list.status, 200);
      assert.equal((list.body as { data: unknown[] }).data.length, 1);

      const missing = await client.call('videos.get', { video_id: '999999' });
      assert.equal(missing.status, 404);
      assert.equal((missing.body as { error_code: number }).error_code, 5000);

      await assert.rejects(client.call('no.such.operation'), ClientUsageError);

      const doc = await client.request('GET', '/openapi.json', { query: { fields: 'openapi' } });
      assert.deepEqual(doc.body, { openapi: '3.1.0' });
      const anonymous = await createClient(name === 'http' ? { baseUrl: h.server.url } : { service: h.service }).request('GET', '/me');
      assert.equal(anonymous.status, 401);
    });
  }

  it('apiVersion asks for that version', async () => {
    const client = createClient({ baseUrl: h.server.url, token: alice.token, apiVersion: '3.2' });
    const me = await client.request('GET', '/me');
    assert.match(me.headers['content-type'], /version=3\.2/);
  });
});
