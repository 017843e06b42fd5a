import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { operations } from '@reelbase/core';
import { ClientUsageError, createClient, flatten, resolvePath, type Transport, type TransportRequest } from '../src/index';

const op = (id: string) => operations.find((o) => o.id === id)!;

it('resolvePath fills the most specific path the params allow and keeps the rest', () => {
  assert.deepEqual(resolvePath(op('users.videos.list'), { per_page: 5 }), { path: '/me/videos', rest: { per_page: 5 } });
  assert.deepEqual(resolvePath(op('users.videos.list'), { user_id: '7', page: 2 }), { path: '/users/7/videos', rest: { page: 2 } });
  assert.deepEqual(resolvePath(op('videos.get'), { video_id: 'a/b' }).path, '/videos/a%2Fb');
  assert.throws(() => resolvePath(op('videos.get'), {}), ClientUsageError);
  assert.deepEqual(flatten({ privacy: { view: 'nobody' }, tags: ['a', 'b'], n: 1 }), [['privacy.view', 'nobody'], ['tags', 'a,b'], ['n', '1']]);
});

it('installs without the server: no dependencies, and @reelbase/core only as types', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies?: object };
  assert.equal(pkg.dependencies, undefined);
  const src = new URL('../src/', import.meta.url);
  const valueImports = readdirSync(src)
    .flatMap((file) => readFileSync(new URL(file, src), 'utf8').split('\n').map((line) => `${file}: ${line}`))
    .filter((line) => /^\S+: import (?!type ).*from '(?!\.)/.test(line));
  assert.deepEqual(valueImports, []);
});

it('calls operations by id from the table it is given; with none, only request() reaches the API', async () => {
  const sent: TransportRequest[] = [];
  const transport: Transport = { target: 'test', request: async (r) => (sent.push(r), { status: 200, headers: {}, body: undefined }), close: async () => {} };
  await assert.rejects(createClient({ transport }).call('videos.get', { video_id: '7' }), ClientUsageError);
  await createClient({ transport }).request('GET', '/videos/7');
  await createClient({ transport, operations, token: 't' }).call('videos.get', { video_id: '7', fields: 'uri' });
  assert.deepEqual(
    sent.map((r) => [r.method, r.path, r.query ? [...r.query] : undefined, r.headers]),
    [
      ['GET', '/videos/7', undefined, {}],
      ['GET', '/videos/7', [['fields', 'uri']], { authorization: 'Bearer t' }],
    ],
  );
});
