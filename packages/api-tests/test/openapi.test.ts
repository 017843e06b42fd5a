import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { drivers, Harness } from '../src/index';

let h: Harness;
before(async () => (h = await Harness.start(drivers[0])));
after(() => h.stop());

it('GET /openapi.json serves the document to anyone, with the server it was reached on', async () => {
  const r = await h.call('GET', '/openapi.json?junk=1&page=-1');
  assert.equal(r.status, 200, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(r.body.openapi, '3.1.0');
  assert.equal(r.body.paths['/openapi.json'].get.operationId, 'root.openapi');
  assert.ok(r.body.paths['/videos/{video_id}'].patch);
  assert.equal(typeof r.body.servers[0].url, 'string');
});

it('the index lists /openapi.json', async () => {
  const r = await h.call('GET', '/');
  assert.ok(r.body.endpoints.some((e: { id: string }) => e.id === 'root.openapi'));
});
