import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/me/customlogos and /users/{user_id}/customlogos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    /** Adds a logo through the API and answers its uri. */
    const add = async (owner: Fixture = alice, form: Record<string, string> = {}): Promise<string> => {
      h.clock.advance(1);
      const r = await h.call('POST', '/me/customlogos', { token: owner.token, form });
      assert.equal(r.status, 201, r.text);
      return r.body.uri as string;
    };
    const idOf = (uri: string): string => uri.split('/').pop()!;
    const logoCount = (owner: Fixture): Promise<number> => h.service.store.count('custom_logos', { field: 'user_id', op: 'eq', value: owner.user.id });
    const activeOf = async (owner: Fixture): Promise<string[]> => {
      const r = await h.call('GET', '/me/customlogos', { token: owner.token });
      return r.body.data.filter((l: { active: boolean }) => l.active).map((l: { uri: string }) => l.uri);
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('POST', () => {
      it('answers 201 with the logo, shaped like a typed Picture', async () => {
        const r = await h.call('POST', '/me/customlogos', { token: alice.token });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        const id = idOf(r.body.uri);
        assert.equal(r.body.uri, `/users/${alice.user.id}/customlogos/${id}`);
        assert.equal(r.body.active, false);
        assert.equal(r.body.sizes.length, 7);
        assert.match(r.body.link, new RegExp(`^${h.server.url}/media/customlogos/${id}/p-[0-9a-f]{32}\\?upload=[0-9a-f]{32}$`));
        assert.deepEqual(r.body.sizes[0], { width: 100, height: 75, link: `${r.body.link.split('?')[0]}/100x75.png` });
        assert.equal(r.body.created_time, h.clock.now().toISOString().replace('.000Z', '+00:00'));
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
      });

      it('with active makes it the one active logo', async () => {
        const carol = await h.user('Carol');
        const first = await add(carol, { active: 'true' });
        assert.deepEqual(await activeOf(carol), [first]);
        const second = await add(carol, { active: 'true' });
        assert.deepEqual(await activeOf(carol), [second]);
        await add(carol, { active: 'false' });
        assert.deepEqual(await activeOf(carol), [second]);
        assert.equal(await logoCount(carol), 3);
      });

      it('adds through /users/{user_id} for the caller; 403 for another user, 404 for a missing one, and adds nothing', async () => {
        const r = await h.call('POST', `/users/${alice.user.id}/customlogos`, { token: alice.token, json: { active: true } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.active, true);
        const [aliceBefore, bobBefore] = [await logoCount(alice), await logoCount(bob)];
        expectError(await h.call('POST', `/users/${bob.user.id}/customlogos`, { token: alice.token, json: {} }), 403, 3200);
        expectError(await h.call('POST', '/users/999999/customlogos', { token: alice.token, json: {} }), 404, 5000);
        assert.equal(await logoCount(alice), aliceBefore);
        assert.equal(await logoCount(bob), bobBefore);
      });

      it('is 403 for a basic-plan account, and adds nothing', async () => {
        const basic = await h.user('Basic', 'all', { account: 'basic' });
        expectError(await h.call('POST', '/me/customlogos', { token: basic.token, json: {} }), 403, 3200);
        expectError(await h.call('POST', `/users/${basic.user.id}/customlogos`, { token: basic.token, json: { active: true } }), 403, 3200);
        assert.equal(await logoCount(basic), 0);
      });

      for (const active of ['maybe', 2]) {
        it(`rejects active=${JSON.stringify(active)} with 400 naming active and adds nothing`, async () => {
          const before = await logoCount(alice);
          expectError(await h.call('POST', '/me/customlogos', { token: alice.token, json: { active } }), 400, 2204, 'active');
          assert.equal(await logoCount(alice), before);
        });
      }

      it('needs a user (401) with the upload scope (403)', async () => {
        const noUpload = await h.user('NoUpload', 'public,create,edit');
        expectError(await h.call('POST', '/me/customlogos', { json: {} }), 401, 8003);
        expectError(await h.call('POST', `/users/${alice.user.id}/customlogos`, { json: {} }), 401, 8003);
        expectError(await h.call('POST', '/me/customlogos', { token: noUpload.token, json: {} }), 403, 3200);
        assert.equal(await logoCount(noUpload), 0);
      });

      it('answers plain JSON in 3.1', async () => {
        const r = await h.call('POST', '/me/customlogos', { token: alice.token, json: {}, version: '3.1' });
        assert.equal(r.status, 201);
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.match(r.body.uri, /^\/users\/\d+\/customlogos\/\d+$/);
      });
    });

    describe('GET list', () => {
      it("lists the caller's logos newest first, paged, through both paths", async () => {
        const dave = await h.user('Dave');
        const a = await add(dave);
        const b = await add(dave, { active: 'true' });
        const c = await add(dave);
        await add(bob);
        const r = await h.call('GET', '/me/customlogos', { token: dave.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.equal(r.body.per_page, 25);
        assert.deepEqual(r.body.data.map((l: { uri: string }) => l.uri), [c, b, a]);
        assert.deepEqual(r.body.data.map((l: { active: boolean }) => l.active), [false, true, false]);
        const page2 = await h.call('GET', `/users/${dave.user.id}/customlogos?per_page=2&page=2`, { token: dave.token });
        assert.equal(page2.status, 200, page2.text);
        assert.equal(page2.body.total, 3);
        assert.deepEqual(page2.body.data.map((l: { uri: string }) => l.uri), [a]);
        assert.equal(page2.body.paging.next, null);
        assert.equal(page2.body.paging.previous, `/users/${dave.user.id}/customlogos?per_page=2&page=1`);
      });

      it("is 403 for another user's logos, 404 for a missing user, 401 without a user, 400 for bad paging", async () => {
        await add(bob);
        expectError(await h.call('GET', `/users/${bob.user.id}/customlogos`, { token: alice.token }), 403, 3200);
        expectError(await h.call('GET', '/users/999999/customlogos', { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', '/me/customlogos'), 401, 8003);
        expectError(await h.call('GET', `/users/${bob.user.id}/customlogos`), 401, 8003);
        expectError(await h.call('GET', '/me/customlogos?per_page=101', { token: alice.token }), 400, 2204, 'per_page');
        expectError(await h.call('GET', '/me/customlogos?page=0', { token: alice.token }), 400, 2204, 'page');
      });
    });

    describe('GET one', () => {
      it('answers the logo through both paths', async () => {
        const uri = await add(alice, { active: 'true' });
        const listed = (await h.call('GET', '/me/customlogos', { token: alice.token })).body.data.find((l: { uri: string }) => l.uri === uri);
        for (const path of [uri, `/me/customlogos/${idOf(uri)}`]) {
          const r = await h.call('GET', path, { token: alice.token });
          assert.equal(r.status, 200, r.text);
          assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
          assert.deepEqual(r.body, listed);
        }
      });

      it("is 403 for another user's logo, 404 for a missing one or one that is not the named user's, 401 without a user", async () => {
        const bobLogo = await add(bob);
        const aliceLogo = await add(alice);
        expectError(await h.call('GET', bobLogo, { token: alice.token }), 403, 3200);
        expectError(await h.call('GET', `/users/${bob.user.id}/customlogos/999999`, { token: alice.token }), 403, 3200);
        expectError(await h.call('GET', `/me/customlogos/${idOf(bobLogo)}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `/users/${alice.user.id}/customlogos/${idOf(bobLogo)}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', '/me/customlogos/999999', { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', '/me/customlogos/abc', { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', aliceLogo), 401, 8003);
        expectError(await h.call('GET', `/me/customlogos/${idOf(aliceLogo)}`), 401, 8003);
      });
    });
  });
}
