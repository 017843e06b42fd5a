import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserRecord } from '@reelbase/core';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

const idOf = (r: Answer): string => String(r.body.uri).split('/').pop()!;

for (const driver of drivers) {
  describe(`portraits: /me/pictures (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let first: string;
    let second: string;
    const total = async (who: Fixture = alice) => (await h.call('GET', `/users/${who.user.id}`)).body.metadata.connections.pictures.total;
    /** The user's copy of the active portrait, which the User representation's `pictures` shows. */
    const activeCopy = async (who: Fixture = alice) => (await h.service.store.get<UserRecord>('users', who.user.id))?.active_picture?.id ?? null;
    const actives = async () => {
      const r = await h.call('GET', '/me/pictures', { token: alice.token });
      return r.body.data.filter((p: { active: boolean }) => p.active).map((p: { uri: string }) => p.uri);
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('POST adds a portrait (200 with the Picture, square sizes) and counts it', async () => {
      const r = await h.call('POST', '/me/pictures', { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      first = idOf(r);
      assert.equal(r.body.uri, `/users/${alice.user.id}/pictures/${first}`);
      assert.equal(r.body.active, false);
      assert.equal(r.body.type, 'custom');
      assert.equal(typeof r.body.resource_key, 'string');
      assert.equal(r.body.sizes.length, 9);
      assert.match(r.body.link, new RegExp(`^${h.server.url}/media/pictures/${first}/p-[0-9a-f]{32}\\?upload=[0-9a-f]{32}$`));
      assert.deepEqual(r.body.sizes[0], { width: 30, height: 30, link: `${r.body.link.split('?')[0]}/30x30.png` });
      assert.equal('default' in r.body, false);
      assert.equal(await total(), 1);
      assert.equal(await activeCopy(), null);
    });

    it('POST with active makes the new portrait the only active one', async () => {
      h.clock.advance(60);
      const r = await h.call('POST', `/users/${alice.user.id}/pictures`, { token: alice.token, form: { active: 'true' } });
      assert.equal(r.status, 200, r.text);
      second = idOf(r);
      assert.equal(r.body.active, true);
      assert.deepEqual(await actives(), [`/users/${alice.user.id}/pictures/${second}`]);
      assert.equal(await activeCopy(), second);
      assert.equal(await total(), 2);
    });

    it('POST answers 200 in every version; the Picture carries `default` in 3.2 only', async () => {
      for (const [version, hasDefault] of [['3.1', false], ['3.2', true], ['3.3', false]] as const) {
        const r = await h.call('POST', '/me/pictures', { token: bob.token, version });
        assert.equal(r.status, 200, `${version}: ${r.text}`);
        assert.equal('default' in r.body, hasDefault, version);
      }
      assert.equal(await total(bob), 3);
    });

    it('GET lists the portraits, newest first, for anyone; GET one answers the Picture', async () => {
      const r = await h.call('GET', `/users/${alice.user.id}/pictures`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      assert.deepEqual(r.body.data.map((p: { uri: string }) => p.uri.split('/').pop()), [second, first]);
      assert.equal(r.body.total, 2);
      const page = await h.call('GET', '/me/pictures?per_page=1&page=2', { token: alice.token });
      assert.equal(page.body.data[0].uri, `/users/${alice.user.id}/pictures/${first}`);
      assert.equal(page.body.paging.previous, '/me/pictures?per_page=1&page=1');
      const one = await h.call('GET', `/users/${alice.user.id}/pictures/${second}`);
      assert.equal(one.status, 200);
      assert.equal(one.body.active, true);
      assert.equal((await h.call('GET', `/me/pictures/${first}`, { token: alice.token })).body.active, false);
      expectError(await h.call('GET', '/me/pictures?per_page=101', { token: alice.token }), 400, 2204, 'per_page');
    });

    it("GET answers 404 for a missing portrait, another user's, or an unknown user; 401 for anonymous /me", async () => {
      expectError(await h.call('GET', `/users/${bob.user.id}/pictures/${first}`), 404, 5000);
      expectError(await h.call('GET', '/me/pictures/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/me/pictures/abc', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/users/999999/pictures'), 404, 5000);
      expectError(await h.call('GET', '/me/pictures'), 401, 8003);
    });

    it('PATCH active switches the active portrait (only one at a time); false leaves none', async () => {
      const r = await h.call('PATCH', `/me/pictures/${first}`, { token: alice.token, json: { active: true } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      assert.equal(r.body.active, true);
      assert.deepEqual(await actives(), [`/users/${alice.user.id}/pictures/${first}`]);
      assert.equal(await activeCopy(), first);
      const off = await h.call('PATCH', `/users/${alice.user.id}/pictures/${first}`, { token: alice.token, form: { active: 'false' } });
      assert.equal(off.body.active, false);
      assert.deepEqual(await actives(), []);
      assert.equal(await activeCopy(), null);
      const old = await h.call('PATCH', `/me/pictures/${second}`, { token: alice.token, json: { active: true }, version: '3.1' });
      assert.equal(old.status, 204);
      assert.equal(old.text, '');
      assert.deepEqual(await actives(), [`/users/${alice.user.id}/pictures/${second}`]);
      expectError(await h.call('PATCH', `/me/pictures/${first}`, { token: alice.token, json: { active: 'sometimes' } }), 400, 2204, 'active');
      assert.equal(await activeCopy(), second);
    });

    it("only the user changes their portraits (403); scopes upload, edit and delete; 401 for anonymous", async () => {
      expectError(await h.call('POST', `/users/${alice.user.id}/pictures`, { token: bob.token }), 403, 3200);
      expectError(await h.call('PATCH', `/users/${alice.user.id}/pictures/${first}`, { token: bob.token, json: { active: true } }), 403, 3200);
      expectError(await h.call('DELETE', `/users/${alice.user.id}/pictures/${first}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('POST', '/me/pictures'), 401, 8003);
      expectError(await h.call('DELETE', `/users/${alice.user.id}/pictures/${first}`), 401, 8003);
      const lacking = await h.user('Lacking', 'public,private,interact');
      for (const [method, path, scope] of [
        ['POST', '/me/pictures', 'upload'],
        ['PATCH', `/me/pictures/${first}`, 'edit'],
        ['DELETE', `/me/pictures/${first}`, 'delete'],
      ]) {
        const r = await h.call(method, path, { token: lacking.token, json: {} });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, new RegExp(`"${scope}"`));
      }
      expectError(await h.call('PATCH', `/me/pictures/${second}`, { token: bob.token, json: { active: false } }), 404, 5000);
      assert.equal(await total(), 2);
      assert.equal(await activeCopy(), second);
    });

    it('DELETE removes a portrait (204) and the count; deleting the active one leaves the placeholder', async () => {
      let r = await h.call('DELETE', `/me/pictures/${first}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal(await total(), 1);
      assert.equal(await activeCopy(), second);
      expectError(await h.call('GET', `/me/pictures/${first}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `/me/pictures/${first}`, { token: alice.token }), 404, 5000);
      r = await h.call('DELETE', `/users/${alice.user.id}/pictures/${second}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal(await total(), 0);
      assert.equal(await activeCopy(), null);
      const empty = await h.call('GET', '/me/pictures', { token: alice.token });
      assert.deepEqual(empty.body.data, []);
      assert.equal(empty.body.total, 0);
    });
  });
}
