import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`GET /me/videos and /users/{user_id}/videos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const seeded: { name: string; view: string; embed: string; plays: number; duration: number }[] = [
      { name: 'Delta', view: 'anybody', embed: 'public', plays: 5, duration: 30 },
      { name: 'alpha', view: 'anybody', embed: 'private', plays: 50, duration: 10 },
      { name: 'Charlie', view: 'nobody', embed: 'public', plays: 1, duration: 90 },
      { name: 'bravo', view: 'unlisted', embed: 'whitelist', plays: 7, duration: 60 },
      { name: 'Echo sunset', view: 'anybody', embed: 'public', plays: 0, duration: 20 },
    ];
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      for (const s of seeded) {
        h.clock.advance(60);
        const r = await h.call('POST', '/me/videos', { token: alice.token, json: { name: s.name, description: s.name === 'Delta' ? 'a sunset' : '', privacy: { view: s.view, embed: s.embed } } });
        assert.equal(r.status, 201, r.text);
        await h.service.store.update('videos', r.body.uri.split('/').pop(), { plays: s.plays, duration: s.duration });
      }
    });
    after(() => h.stop());

    const names = (r: { body: { data: { name: string }[] } }) => r.body.data.map((v) => v.name);

    it('lists the owner every video, newest first, as typed Clips', async () => {
      const r = await h.call('GET', '/me/videos', { token: alice.token });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(r.body.total, 5);
      assert.deepEqual(names(r), ['Echo sunset', 'bravo', 'Charlie', 'alpha', 'Delta']);
      assert.equal(r.body.data[0].user.uri, `/users/${alice.user.id}`);
    });

    it('lists others only the videos anybody may see, with a true total', async () => {
      for (const token of [bob.token, undefined]) {
        const r = await h.call('GET', `/users/${alice.user.id}/videos`, { token });
        assert.equal(r.status, 200);
        assert.equal(r.body.total, 3);
        assert.deepEqual(names(r), ['Echo sunset', 'alpha', 'Delta']);
      }
    });

    it('sorts by every listed sort with direction', async () => {
      const list = async (q: string) => names(await h.call('GET', `/me/videos?${q}`, { token: alice.token }));
      assert.deepEqual(await list('sort=alphabetical'), ['alpha', 'bravo', 'Charlie', 'Delta', 'Echo sunset']);
      assert.deepEqual(await list('sort=alphabetical&direction=desc'), ['Echo sunset', 'Delta', 'Charlie', 'bravo', 'alpha']);
      assert.deepEqual(await list('sort=plays'), ['alpha', 'bravo', 'Delta', 'Charlie', 'Echo sunset']);
      assert.deepEqual(await list('sort=duration&direction=asc'), ['alpha', 'Echo sunset', 'Delta', 'bravo', 'Charlie']);
      assert.deepEqual(await list('sort=date&direction=asc'), ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo sunset']);
      assert.deepEqual(await list('sort=default'), ['Echo sunset', 'bravo', 'Charlie', 'alpha', 'Delta']);
      assert.equal((await list('sort=likes')).length, 5);
      assert.equal((await list('sort=comments')).length, 5);
      assert.equal((await list('sort=modified_time')).length, 5);
    });

    it('searches name and description', async () => {
      const r = await h.call('GET', '/me/videos?query=SUNSET&sort=alphabetical', { token: alice.token });
      assert.deepEqual(names(r), ['Delta', 'Echo sunset']);
      assert.equal(r.body.total, 2);
    });

    it('filters embeddable videos, which needs filter_embeddable', async () => {
      assert.deepEqual(names(await h.call('GET', '/me/videos?filter=embeddable&filter_embeddable=true&sort=alphabetical', { token: alice.token })), [
        'bravo',
        'Charlie',
        'Delta',
        'Echo sunset',
      ]);
      assert.deepEqual(names(await h.call('GET', '/me/videos?filter=embeddable&filter_embeddable=false', { token: alice.token })), ['alpha']);
      expectError(await h.call('GET', '/me/videos?filter=embeddable', { token: alice.token }), 400, 2204, 'filter_embeddable');
      assert.equal((await h.call('GET', '/me/videos?filter=playable', { token: alice.token })).body.total, 0);
    });

    it('pages in the store with links that keep the query', async () => {
      const r = await h.call('GET', '/me/videos?sort=alphabetical&per_page=2&page=2', { token: alice.token });
      assert.deepEqual(names(r), ['Charlie', 'Delta']);
      assert.equal(r.body.total, 5);
      assert.deepEqual(r.body.paging, {
        next: '/me/videos?sort=alphabetical&per_page=2&page=3',
        previous: '/me/videos?sort=alphabetical&per_page=2&page=1',
        first: '/me/videos?sort=alphabetical&per_page=2&page=1',
        last: '/me/videos?sort=alphabetical&per_page=2&page=3',
      });
      const beyond = await h.call('GET', '/me/videos?page=9', { token: alice.token });
      assert.equal(beyond.status, 200);
      assert.deepEqual(beyond.body.data, []);
      assert.equal(beyond.body.paging.next, null);
    });

    it('rejects parameters the endpoint does not list', async () => {
      expectError(await h.call('GET', '/me/videos?sort=random', { token: alice.token }), 400, 2204, 'sort');
      expectError(await h.call('GET', '/me/videos?filter=featured', { token: alice.token }), 400, 2204, 'filter');
      expectError(await h.call('GET', '/me/videos?direction=sideways', { token: alice.token }), 400, 2204, 'direction');
      expectError(await h.call('GET', '/me/videos?per_page=1000', { token: alice.token }), 400, 2204, 'per_page');
    });

    it('answers Last-Modified, and 304 to If-Modified-Since when nothing changed', async () => {
      const r = await h.call('GET', '/me/videos', { token: alice.token });
      const lastModified = r.headers.get('last-modified');
      assert.equal(lastModified, new Date(h.clock.time).toUTCString());
      const same = await h.call('GET', '/me/videos', { token: alice.token, headers: { 'if-modified-since': lastModified! } });
      assert.equal(same.status, 304);
      assert.equal(same.text, '');
      const older = new Date(h.clock.time - 3600_000).toUTCString();
      assert.equal((await h.call('GET', '/me/videos', { token: alice.token, headers: { 'if-modified-since': older } })).status, 200);
    });

    it('answers 404 for an unknown user and 401 for anonymous /me', async () => {
      expectError(await h.call('GET', '/users/777777/videos'), 404, 5000);
      expectError(await h.call('GET', '/me/videos'), 401, 8003);
    });
  });
}
