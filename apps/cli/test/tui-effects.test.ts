import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createToken, createUser, parseScopes, type Service } from '@reelbase/core';
import { createClient, type Client } from '@reelbase/http';
import { paramsOf, runEffect } from '../src/tui/effects';
import { firstPageParams } from '../src/tui/state';
import { steppingService } from './tui-harness';

describe('TUI effects, through the client by operation id', () => {
  let service: Service;
  let ada: Client;

  before(async () => {
    service = await steppingService();
    const client = async (name: string) => {
      const user = await service.store.transaction((tx) => createUser(tx, service.now(), { name }));
      return createClient({ service, token: (await createToken(service.store, service.now(), user.id, parseScopes('all'))).token });
    };
    ada = await client('Ada');
    const bob = await client('Bob');
    for (let n = 1; n <= 27; n++) assert.equal((await bob.call('users.videos.create', { name: `Bob ${n}`, privacy: { view: 'anybody' } })).status, 201);
    assert.equal((await ada.call('users.following.put', { follow_user_id: '2' })).status, 204);
  });

  it('pages the feed with the offset cursor its paging links carry', async () => {
    const first = await runEffect(ada, { type: 'load', section: 'feed', params: firstPageParams('feed', ''), request: 1 });
    assert.ok(first.type === 'listLoaded');
    assert.equal(first.request, 1);
    assert.equal(first.page.items.length, 25);
    assert.equal(first.page.total, 27);
    assert.equal(first.page.previous, null);
    assert.ok(first.page.next?.offset, `paging.next carries an offset: ${JSON.stringify(first.page.next)}`);
    const second = await runEffect(ada, { type: 'load', section: 'feed', params: first.page.next!, request: 2 });
    assert.ok(second.type === 'listLoaded');
    assert.equal(second.page.items.length, 2);
    assert.equal(second.page.next, null);
    const names = [...first.page.items, ...second.page.items].map((a) => (a.clip as { name: string }).name);
    assert.equal(new Set(names).size, 27);
  });

  it('answers a failure message with the API error line', async () => {
    const failed = await runEffect(ada, { type: 'load', section: 'videos', params: { per_page: '500' }, request: 3 });
    assert.equal(failed.type, 'listFailed');
    assert.match((failed as { error: string }).error, /^error 2204 \(HTTP 400\): per_page: /);
    const update = await runEffect(ada, { type: 'update', videoId: '1', changes: { name: 'Mine now' } });
    assert.equal(update.type, 'failed');
    assert.match((update as { error: string }).error, /^error \d+ \(HTTP 403\): /);
  });

  it('finds no channel to add to when the caller moderates none (404), and the albums they own', async () => {
    assert.deepEqual(await runEffect(ada, { type: 'choices', purpose: 'channel', videoId: '1' }), { type: 'choicesLoaded', purpose: 'channel', choices: [] });
    assert.equal((await ada.call('users.albums.create', { name: 'Zebra', description: 'z' })).status, 201);
    assert.equal((await ada.call('users.albums.create', { name: 'Apple', description: 'a' })).status, 201);
    const albums = await runEffect(ada, { type: 'choices', purpose: 'album', videoId: '1' });
    assert.deepEqual(albums, { type: 'choicesLoaded', purpose: 'album', choices: [{ id: '2', label: 'Apple' }, { id: '1', label: 'Zebra' }] });
  });

  it('reads paging links as parameters', () => {
    assert.deepEqual(paramsOf('/me/videos?page=2&per_page=25&fields=uri%2Cname'), { page: '2', per_page: '25', fields: 'uri,name' });
    assert.equal(paramsOf(null), null);
  });
});
