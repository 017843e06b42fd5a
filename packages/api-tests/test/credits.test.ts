import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/videos/{video_id}/credits (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    const video = async (json: Record<string, unknown> = {}): Promise<string> => `/videos/${await h.video(alice, json)}`;
    const body = (who: Fixture, extra: Record<string, unknown> = {}) => ({
      email: `${who.user.name.toLowerCase()}@example.com`,
      name: who.user.name,
      role: 'Director',
      user_uri: `/users/${who.user.id}`,
      ...extra,
    });
    const credit = async (uri: string, who: Fixture, extra: Record<string, unknown> = {}): Promise<string> => {
      h.clock.advance(1);
      const r = await h.call('POST', `${uri}/credits`, { token: alice.token, json: body(who, extra) });
      assert.equal(r.status, 201, r.text);
      return r.body.uri as string;
    };
    const total = async (uri: string): Promise<number> =>
      (await h.call('GET', uri, { token: alice.token })).body.metadata.connections.credits.total;
    const listed = async (uri: string): Promise<string[]> =>
      (await h.call('GET', `${uri}/credits`, { token: alice.token })).body.data.map((c: { uri: string }) => c.uri);
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
    });
    after(() => h.stop());

    describe('POST', () => {
      it('answers 201 with a typed Credit and counts it on the Clip', async () => {
        const uri = await video({ name: 'Credited' });
        const r = await h.call('POST', `${uri}/credits`, { token: alice.token, json: body(bob) });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.credit+json;version=3.4');
        const id = r.body.uri.split('/').pop();
        assert.match(id, /^\d+$/);
        assert.deepEqual(Object.keys(r.body).sort(), ['name', 'resource_key', 'role', 'uri', 'user', 'video']);
        assert.equal(r.body.uri, `${uri}/credits/${id}`);
        assert.equal(r.body.name, 'Bob');
        assert.equal(r.body.role, 'Director');
        assert.equal(r.body.user.uri, `/users/${bob.user.id}`);
        assert.equal(r.body.user.name, 'Bob');
        assert.deepEqual(r.body.video, { uri, name: 'Credited' });
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
        assert.equal(await total(uri), 1);
        const stored = await h.service.store.get('credits', id);
        assert.equal(stored?.email, 'bob@example.com');
        assert.equal(stored?.creator_id, alice.user.id);
      });

      it('takes a urlencoded body and trims the text fields', async () => {
        const uri = await video();
        const r = await h.call('POST', `${uri}/credits`, {
          token: alice.token,
          form: { email: ' bob@example.com ', name: '  Bobby ', role: ' Editor ', user_uri: `/users/${bob.user.id}` },
        });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.name, 'Bobby');
        assert.equal(r.body.role, 'Editor');
      });

      it('lets the owner credit themselves and one user in several roles', async () => {
        const uri = await video();
        await credit(uri, alice);
        await credit(uri, bob, { role: 'Director' });
        await credit(uri, bob, { role: 'Editor' });
        assert.equal(await total(uri), 3);
      });

      it('answers 400 for a credit that already exists (same user and role) and adds nothing', async () => {
        const uri = await video();
        await credit(uri, bob);
        const r = await h.call('POST', `${uri}/credits`, { token: alice.token, json: body(bob, { name: 'Other name' }) });
        expectError(r, 400, 2204);
        assert.equal(await total(uri), 1);
        assert.equal((await listed(uri)).length, 1);
      });

      const invalid: [string, Record<string, unknown>][] = [
        ['email', { email: undefined }],
        ['name', { name: undefined }],
        ['role', { role: undefined }],
        ['user_uri', { user_uri: undefined }],
        ['email', { email: 'not-an-email' }],
        ['email', { email: 42 }],
        ['name', { name: '   ' }],
        ['name', { name: 'x'.repeat(257) }],
        ['role', { role: '' }],
        ['role', { role: ['Director'] }],
        ['user_uri', { user_uri: 'bob' }],
        ['user_uri', { user_uri: '/videos/1' }],
        ['user_uri', { user_uri: '/users/999999' }],
      ];
      for (const [field, extra] of invalid) {
        it(`answers 400 naming ${field} for ${JSON.stringify(extra)} and adds nothing`, async () => {
          const uri = await video();
          const r = await h.call('POST', `${uri}/credits`, { token: alice.token, json: body(bob, extra) });
          expectError(r, 400, 2204, field);
          assert.equal(await total(uri), 0);
          assert.deepEqual(await listed(uri), []);
        });
      }

      it('answers 400/2205 for a body that is not an object', async () => {
        const uri = await video();
        expectError(await h.call('POST', `${uri}/credits`, { token: alice.token, json: ['x'] }), 400, 2205);
      });

      it("answers 400 when the caller's email is unverified, and adds nothing", async () => {
        const dave = await h.user('Dave', 'all', { verified: false });
        const uri = `/videos/${await h.video(dave)}`;
        const r = await h.call('POST', `${uri}/credits`, { token: dave.token, json: body(bob) });
        expectError(r, 400, 2204);
        assert.match(r.body.developer_message, /verified/);
        assert.equal((await h.call('GET', uri, { token: dave.token })).body.metadata.connections.credits.total, 0);
      });

      it('answers 403 to a caller who does not own the video, 404 for a hidden or missing one', async () => {
        const uri = await video();
        expectError(await h.call('POST', `${uri}/credits`, { token: carol.token, json: body(bob) }), 403, 3200);
        const hidden = await video({ privacy: { view: 'nobody' } });
        expectError(await h.call('POST', `${hidden}/credits`, { token: carol.token, json: body(bob) }), 404, 5000);
        expectError(await h.call('POST', '/videos/999999/credits', { token: alice.token, json: body(bob) }), 404, 5000);
        assert.equal(await total(uri), 0);
        assert.equal(await total(hidden), 0);
      });

      it('needs a user (401) and the edit scope (403)', async () => {
        const uri = await video();
        expectError(await h.call('POST', `${uri}/credits`, { json: body(bob) }), 401, 8003);
        const noEdit = await h.user('No edit', 'public,private,create,delete,interact,upload');
        const own = `/videos/${await h.video(noEdit)}`;
        const r = await h.call('POST', `${own}/credits`, { token: noEdit.token, json: body(bob) });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"edit"/);
      });

      it('answers an empty 201 before 3.3 and the Credit from 3.3 (Versioning 3.3)', async () => {
        const uri = await video();
        for (const version of ['3.1', '3.2']) {
          const r = await h.call('POST', `${uri}/credits`, { token: alice.token, version, json: body(bob, { role: `Role ${version}` }) });
          assert.equal(r.status, 201, r.text);
          assert.equal(r.text, '');
          assert.equal(r.headers.get('content-type'), null);
        }
        const r = await h.call('POST', `${uri}/credits`, { token: alice.token, version: '3.3', json: body(bob) });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.credit+json;version=3.3');
        assert.equal(r.body.role, 'Director');
        assert.equal(await total(uri), 3);
      });
    });

    describe('GET', () => {
      it('lists the credits in the order they were added, paged', async () => {
        const uri = await video();
        const first = await credit(uri, bob);
        const second = await credit(uri, carol, { role: 'Writer' });
        const third = await credit(uri, alice, { role: 'Producer' });
        const r = await h.call('GET', `${uri}/credits`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.credit+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(r.body.data.map((c: { uri: string }) => c.uri), [first, second, third]);
        assert.deepEqual(r.body.data.map((c: { user: { name: string } }) => c.user.name), ['Bob', 'Carol', 'Alice']);
        const paged = await h.call('GET', `${uri}/credits?page=2&per_page=1`);
        assert.equal(paged.body.total, 3);
        assert.deepEqual(paged.body.data.map((c: { uri: string }) => c.uri), [second]);
        assert.equal(paged.body.paging.next, `${uri}/credits?page=3&per_page=1`);
        assert.equal(paged.body.paging.previous, `${uri}/credits?page=1&per_page=1`);
        expectError(await h.call('GET', `${uri}/credits?per_page=101`), 400, 2204, 'per_page');
        expectError(await h.call('GET', `${uri}/credits?page=0`), 400, 2204, 'page');
      });

      it('gets one credit, 404 for a missing one or one of another video', async () => {
        const uri = await video();
        const other = await video();
        const c = await credit(uri, bob);
        const r = await h.call('GET', c);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.credit+json;version=3.4');
        assert.equal(r.body.uri, c);
        assert.equal(r.body.user.uri, `/users/${bob.user.id}`);
        const id = c.split('/').pop();
        expectError(await h.call('GET', `${other}/credits/${id}`), 404, 5000);
        expectError(await h.call('GET', `${uri}/credits/999999`), 404, 5000);
        expectError(await h.call('GET', `${uri}/credits/abc`), 404, 5000);
        expectError(await h.call('GET', `/videos/999999/credits/${id}`), 404, 5000);
        expectError(await h.call('GET', '/videos/999999/credits'), 404, 5000);
      });

      it('hides the credits of a hidden video (404) and needs the password of a password video', async () => {
        const hidden = await video({ privacy: { view: 'nobody' } });
        const c = await credit(hidden, bob);
        expectError(await h.call('GET', `${hidden}/credits`, { token: bob.token }), 404, 5000);
        expectError(await h.call('GET', c, { token: bob.token }), 404, 5000);
        expectError(await h.call('GET', `${hidden}/credits`), 404, 5000);
        assert.equal((await h.call('GET', `${hidden}/credits`, { token: alice.token })).body.total, 1);
        const locked = await video({ privacy: { view: 'password' }, password: 'pw' });
        const lc = await credit(locked, bob);
        expectError(await h.call('GET', `${locked}/credits`, { token: carol.token }), 403, 3200);
        expectError(await h.call('GET', lc, { token: carol.token }), 403, 3200);
        assert.equal((await h.call('GET', `${locked}/credits?password=pw`, { token: carol.token })).body.total, 1);
        assert.equal((await h.call('GET', `${lc}?password=pw`)).status, 200);
      });
    });

    describe('PATCH', () => {
      it('changes name, role and email and answers the Credit', async () => {
        const uri = await video();
        const c = await credit(uri, bob);
        const r = await h.call('PATCH', c, { token: alice.token, json: { name: 'Robert', role: 'Editor', email: 'robert@example.com' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.credit+json;version=3.4');
        assert.equal(r.body.uri, c);
        assert.equal(r.body.name, 'Robert');
        assert.equal(r.body.role, 'Editor');
        assert.equal((await h.service.store.get('credits', c.split('/').pop()!))?.email, 'robert@example.com');
        const partial = await h.call('PATCH', c, { token: alice.token, form: { role: 'Producer' } });
        assert.equal(partial.body.name, 'Robert');
        assert.equal(partial.body.role, 'Producer');
        assert.equal(await total(uri), 1);
      });

      it('answers 204 before 3.2 and still edits (Versioning 3.2)', async () => {
        const uri = await video();
        const c = await credit(uri, bob);
        const r = await h.call('PATCH', c, { token: alice.token, version: '3.1', json: { name: 'Old form' } });
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        assert.equal((await h.call('GET', c)).body.name, 'Old form');
        assert.equal((await h.call('PATCH', c, { token: alice.token, version: '3.2', json: { name: 'New form' } })).status, 200);
      });

      it('answers 400 naming the field for bad input, and for a role that would duplicate a credit; nothing changes', async () => {
        const uri = await video();
        const c = await credit(uri, bob);
        await credit(uri, bob, { role: 'Editor' });
        const before = (await h.call('GET', c)).body;
        expectError(await h.call('PATCH', c, { token: alice.token, json: { name: ' ' } }), 400, 2204, 'name');
        expectError(await h.call('PATCH', c, { token: alice.token, json: { role: 7 } }), 400, 2204, 'role');
        expectError(await h.call('PATCH', c, { token: alice.token, json: { email: 'nope' } }), 400, 2204, 'email');
        expectError(await h.call('PATCH', c, { token: alice.token, json: { name: 'Changed', role: 'Editor' } }), 400, 2204);
        assert.deepEqual((await h.call('GET', c)).body, before);
      });

      it('answers 403 to a caller who does not own the video (the credited user too), 404 for a missing credit or video', async () => {
        const uri = await video();
        const c = await credit(uri, bob);
        expectError(await h.call('PATCH', c, { token: bob.token, json: { name: 'Mine' } }), 403, 3200);
        expectError(await h.call('PATCH', c, { token: carol.token, json: { name: 'Mine' } }), 403, 3200);
        expectError(await h.call('PATCH', `${uri}/credits/999999`, { token: alice.token, json: { name: 'X' } }), 404, 5000);
        expectError(await h.call('PATCH', `/videos/999999/credits/1`, { token: alice.token, json: { name: 'X' } }), 404, 5000);
        const hidden = await video({ privacy: { view: 'nobody' } });
        const hc = await credit(hidden, bob);
        expectError(await h.call('PATCH', hc, { token: bob.token, json: { name: 'X' } }), 404, 5000);
        expectError(await h.call('PATCH', c, { json: { name: 'X' } }), 401, 8003);
        assert.equal((await h.call('GET', c)).body.name, 'Bob');
      });
    });

    describe('DELETE', () => {
      it('lets the creator remove a credit and keeps the count', async () => {
        const uri = await video();
        const c = await credit(uri, bob);
        const kept = await credit(uri, carol);
        const r = await h.call('DELETE', c, { token: alice.token });
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        expectError(await h.call('GET', c), 404, 5000);
        assert.deepEqual(await listed(uri), [kept]);
        assert.equal(await total(uri), 1);
        expectError(await h.call('DELETE', c, { token: alice.token }), 404, 5000);
        assert.equal(await total(uri), 1);
      });

      it('lets the credited user remove their own credit', async () => {
        const uri = await video();
        const c = await credit(uri, bob);
        assert.equal((await h.call('DELETE', c, { token: bob.token })).status, 204);
        assert.equal(await total(uri), 0);
        // Once removed, the same credit can be added again.
        await credit(uri, bob);
        assert.equal(await total(uri), 1);
      });

      it('answers 400 to anyone else, and nothing changes', async () => {
        const uri = await video();
        const c = await credit(uri, bob);
        const r = await h.call('DELETE', c, { token: carol.token });
        expectError(r, 400, 2204);
        assert.match(r.body.developer_message, /credited user/);
        assert.equal((await h.call('GET', c)).status, 200);
        assert.equal(await total(uri), 1);
      });

      it('answers 404 for a hidden video, a missing video or a credit of another video; 401 anonymous; 403 without edit', async () => {
        const hidden = await video({ privacy: { view: 'nobody' } });
        const hc = await credit(hidden, bob);
        expectError(await h.call('DELETE', hc, { token: bob.token }), 404, 5000);
        const uri = await video();
        const other = await video();
        const c = await credit(uri, bob);
        expectError(await h.call('DELETE', `${other}/credits/${c.split('/').pop()}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', `/videos/999999/credits/1`, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', c), 401, 8003);
        const noEdit = await h.user('Nina', 'public,private,create,delete,interact,upload');
        const nc = await credit(uri, noEdit);
        const r = await h.call('DELETE', nc, { token: noEdit.token });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"edit"/);
        assert.equal(await total(uri), 2);
        assert.equal((await h.call('DELETE', nc, { token: alice.token })).status, 204);
        assert.equal(await total(uri), 1);
        assert.equal(await total(hidden), 1);
      });

      it('lets the credited user remove a credit on a password video with its password', async () => {
        const locked = await video({ privacy: { view: 'password' }, password: 'pw' });
        const c = await credit(locked, bob);
        expectError(await h.call('DELETE', c, { token: bob.token }), 403, 3200);
        assert.equal((await h.call('DELETE', c, { token: bob.token, json: { password: 'pw' } })).status, 204);
        assert.equal(await total(locked), 0);
      });
    });

    it('a deleted video takes its credits with it', async () => {
      const uri = await video();
      const c = await credit(uri, bob);
      assert.equal((await h.call('DELETE', uri, { token: alice.token })).status, 204);
      assert.equal(await h.service.store.get('credits', c.split('/').pop()!), null);
    });
  });
}
