import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { operations, renderOpenApi } from '../src/index';

const doc = renderOpenApi(operations, { vendor: 'reelbase', apiVersion: '3.4', serverUrl: 'http://localhost:8080' }) as any;
const find = (id: string) => {
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) if (op.operationId === id) return { path, method, op };
  }
  throw new Error(`no operation ${id}`);
};

it('the document is a valid OpenAPI 3.1 document', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  assert.equal(validator.version, '3.1');
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
});

it('every operation of the table is in it, under each of its paths, with its method and scope', () => {
  for (const op of operations) {
    const { path, method, op: described } = find(op.id);
    assert.equal(path, op.paths[0]);
    assert.equal(method, op.method.toLowerCase());
    assert.equal(described.summary, op.summary);
    for (const p of op.paths) assert.equal(doc.paths[p][method]['x-reelbase-operation'], op.id, p);
    if (op.scope) assert.ok(described.security.some((s: any) => s.bearer?.includes(op.scope)), op.id);
  }
  assert.ok(find('root.openapi'));
});

it('a /me twin gets its own operationId, requires a token, and anonymous-friendly operations say so', () => {
  const mine = doc.paths['/me/videos'].get;
  const theirs = doc.paths['/users/{user_id}/videos'].get;
  assert.equal(mine.operationId, 'users.videos.list');
  assert.equal(theirs.operationId, 'users.videos.list.alt1');
  assert.equal(theirs['x-reelbase-operation'], 'users.videos.list');
  assert.deepEqual(mine.security, [{ bearer: [] }]);
  assert.deepEqual(theirs.security, [{}, { bearer: [] }]);
  assert.deepEqual(doc.paths['/videos/{video_id}'].delete.security, [{ bearer: ['delete'] }]);
  assert.deepEqual(Object.keys(doc.paths['/videos/{video_id}'].delete.responses), ['204', 'default']);
});

it('schemas carry enums, nested objects, required fields and integer ranges from the structs', () => {
  const edit = find('videos.update').op;
  const schema = edit.requestBody.content['application/json'].schema;
  assert.deepEqual(edit.requestBody.content['application/x-www-form-urlencoded'].schema, schema);
  assert.deepEqual([...schema.properties.privacy.properties.view.enum].sort(), ['anybody', 'contacts', 'disable', 'nobody', 'password', 'unlisted', 'users']);
  assert.deepEqual(schema.properties.spatial.properties.field_of_view, { type: 'integer', minimum: 30, maximum: 90 });
  const list = find('users.videos.list').op;
  const perPage = list.parameters.find((p: any) => p.name === 'per_page');
  assert.deepEqual(perPage, { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } });
  const { path, op: get } = find('videos.get');
  assert.equal(path, '/videos/{video_id}');
  assert.deepEqual(get.parameters[0], { name: 'video_id', in: 'path', required: true, schema: { type: 'string' } });
  assert.ok(get.responses['200'].content['application/vnd.reelbase.video+json']);
  assert.ok(get.responses.default.content['application/vnd.reelbase.error+json']);
  const group = find('groups.create').op;
  assert.deepEqual(group.requestBody.content['application/json'].schema.required, ['name']);
  assert.equal(group.requestBody.required, true);
  assert.deepEqual(group.security, [{ bearer: ['create'] }]);
});

it('the OAuth endpoints (issue 35): the grant endpoints take Basic client credentials and answer Auth or AuthError; the pages are HTML', () => {
  assert.equal(doc.components.securitySchemes.basic.scheme, 'basic');
  for (const id of ['oauth.client', 'oauth.access_token']) {
    const { op } = find(id);
    assert.deepEqual(op.security, [{ basic: [] }], id);
    assert.equal(op.responses['200'].content['application/vnd.reelbase.auth+json'].schema.$ref, '#/components/schemas/Auth');
    assert.equal(op.responses.default.content['application/vnd.reelbase.auth+json'].schema.$ref, '#/components/schemas/AuthError');
  }
  assert.equal(find('oauth.verify').op.responses.default.content['application/vnd.reelbase.auth+json'].schema.$ref, '#/components/schemas/LegacyError');
  assert.deepEqual(find('oauth.verify').op.security, [{ bearer: [] }]);
  assert.ok(find('oauth.authorize').op.responses['200'].content['text/html']);
  assert.deepEqual(Object.keys(find('oauth.authorize.decide').op.responses).sort(), ['200', '302', '303', 'default']);
});
