import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildRequest } from '../src/commands/api';
import { UsageError } from '../src/errors';
import { formBody, jsonBody } from '../src/index';
import { pathWithQuery } from '../src/transport/transport';

const flags = (extra: Partial<Parameters<typeof buildRequest>[2]> = {}) => ({ data: [], header: [], ...extra });

describe('api request building', () => {
  it('puts -d pairs in the query for GET and keeps the query already in the path', () => {
    const request = buildRequest('get', '/me/videos?sort=date', flags({ data: ['per_page=5', 'fields=uri,name'] }), undefined);
    assert.equal(request.method, 'GET');
    assert.equal(request.body, undefined);
    assert.equal(pathWithQuery(request.path, request.query), '/me/videos?sort=date&per_page=5&fields=uri%2Cname');
  });

  it('sends -d pairs urlencoded with dot-notation keys as given for other methods', () => {
    const request = buildRequest('PATCH', '/videos/1', flags({ data: ['privacy.view=nobody', 'name=a=b'] }), undefined);
    assert.equal(request.contentType, 'application/x-www-form-urlencoded');
    assert.equal(request.body, 'privacy.view=nobody&name=a%3Db');
    assert.equal(request.query, undefined);
  });

  it('sends --json-body as JSON and refuses it with GET or with -d', () => {
    const request = buildRequest('POST', '/me/videos', flags({ jsonBody: '{"name":"x"}' }), undefined);
    assert.deepEqual({ body: request.body, contentType: request.contentType }, jsonBody({ name: 'x' }));
    assert.throws(() => buildRequest('GET', '/me', flags({ jsonBody: '{}' }), undefined), UsageError);
    assert.throws(() => buildRequest('POST', '/me/videos', flags({ jsonBody: '{}', data: ['a=b'] }), undefined), UsageError);
    assert.throws(() => buildRequest('POST', '/me/videos', flags({ jsonBody: '{nope' }), undefined), UsageError);
  });

  it('sets Authorization from the resolved token, Accept from --api-version, and extra headers', () => {
    const request = buildRequest('GET', '/me', flags({ apiVersion: '3.2', header: ['X-Trace: a:b'] }), 'T1');
    assert.deepEqual(request.headers, {
      authorization: 'Bearer T1',
      accept: 'application/vnd.reelbase.*+json;version=3.2',
      'x-trace': 'a:b',
    });
    assert.equal(buildRequest('GET', '/me', flags(), undefined).headers?.authorization, undefined);
  });

  it('refuses malformed flags as usage errors', () => {
    assert.throws(() => buildRequest('G E T', '/me', flags(), undefined), UsageError);
    assert.throws(() => buildRequest('GET', 'me', flags(), undefined), UsageError);
    assert.throws(() => buildRequest('GET', '/me', flags({ data: ['novalue'] }), undefined), UsageError);
    assert.throws(() => buildRequest('GET', '/me', flags({ data: ['=x'] }), undefined), UsageError);
    assert.throws(() => buildRequest('GET', '/me', flags({ header: ['no-colon'] }), undefined), UsageError);
    assert.throws(() => buildRequest('GET', '/me', flags({ apiVersion: 'latest' }), undefined), UsageError);
  });

  it('builds form bodies that repeat keys in order', () => {
    assert.deepEqual(formBody([['a', '1'], ['a', '2']]), { body: 'a=1&a=2', contentType: 'application/x-www-form-urlencoded' });
  });
});
