import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`users (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('GET /me answers the caller as a typed User', async () => {
      const r = await h.call('GET', '/me', { token: alice.token });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(r.body.uri, `/users/${alice.user.id}`);
      assert.equal(r.body.name, 'Alice');
      assert.equal(r.body.created_time, '2026-01-02T03:04:05+00:00');
      assert.equal(r.body.link, `${h.server.url}/users/${alice.user.id}`);
      assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
      assert.deepEqual(r.body.preferences.videos.privacy, { view: 'anybody', comments: 'anybody', embed: 'public', download: true, add: true });
      assert.deepEqual(r.body.metadata.connections.videos, { uri: `/users/${alice.user.id}/videos`, options: ['GET', 'POST'], total: 0 });
      assert.deepEqual(r.body.metadata.connections.folders, { uri: `/users/${alice.user.id}/projects`, options: ['GET', 'POST'], total: 0 });
      assert.equal(r.body.upload_quota.quota, undefined);
      assert.equal(r.body.metadata.connections.activities, undefined);
    });

    it('GET /users/{user_id} answers another user without private fields', async () => {
      const r = await h.call('GET', `/users/${bob.user.id}`, { token: alice.token });
      assert.equal(r.status, 200);
      assert.equal(r.body.name, 'Bob');
      assert.equal(r.body.preferences, undefined);
      assert.equal(r.body.upload_quota, undefined);
      assert.equal(r.body.metadata.interactions.follow.uri, `/users/${alice.user.id}/following/${bob.user.id}`);
      const anon = await h.call('GET', `/users/${bob.user.id}`);
      assert.equal(anon.status, 200);
      // Nobody to follow as: only the empty forms of what reelbase has no feature for.
      assert.deepEqual(Object.keys(anon.body.metadata.interactions), ['block', 'report']);
    });

    it('answers 404/5000 for a user that does not exist', async () => {
      expectError(await h.call('GET', '/users/987654'), 404, 5000);
      expectError(await h.call('GET', '/users/no-such-slug'), 404, 5000);
    });

    it('version differences of the User: quota hd/sd before 3.4, no folders before 3.3.9, activities before 3.3.8', async () => {
      const v33 = await h.call('GET', '/me', { token: alice.token, version: '3.3' });
      assert.deepEqual(v33.body.upload_quota.quota, { hd: true, sd: true });
      assert.equal(v33.body.metadata.connections.folders, undefined);
      // reelbase's activity stream of a user is their feed: the connection leads there (issue 22, no dead connection).
      assert.deepEqual(v33.body.metadata.connections.activities, { uri: `/users/${alice.user.id}/feed`, options: ['GET'] });
      const v31 = await h.call('GET', '/me', { token: alice.token, version: '3.1' });
      assert.equal(v31.body.metadata, undefined);
    });

    it('PATCH /me edits every writable field from a JSON body', async () => {
      const r = await h.call('PATCH', '/me', {
        token: alice.token,
        json: {
          name: 'Alice A.',
          bio: 'Filmmaker',
          location: 'Lisbon',
          link: 'alice_films',
          password: 'hunter22',
          content_filter: ['language', 'safe'],
          videos: { privacy: { add: false, comments: 'contacts', download: false, embed: 'whitelist', view: 'password' } },
        },
      });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(r.body.name, 'Alice A.');
      assert.equal(r.body.bio, 'Filmmaker');
      assert.equal(r.body.location, 'Lisbon');
      assert.equal(r.body.link, `${h.server.url}/users/alice_films`);
      assert.deepEqual(r.body.content_filter, ['language', 'safe']);
      assert.deepEqual(r.body.preferences.videos.privacy, { view: 'password', comments: 'contacts', embed: 'whitelist', download: false, add: false });
      assert.equal(r.body.password, undefined);
      const bySlug = await h.call('GET', '/users/alice_films');
      assert.equal(bySlug.body.uri, `/users/${alice.user.id}`);
    });

    it('PATCH /users/{user_id} reads a urlencoded body with dot notation and comma lists', async () => {
      const r = await h.call('PATCH', `/users/${bob.user.id}`, {
        token: bob.token,
        form: { name: 'Bobby', 'videos.privacy.view': 'unlisted', 'videos.privacy.download': 'false', content_filter: 'drugs,violence' },
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.name, 'Bobby');
      assert.equal(r.body.preferences.videos.privacy.view, 'unlisted');
      assert.equal(r.body.preferences.videos.privacy.download, false);
      assert.deepEqual(r.body.content_filter, ['drugs', 'violence']);
    });

    it('PATCH answers 204 before 3.2 and 200 from 3.2', async () => {
      const old = await h.call('PATCH', '/me', { token: bob.token, json: { bio: 'v3.1' }, version: '3.1' });
      assert.equal(old.status, 204);
      assert.equal(old.text, '');
      const mid = await h.call('PATCH', '/me', { token: bob.token, json: { bio: 'v3.2' }, version: '3.2' });
      assert.equal(mid.status, 200);
      assert.equal(mid.body.bio, 'v3.2');
    });

    it('PATCH of another user is 403 and changes nothing', async () => {
      const r = await h.call('PATCH', `/users/${bob.user.id}`, { token: alice.token, json: { name: 'Mallory' } });
      expectError(r, 403, 3200);
      assert.equal((await h.call('GET', `/users/${bob.user.id}`)).body.name, 'Bobby');
    });

    it('PATCH needs a token (401) with the edit scope (403)', async () => {
      expectError(await h.call('PATCH', '/me', { json: { name: 'x' } }), 401, 8003);
      const ro = await h.user('ReadOnly', 'public,private');
      expectError(await h.call('PATCH', '/me', { token: ro.token, json: { name: 'x' } }), 403, 3200);
    });

    const invalid: [string, Record<string, unknown>][] = [
      ['videos.privacy.view', { videos: { privacy: { view: 'friends' } } }],
      ['videos.privacy.comments', { videos: { privacy: { comments: 'users' } } }],
      ['videos.privacy.embed', { videos: { privacy: { embed: 'everywhere' } } }],
      ['videos.privacy.add', { videos: { privacy: { add: 'maybe' } } }],
      ['videos.privacy.download', { videos: { privacy: { download: 3 } } }],
      ['content_filter.1', { content_filter: ['safe', 'gore'] }],
      ['name', { name: 42 }],
      ['name', { name: '' }],
      ['bio', { bio: { nested: true } }],
      ['link', { link: '12345' }],
      ['link', { link: 'has space' }],
      ['password', { password: '' }],
    ];
    for (const [field, body] of invalid) {
      it(`PATCH rejects an invalid ${field} with 400 naming it and writes nothing`, async () => {
        const r = await h.call('PATCH', '/me', { token: bob.token, json: { ...body, location: 'Nowhere' } });
        expectError(r, 400, 2204, field);
        assert.notEqual((await h.call('GET', '/me', { token: bob.token })).body.location, 'Nowhere');
      });
    }

    it('PATCH rejects a link another user holds', async () => {
      const r = await h.call('PATCH', '/me', { token: bob.token, json: { link: 'alice_films' } });
      expectError(r, 400, 2204, 'link');
    });

    it('PATCH requires a password for password default privacy', async () => {
      const carol = await h.user('Carol');
      expectError(await h.call('PATCH', '/me', { token: carol.token, json: { videos: { privacy: { view: 'password' } } } }), 400, 2204, 'password');
    });

    it('ignores unknown and read-only fields', async () => {
      const r = await h.call('PATCH', '/me', { token: bob.token, json: { uri: '/users/1', created_time: 'x', account: 'premium', name: 'Bob B' } });
      assert.equal(r.status, 200);
      assert.equal(r.body.uri, `/users/${bob.user.id}`);
      assert.equal(r.body.created_time, '2026-01-02T03:04:05+00:00');
      assert.equal(r.body.account, 'pro');
    });

    it('refuses an unknown token with 401 even where an anonymous caller may read, never treating it as anonymous', async () => {
      const video = await h.video(alice, { name: 'Public', privacy: { view: 'anybody' } });
      for (const path of ['/users', `/users/${alice.user.id}`, `/users/${alice.user.id}/videos`, `/videos/${video}`, '/channels']) {
        assert.equal((await h.call('GET', path)).status, 200, path);
        const r = await h.call('GET', path, { token: 'not-a-token-of-this-server' });
        expectError(r, 401, 8003);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
      }
    });
  });

  describe(`users search (${driver.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(driver);
      for (const [i, name] of ['Zoe Film', 'adam film', 'Mia Photo', 'Film Club', 'Ann'].entries()) {
        h.clock.advance(60);
        const f = await h.user(name);
        await h.service.store.update('users', f.user.id, { followers_total: i * 10 % 30, videos_total: 5 - i });
      }
    });
    after(() => h.stop());

    const names = (r: { body: { data: { name: string }[] } }) => r.body.data.map((u) => u.name);

    it('lists by date, newest first, by default', async () => {
      const r = await h.call('GET', '/users');
      assert.equal(r.status, 200);
      assert.equal(r.body.total, 5);
      assert.deepEqual(names(r), ['Ann', 'Film Club', 'Mia Photo', 'adam film', 'Zoe Film']);
    });

    it('searches names case-insensitively and sorts', async () => {
      assert.deepEqual(names(await h.call('GET', '/users?query=FILM&sort=alphabetical')), ['adam film', 'Film Club', 'Zoe Film']);
      assert.deepEqual(names(await h.call('GET', '/users?query=film&sort=videos')), ['Zoe Film', 'adam film', 'Film Club']);
      assert.deepEqual(names(await h.call('GET', '/users?query=film&sort=videos&direction=asc')), ['Film Club', 'adam film', 'Zoe Film']);
      assert.deepEqual(names(await h.call('GET', '/users?query=film&sort=followers')), ['adam film', 'Zoe Film', 'Film Club']);
      // Every name holding the word ranks alike (docs/search.md): the most followed first.
      assert.deepEqual(names(await h.call('GET', '/users?query=film&sort=relevant')), ['adam film', 'Zoe Film', 'Film Club']);
    });

    it('pages with links that keep the other parameters', async () => {
      const r = await h.call('GET', '/users?query=film&sort=videos&per_page=2&page=2');
      assert.equal(r.body.total, 3);
      assert.equal(r.body.page, 2);
      assert.equal(r.body.per_page, 2);
      assert.deepEqual(names(r), ['Film Club']);
      assert.deepEqual(r.body.paging, {
        next: null,
        previous: '/users?query=film&sort=videos&per_page=2&page=1',
        first: '/users?query=film&sort=videos&per_page=2&page=1',
        last: '/users?query=film&sort=videos&per_page=2&page=2',
      });
    });

    it('rejects bad list parameters naming them', async () => {
      expectError(await h.call('GET', '/users?sort=random'), 400, 2204, 'sort');
      expectError(await h.call('GET', '/users?direction=up'), 400, 2204, 'direction');
      expectError(await h.call('GET', '/users?per_page=101'), 400, 2204, 'per_page');
      expectError(await h.call('GET', '/users?per_page=0'), 400, 2204, 'per_page');
      expectError(await h.call('GET', '/users?page=0'), 400, 2204, 'page');
      expectError(await h.call('GET', '/users?page=1e400'), 400, 2204, 'page');
      expectError(await h.call('GET', '/users?page=abc'), 400, 2204, 'page');
      expectError(await h.call('GET', '/users?sort=relevant'), 400, 2204, 'query');
    });
  });

  describe(`users search by relevance (${driver.name})`, () => {
    let h: Harness;
    const names = (r: { body: { data: { name: string }[] } }) => r.body.data.map((u) => u.name);
    const search = async (query: string) => {
      const r = await h.call('GET', `/users${query}`);
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      const people: [string, number][] = [
        ['Spat Rock', 90],
        ['Patrick', 5],
        ['pat', 1],
        ['Patricia Lowe', 40],
        ['Ann Pat', 70],
        ['PAT', 3],
        ['Mia', 100],
      ];
      for (const [name, followers] of people) {
        const f = await h.user(name);
        await h.service.store.update('users', f.user.id, { followers_total: followers });
      }
    });
    after(() => h.stop());

    it('finds names with a word beginning with the query (not "Spat"), the most followed first', async () => {
      const r = await search('?query=Pat&sort=relevant');
      assert.equal(r.body.total, 5);
      assert.deepEqual(names(r), ['Ann Pat', 'Patricia Lowe', 'Patrick', 'PAT', 'pat']);
      assert.deepEqual(names(await search('?query=%20pAt%20')), names(r));
      assert.deepEqual(names(await search('?query=pat%20lo')), ['Patricia Lowe']);
    });

    it('pages across the ranks with exact totals', async () => {
      const pages = [];
      for (const page of [1, 2, 3, 4]) {
        const r = await search(`?query=pat&sort=relevant&per_page=2&page=${page}`);
        assert.equal(r.body.total, 5);
        pages.push(names(r));
      }
      assert.deepEqual(pages, [['Ann Pat', 'Patricia Lowe'], ['Patrick', 'PAT'], ['pat'], []]);
      assert.deepEqual(names(await search('?query=pat&sort=relevant&per_page=4&page=2')), ['pat']);
      assert.deepEqual(names(await search('?query=pat&sort=relevant&per_page=3&page=2')), ['PAT', 'pat']);
    });

    it('direction=asc turns the ranking round', async () => {
      assert.deepEqual(names(await search('?query=pat&sort=relevant&direction=asc')), ['pat', 'PAT', 'Patrick', 'Patricia Lowe', 'Ann Pat']);
    });

    it('ranks a match in the bio or location below any name match, whatever the followers', async () => {
      const f = await h.user('Mona');
      assert.equal((await h.call('PATCH', '/me', { token: f.token, json: { bio: 'Pâtissière', location: 'Lyon' } })).status, 200);
      await h.service.store.update('users', f.user.id, { followers_total: 1000 });
      assert.deepEqual(names(await search('?query=pat&sort=relevant')), ['Ann Pat', 'Patricia Lowe', 'Patrick', 'PAT', 'pat', 'Mona']);
      assert.deepEqual(names(await search('?query=lyon')), ['Mona']);
      await h.service.store.update('users', f.user.id, { bio: '', location: '' });
    });

    it('ranks by the current name after a rename', async () => {
      const f = await h.user('Zed');
      const r = await h.call('PATCH', '/me', { token: f.token, json: { name: 'Pat' } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(names(await search('?query=pat&sort=relevant&direction=asc&per_page=1')), ['Pat']);
      assert.equal((await search('?query=zed')).body.total, 0);
    });
  });

  describe(`users search disabled (${driver.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(driver, { userSearch: false });
    });
    after(() => h.stop());
    it('answers 503 when user search is disabled', async () => {
      const r = await h.call('GET', '/users?query=a');
      assert.equal(r.status, 503);
      assert.equal(typeof r.body.developer_message, 'string');
    });
  });
}
