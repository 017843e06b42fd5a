import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createToken, parseScopes } from '@reelbase/core';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/me/categories and /users/{user_id}/categories (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;

    const call = (method: string, path: string, who: Fixture = alice): Promise<Answer> => h.call(method, path, { token: who.token });
    const follow = async (category: string, who: Fixture = alice): Promise<void> => {
      h.clock.advance(60);
      const r = await call('PUT', `/me/categories/${category}`, who);
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
    };
    const slugs = (r: Answer): string[] => r.body.data.map((c: { uri: string }) => c.uri.split('/').pop());
    const list = async (query = '', who: Fixture = alice): Promise<Answer> => {
      const r = await call('GET', `/me/categories${query}`, who);
      assert.equal(r.status, 200, r.text);
      return r;
    };
    const total = async (who: Fixture = alice): Promise<number> => (await call('GET', '/me', who)).body.metadata.connections.categories.total;
    const time = (): string => h.clock.now().toISOString().replace('.000Z', '+00:00');

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('PUT follows a category (204), by slug or by name, and counts it once', async () => {
      await follow('music');
      const musicTime = time();
      assert.equal(await total(), 1);
      await follow('music');
      await follow('Music');
      assert.equal(await total(), 1);
      await follow('Documentary');
      await follow('2d');
      assert.equal(await total(), 3);
      const r = await list();
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.category+json;version=3.4');
      assert.equal(r.body.total, 3);
      assert.deepEqual(slugs(r), ['2d', 'documentary', 'music']);
      assert.deepEqual(r.body.data[2].metadata.interactions.follow, {
        uri: `/users/${alice.user.id}/categories/music`,
        options: ['GET', 'PUT', 'DELETE'],
        added: true,
        added_time: musicTime,
      });
    });

    it('GET on one category answers 204 when followed, 404 when not or when there is no such category', async () => {
      const r = await call('GET', '/me/categories/music');
      assert.equal(r.status, 204);
      assert.equal(r.text, '');
      assert.equal((await call('GET', '/me/categories/Music')).status, 204);
      assert.equal((await call('GET', `/users/${alice.user.id}/categories/music`)).status, 204);
      expectError(await call('GET', '/me/categories/comedy'), 404, 5000);
      expectError(await call('GET', '/me/categories/no-such-thing'), 404, 5000);
    });

    it('sorts by date (newest first, the default), alphabetical or name, and pages', async () => {
      assert.deepEqual(slugs(await list('?sort=date')), ['2d', 'documentary', 'music']);
      assert.deepEqual(slugs(await list('?sort=date&direction=asc')), ['music', 'documentary', '2d']);
      assert.deepEqual(slugs(await list('?sort=alphabetical')), ['2d', 'documentary', 'music']);
      assert.deepEqual(slugs(await list('?sort=name&direction=desc')), ['music', 'documentary', '2d']);
      const page = await list('?sort=name&page=2&per_page=2');
      assert.equal(page.body.total, 3);
      assert.deepEqual(slugs(page), ['music']);
      assert.deepEqual(page.body.paging, {
        next: null,
        previous: '/me/categories?sort=name&page=1&per_page=2',
        first: '/me/categories?sort=name&page=1&per_page=2',
        last: '/me/categories?sort=name&page=2&per_page=2',
      });
      assert.deepEqual(slugs(await list('', bob)), []);
      const viaUsers = await call('GET', `/users/${alice.user.id}/categories`);
      assert.equal(viaUsers.status, 200);
      assert.deepEqual(slugs(viaUsers), ['2d', 'documentary', 'music']);
    });

    it("shows the caller's follow on every Category representation from 3.3", async () => {
      const music = (await call('GET', '/categories/music')).body;
      assert.equal(music.metadata.interactions.follow.added, true);
      assert.equal(music.metadata.interactions.follow.uri, `/users/${alice.user.id}/categories/music`);
      assert.equal((await call('GET', '/categories/music', bob)).body.metadata.interactions.follow.added, false);
      assert.deepEqual((await h.call('GET', '/categories/music')).body.metadata.interactions, {});
      const top = (await call('GET', '/categories?per_page=100')).body.data;
      assert.deepEqual(
        top.filter((c: { metadata: { interactions: { follow: { added: boolean } } } }) => c.metadata.interactions.follow.added).map((c: { uri: string }) => c.uri),
        ['/categories/documentary', '/categories/music'],
      );
      const video = await h.video(bob);
      assert.equal((await h.call('PUT', `/videos/${video}/categories`, { token: bob.token, json: { category: ['2d', 'music'] } })).status, 201);
      const onVideo = (await call('GET', `/videos/${video}/categories`)).body.data;
      assert.deepEqual(onVideo.map((c: { metadata: { interactions: { follow: { added: boolean } } } }) => c.metadata.interactions.follow.added), [true, true]);
      const old = await h.call('GET', '/categories/music', { token: alice.token, version: '3.2' });
      assert.equal(old.body.metadata, undefined);
    });

    it('DELETE unfollows (204); unfollowing what is not followed changes nothing (204)', async () => {
      const r = await call('DELETE', '/me/categories/Documentary');
      assert.equal(r.status, 204);
      assert.equal(await total(), 2);
      expectError(await call('GET', '/me/categories/documentary'), 404, 5000);
      assert.equal((await call('DELETE', '/me/categories/documentary')).status, 204);
      assert.equal(await total(), 2);
      assert.deepEqual(slugs(await list()), ['2d', 'music']);
      expectError(await call('DELETE', '/me/categories/no-such-thing'), 404, 5000);
      expectError(await call('PUT', '/me/categories/no-such-thing'), 404, 5000);
      assert.equal(await total(), 2);
    });

    it("answers 403/3200 for another user's categories and changes nothing", async () => {
      for (const [method, path] of [
        ['GET', `/users/${bob.user.id}/categories`],
        ['GET', `/users/${bob.user.id}/categories/music`],
        ['PUT', `/users/${bob.user.id}/categories/music`],
        ['DELETE', `/users/${bob.user.id}/categories/music`],
      ]) {
        expectError(await call(method, path), 403, 3200);
      }
      assert.equal(await total(bob), 0);
      expectError(await call('GET', '/users/999999/categories'), 404, 5000);
    });

    it('needs a user (401), the private scope to read and the interact scope to change (403)', async () => {
      for (const [method, path] of [
        ['GET', '/me/categories'],
        ['GET', '/me/categories/music'],
        ['PUT', '/me/categories/music'],
        ['DELETE', '/me/categories/music'],
        ['GET', `/users/${alice.user.id}/categories`],
      ]) {
        expectError(await h.call(method, path), 401, 8003);
      }
      const reader = await h.user('Reader', 'public,private');
      const actor = await h.user('Actor', 'public,interact');
      for (const [method, path, who, scope] of [
        ['GET', '/me/categories', actor, 'private'],
        ['GET', '/me/categories/music', actor, 'private'],
        ['PUT', '/me/categories/music', reader, 'interact'],
        ['DELETE', '/me/categories/music', reader, 'interact'],
      ] as const) {
        const r = await call(method, path, who);
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, new RegExp(`"${scope}"`));
      }
      assert.equal(await total(reader), 0);
      await follow('music', actor);
      // Without private the actor's own token counts what it could list of them: nothing (issue 46 §7).
      assert.equal(await total(actor), 0);
      const { token } = await createToken(h.service.store, h.clock.now(), actor.user.id, parseScopes('public,private'));
      assert.equal(await total({ ...actor, token }), 1);
    });

    it('rejects bad list parameters naming them', async () => {
      expectError(await call('GET', '/me/categories?sort=followers'), 400, 2204, 'sort');
      expectError(await call('GET', '/me/categories?direction=sideways'), 400, 2204, 'direction');
      expectError(await call('GET', '/me/categories?per_page=0'), 400, 2204, 'per_page');
    });
  });
}
