import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/videos/{video_id}/privacy/users (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    let dave: Fixture;
    let shared: string;
    const accessTotal = async (id: string) =>
      (await h.call('GET', `/videos/${id}`, { token: alice.token })).body.metadata.connections.users_with_access.total as number;
    const listed = async (id: string) =>
      (await h.call('GET', `/videos/${id}/privacy/users?per_page=100`, { token: alice.token })).body.data.map((u: { uri: string }) => u.uri);
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
      dave = await h.user('Dave');
      shared = await h.video(alice, { privacy: { view: 'users' } });
    });
    after(() => h.stop());

    it('PUT adds the users named by URI or id, each once, and answers them as Users', async () => {
      const r = await h.call('PUT', `/videos/${shared}/privacy/users`, {
        token: alice.token,
        json: { users: [`/users/${bob.user.id}`, carol.user.id, bob.user.id] },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.deepEqual(
        r.body.map((u: { uri: string; name: string }) => [u.uri, u.name]),
        [
          [`/users/${bob.user.id}`, 'Bob'],
          [`/users/${carol.user.id}`, 'Carol'],
        ],
      );
      assert.equal(await accessTotal(shared), 2);
      assert.equal((await h.call('GET', `/videos/${shared}`, { token: bob.token })).status, 200);
      expectError(await h.call('GET', `/videos/${shared}`, { token: dave.token }), 404, 5000);
    });

    it('PUT again changes nothing; a form body takes a comma-separated list', async () => {
      const again = await h.call('PUT', `/videos/${shared}/privacy/users`, { token: alice.token, form: { users: `/users/${bob.user.id},${carol.user.id}` } });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.length, 2);
      assert.equal(await accessTotal(shared), 2);
    });

    it('PUT answers 400 naming users for a bad or unknown entry, and adds nobody', async () => {
      const put = (json: unknown) => h.call('PUT', `/videos/${shared}/privacy/users`, { token: alice.token, json });
      expectError(await put({ users: [dave.user.id, '/users/999999'] }), 400, 2900, 'users');
      expectError(await put({ users: [dave.user.id, 'not a user!'] }), 400, 2204, 'users');
      expectError(await put({ users: [dave.user.id, 7] }), 400, 2204, 'users.1');
      expectError(await put({ users: [] }), 400, 2204, 'users');
      expectError(await put({}), 400, 2204, 'users');
      expectError(await put({ users: 'x'.repeat(300) }), 400, 2204, 'users.0');
      expectError(await h.call('PUT', `/videos/${shared}/privacy/users`, { token: alice.token, raw: '[1,2]', headers: { 'content-type': 'application/json' } }), 400, 2205);
      assert.equal(await accessTotal(shared), 2);
      assert.deepEqual((await listed(shared)).sort(), [`/users/${bob.user.id}`, `/users/${carol.user.id}`].sort());
    });

    it('PUT and the single-user forms need the owner, the edit scope and a users-privacy video', async () => {
      const open = await h.video(alice);
      const paths = [`/videos/${shared}/privacy/users`, `/videos/${shared}/privacy/users/${dave.user.id}`];
      // Bob may see the video (he is on its list) but does not own it; Dave may not even see it.
      expectError(await h.call('PUT', paths[0], { token: bob.token, json: { users: [dave.user.id] } }), 403, 3200);
      expectError(await h.call('PUT', paths[0], { token: dave.token, json: { users: [dave.user.id] } }), 404, 5000);
      expectError(await h.call('PUT', paths[1], { token: bob.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${shared}/privacy/users/${carol.user.id}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('PUT', paths[1], { token: dave.token }), 404, 5000);
      expectError(await h.call('PUT', paths[0], { json: { users: [dave.user.id] } }), 401, 8003);
      expectError(await h.call('PUT', paths[1]), 401, 8003);
      const noEdit = await h.user('No edit', 'public,private,delete,interact,upload');
      expectError(await h.call('PUT', paths[1], { token: noEdit.token }), 403, 3200);
      expectError(await h.call('PUT', '/videos/999999/privacy/users', { token: alice.token, json: { users: [dave.user.id] } }), 404, 5000);
      expectError(await h.call('PUT', `/videos/${open}/privacy/users`, { token: alice.token, json: { users: [dave.user.id] } }), 403, 3200);
      expectError(await h.call('PUT', `/videos/${open}/privacy/users/${dave.user.id}`, { token: alice.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${open}/privacy/users/${dave.user.id}`, { token: alice.token }), 403, 3200);
      assert.equal(await accessTotal(shared), 2);
      assert.equal(await accessTotal(open), 0);
    });

    it('PUT of one user answers 200 with the User from 3.3 and 204 before, adding them once', async () => {
      const path = `/videos/${shared}/privacy/users/${dave.user.id}`;
      const latest = await h.call('PUT', path, { token: alice.token });
      assert.equal(latest.status, 200, latest.text);
      assert.equal(latest.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(latest.body.uri, `/users/${dave.user.id}`);
      assert.equal(latest.body.name, 'Dave');
      const v33 = await h.call('PUT', path, { token: alice.token, version: '3.3' });
      assert.equal(v33.status, 200);
      assert.equal(v33.body.uri, `/users/${dave.user.id}`);
      const v32 = await h.call('PUT', path, { token: alice.token, version: '3.2' });
      assert.equal(v32.status, 204);
      assert.equal(v32.text, '');
      assert.equal(await accessTotal(shared), 3);
      assert.equal((await h.call('GET', `/videos/${shared}`, { token: dave.token })).status, 200);
      expectError(await h.call('PUT', `/videos/${shared}/privacy/users/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', `/videos/${shared}/privacy/users/no-such-slug`, { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', `/videos/999999/privacy/users/${dave.user.id}`, { token: alice.token }), 404, 5000);
      assert.equal(await accessTotal(shared), 3);
    });

    it('DELETE takes a user off the list: 204, then 404; 404 for an unknown user', async () => {
      const path = `/videos/${shared}/privacy/users/${dave.user.id}`;
      const r = await h.call('DELETE', path, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal(await accessTotal(shared), 2);
      expectError(await h.call('GET', `/videos/${shared}`, { token: dave.token }), 404, 5000);
      expectError(await h.call('DELETE', path, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `/videos/${shared}/privacy/users/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', path), 401, 8003);
      assert.equal(await accessTotal(shared), 2);
    });

    it('GET lists the access list to the owner only, newest first, paged in the store', async () => {
      const video = await h.video(alice, { privacy: { view: 'users' } });
      for (const who of [bob, carol, dave]) {
        h.clock.advance(10);
        assert.equal((await h.call('PUT', `/videos/${video}/privacy/users/${who.user.id}`, { token: alice.token })).status, 200);
      }
      const r = await h.call('GET', `/videos/${video}/privacy/users?per_page=2`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(r.body.total, 3);
      assert.deepEqual(r.body.data.map((u: { name: string }) => u.name), ['Dave', 'Carol']);
      assert.equal(r.body.paging.next, `/videos/${video}/privacy/users?per_page=2&page=2`);
      const asc = await h.call('GET', `/videos/${video}/privacy/users?direction=asc&page=2&per_page=2`, { token: alice.token });
      assert.deepEqual(asc.body.data.map((u: { name: string }) => u.name), ['Dave']);
      assert.equal((await h.call('GET', `/videos/${video}`, { token: alice.token })).body.metadata.connections.users_with_access.total, 3);
      expectError(await h.call('GET', `/videos/${video}/privacy/users`, { token: bob.token }), 403, 3200);
      const stranger = await h.user('Stranger');
      expectError(await h.call('GET', `/videos/${video}/privacy/users`, { token: stranger.token }), 404, 5000);
      expectError(await h.call('GET', `/videos/${video}/privacy/users`), 401, 8003);
      expectError(await h.call('GET', `/videos/${video}/privacy/users?per_page=101`, { token: alice.token }), 400, 2204, 'per_page');
      expectError(await h.call('GET', `/videos/${video}/privacy/users?direction=up`, { token: alice.token }), 400, 2204, 'direction');
    });

    it('DELETE of the list empties it (204): only the owner sees the video then; owner-only, users privacy only', async () => {
      const video = await h.video(alice, { privacy: { view: 'users' } });
      assert.equal((await h.call('PUT', `/videos/${video}/privacy/users`, { token: alice.token, json: { users: [bob.user.id, carol.user.id] } })).status, 200);
      const open = await h.video(alice);
      expectError(await h.call('DELETE', `/videos/${video}/privacy/users`, { token: bob.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${video}/privacy/users`, { token: dave.token }), 404, 5000);
      expectError(await h.call('DELETE', `/videos/${video}/privacy/users`), 401, 8003);
      const noEdit = await h.user('No edit either', 'public,private,delete,interact,upload');
      expectError(await h.call('DELETE', `/videos/${video}/privacy/users`, { token: noEdit.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${open}/privacy/users`, { token: alice.token }), 403, 3200);
      expectError(await h.call('DELETE', '/videos/999999/privacy/users', { token: alice.token }), 404, 5000);
      assert.equal(await accessTotal(video), 2);
      const r = await h.call('DELETE', `/videos/${video}/privacy/users`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
      assert.equal(await accessTotal(video), 0);
      assert.deepEqual(await listed(video), []);
      expectError(await h.call('GET', `/videos/${video}`, { token: bob.token }), 404, 5000);
      assert.equal((await h.call('DELETE', `/videos/${video}/privacy/users`, { token: alice.token })).status, 204);
      // Only this video's list goes.
      assert.equal(await accessTotal(shared), 2);
      assert.deepEqual((await h.call('GET', `/videos/${video}`, { token: alice.token })).body.metadata.connections.users_with_access.options, ['GET', 'PUT', 'DELETE']);
    });

    it('the access list outlives a privacy change and counts again when users privacy returns', async () => {
      const video = await h.video(alice, { privacy: { view: 'users' } });
      await h.call('PUT', `/videos/${video}/privacy/users/${bob.user.id}`, { token: alice.token });
      assert.equal((await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      expectError(await h.call('GET', `/videos/${video}`, { token: bob.token }), 404, 5000);
      assert.equal((await h.call('GET', `/videos/${video}/privacy/users`, { token: alice.token })).body.total, 1);
      assert.equal((await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'users' } } })).status, 200);
      assert.equal((await h.call('GET', `/videos/${video}`, { token: bob.token })).status, 200);
    });
  });

  describe(`/videos/{video_id}/privacy/domains (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let video: string;
    const domains = async () => (await h.call('GET', `/videos/${video}/privacy/domains`, { token: alice.token })).body;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      video = await h.video(alice, { privacy: { embed: 'whitelist' } });
    });
    after(() => h.stop());

    it('PUT adds a domain (204), case-insensitively and once; GET lists it', async () => {
      const r = await h.call('PUT', `/videos/${video}/privacy/domains/Example.COM`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      h.clock.advance(60);
      assert.equal((await h.call('PUT', `/videos/${video}/privacy/domains/example.com`, { token: alice.token })).status, 204);
      assert.equal((await h.call('PUT', `/videos/${video}/privacy/domains/cdn.example.org`, { token: alice.token, form: { allow_hd: 'true' } })).status, 204);
      const list = await h.call('GET', `/videos/${video}/privacy/domains`, { token: alice.token });
      assert.equal(list.status, 200, list.text);
      assert.equal(list.headers.get('content-type'), 'application/json');
      assert.equal(list.body.total, 2);
      assert.deepEqual(list.body.data, [
        { uri: `/videos/${video}/privacy/domains/cdn.example.org`, domain: 'cdn.example.org', allow_hd: true, created_time: '2026-01-02T03:05:05+00:00' },
        { uri: `/videos/${video}/privacy/domains/example.com`, domain: 'example.com', allow_hd: false, created_time: '2026-01-02T03:04:05+00:00' },
      ]);
      const asc = await h.call('GET', `/videos/${video}/privacy/domains?direction=asc&per_page=1`, { token: alice.token });
      assert.deepEqual(asc.body.data.map((d: { domain: string }) => d.domain), ['example.com']);
      assert.equal(asc.body.paging.next, `/videos/${video}/privacy/domains?direction=asc&per_page=1&page=2`);
    });

    it('PUT again with allow_hd changes only that flag', async () => {
      assert.equal((await h.call('PUT', `/videos/${video}/privacy/domains/example.com`, { token: alice.token, json: { allow_hd: true } })).status, 204);
      const body = await domains();
      assert.equal(body.total, 2);
      assert.deepEqual(body.data[1], { uri: `/videos/${video}/privacy/domains/example.com`, domain: 'example.com', allow_hd: true, created_time: '2026-01-02T03:04:05+00:00' });
      expectError(await h.call('PUT', `/videos/${video}/privacy/domains/example.com`, { token: alice.token, json: { allow_hd: 'maybe' } }), 400, 2204, 'allow_hd');
    });

    it('PUT answers 400 naming domain for anything but a domain name', async () => {
      for (const bad of ['localhost', 'not_a_domain.com', 'a..b.com', '-a.com', 'a-.com', '1.2.3.4', 'exa mple.com', `${'a'.repeat(64)}.com`, 'example.com.']) {
        expectError(await h.call('PUT', `/videos/${video}/privacy/domains/${encodeURIComponent(bad)}`, { token: alice.token }), 400, 2204, 'domain');
      }
      assert.equal((await domains()).total, 2);
    });

    it('DELETE removes a domain: 204, then 404', async () => {
      assert.equal((await h.call('PUT', `/videos/${video}/privacy/domains/gone.example`, { token: alice.token })).status, 204);
      assert.equal((await domains()).total, 3);
      const r = await h.call('DELETE', `/videos/${video}/privacy/domains/GONE.example`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal((await domains()).total, 2);
      expectError(await h.call('DELETE', `/videos/${video}/privacy/domains/gone.example`, { token: alice.token }), 404, 5000);
    });

    it('GET of one domain answers it (200), case-insensitively; 404 when it is not on the whitelist', async () => {
      const r = await h.call('GET', `/videos/${video}/privacy/domains/CDN.example.org`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/json');
      assert.deepEqual(r.body, { uri: `/videos/${video}/privacy/domains/cdn.example.org`, domain: 'cdn.example.org', allow_hd: true, created_time: '2026-01-02T03:05:05+00:00' });
      expectError(await h.call('GET', `/videos/${video}/privacy/domains/elsewhere.example`, { token: alice.token }), 404, 5000);
    });

    it('PUT of a list adds each domain once (200 with them), urlencoded or JSON; a bad one adds nothing', async () => {
      const r = await h.call('PUT', `/videos/${video}/privacy/domains`, { token: alice.token, json: { domains: ['One.example', 'two.example', 'one.example'] } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.map((d: { domain: string; allow_hd: boolean }) => [d.domain, d.allow_hd]), [['one.example', false], ['two.example', false]]);
      const form = await h.call('PUT', `/videos/${video}/privacy/domains`, { token: alice.token, form: { domains: 'two.example,three.example', allow_hd: 'true' } });
      assert.equal(form.status, 200, form.text);
      assert.deepEqual(form.body.map((d: { domain: string; allow_hd: boolean }) => [d.domain, d.allow_hd]), [['two.example', true], ['three.example', true]]);
      assert.equal((await domains()).total, 5);
      const put = (json: unknown) => h.call('PUT', `/videos/${video}/privacy/domains`, { token: alice.token, json });
      expectError(await put({ domains: ['four.example', 'not a domain'] }), 400, 2204, 'domains.1');
      expectError(await put({ domains: [] }), 400, 2204, 'domains');
      expectError(await put({}), 400, 2204, 'domains');
      expectError(await put({ domains: ['four.example'], allow_hd: 'sometimes' }), 400, 2204, 'allow_hd');
      expectError(await put({ domains: Array.from({ length: 101 }, (_, i) => `d${i}.example`) }), 400, 2204, 'domains');
      expectError(await h.call('PUT', `/videos/${video}/privacy/domains`, { token: bob.token, json: { domains: ['four.example'] } }), 403, 3200);
      assert.equal((await domains()).total, 5);
      for (const d of ['one.example', 'two.example', 'three.example']) {
        assert.equal((await h.call('DELETE', `/videos/${video}/privacy/domains/${d}`, { token: alice.token })).status, 204);
      }
    });

    it('DELETE of the whitelist empties it (204); owner-only; only that video\'s whitelist goes', async () => {
      const other = await h.video(alice, { privacy: { embed: 'whitelist' } });
      await h.call('PUT', `/videos/${other}/privacy/domains`, { token: alice.token, json: { domains: ['a.example', 'b.example'] } });
      expectError(await h.call('DELETE', `/videos/${other}/privacy/domains`, { token: bob.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${other}/privacy/domains`), 401, 8003);
      const r = await h.call('DELETE', `/videos/${other}/privacy/domains`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal((await h.call('GET', `/videos/${other}/privacy/domains`, { token: alice.token })).body.total, 0);
      assert.equal((await h.call('DELETE', `/videos/${other}/privacy/domains`, { token: alice.token })).status, 204);
      assert.equal((await domains()).total, 2);
    });

    it('every whitelist operation answers 403 when the video has no whitelist, and changes nothing', async () => {
      const open = await h.video(alice, { privacy: { embed: 'public' } });
      expectError(await h.call('GET', `/videos/${open}/privacy/domains`, { token: alice.token }), 403, 3200);
      expectError(await h.call('GET', `/videos/${open}/privacy/domains/example.com`, { token: alice.token }), 403, 3200);
      expectError(await h.call('PUT', `/videos/${open}/privacy/domains`, { token: alice.token, json: { domains: ['example.com'] } }), 403, 3200);
      expectError(await h.call('PUT', `/videos/${open}/privacy/domains/example.com`, { token: alice.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${open}/privacy/domains/example.com`, { token: alice.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${open}/privacy/domains`, { token: alice.token }), 403, 3200);
      assert.equal((await h.call('PATCH', `/videos/${open}`, { token: alice.token, json: { privacy: { embed: 'whitelist' } } })).status, 200);
      assert.equal((await h.call('GET', `/videos/${open}/privacy/domains`, { token: alice.token })).body.total, 0);
    });

    it('only the owner manages the whitelist; hidden and missing videos answer 404', async () => {
      const hidden = await h.video(alice, { privacy: { view: 'nobody', embed: 'whitelist' } });
      for (const [method, suffix] of [['GET', ''], ['GET', '/example.com'], ['PUT', '/example.net'], ['DELETE', '/example.com'], ['DELETE', '']]) {
        expectError(await h.call(method, `/videos/${video}/privacy/domains${suffix}`, { token: bob.token }), 403, 3200);
        expectError(await h.call(method, `/videos/${hidden}/privacy/domains${suffix}`, { token: bob.token }), 404, 5000);
        expectError(await h.call(method, `/videos/999999/privacy/domains${suffix}`, { token: alice.token }), 404, 5000);
        expectError(await h.call(method, `/videos/${video}/privacy/domains${suffix}`), 401, 8003);
      }
      const noEdit = await h.user('No edit', 'public,private,delete,interact,upload');
      expectError(await h.call('PUT', `/videos/${video}/privacy/domains/example.net`, { token: noEdit.token }), 403, 3200);
      expectError(await h.call('DELETE', `/videos/${video}/privacy/domains/example.com`, { token: noEdit.token }), 403, 3200);
      assert.deepEqual((await domains()).data.map((d: { domain: string }) => d.domain), ['cdn.example.org', 'example.com']);
      expectError(await h.call('GET', `/videos/${video}/privacy/domains?per_page=0`, { token: alice.token }), 400, 2204, 'per_page');
    });
  });
}
