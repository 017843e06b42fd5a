import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/me/appearances (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    /** Video ids by name. */
    const videos: Record<string, string> = {};

    const credit = async (owner: Fixture, video: string, who: Fixture, role = 'Actor'): Promise<Answer> =>
      h.call('POST', `/videos/${videos[video]}/credits`, {
        token: owner.token,
        json: { email: 'c@example.com', name: who.user.name, role, user_uri: `/users/${who.user.id}` },
      });
    const credited = async (owner: Fixture, video: string, who: Fixture, role = 'Actor'): Promise<string> => {
      const r = await credit(owner, video, who, role);
      assert.equal(r.status, 201, r.text);
      return r.body.uri;
    };
    const appearances = async (query = '', who: Fixture = bob): Promise<Answer> => {
      const r = await h.call('GET', `/me/appearances${query}`, { token: who.token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    const names = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);
    const total = async (who: Fixture = bob): Promise<number> =>
      (await h.call('GET', '/me', { token: who.token })).body.metadata.connections.appearances.total;

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
      const specs: [string, Fixture, Record<string, unknown>][] = [
        ['beach', alice, { name: 'Beach day', description: 'sand' }],
        ['city', alice, { name: 'city lights', privacy: { embed: 'private' } }],
        ['secret', alice, { name: 'Secret cut', privacy: { view: 'nobody' } }],
        ['forest', carol, { name: 'Forest walk', description: 'trees and sand' }],
        ['other', carol, { name: 'Other film' }],
      ];
      for (const [key, owner, json] of specs) {
        h.clock.advance(60);
        videos[key] = await h.video(owner, json);
      }
      await h.service.store.update('videos', videos.beach, { plays: 5, duration: 30, likes_total: 1, comments_total: 9 });
      await h.service.store.update('videos', videos.city, { plays: 50, duration: 10, likes_total: 3, comments_total: 0 });
      await h.service.store.update('videos', videos.forest, { plays: 1, duration: 90, likes_total: 2, comments_total: 4 });
    });
    after(() => h.stop());

    it('starts empty', async () => {
      const r = await appearances();
      assert.equal(r.body.total, 0);
      assert.deepEqual(r.body.data, []);
      assert.equal(await total(), 0);
    });

    it('lists the videos the caller is credited in as Clips, counting a video with several credits once', async () => {
      await credited(alice, 'beach', bob, 'Actor');
      await credited(alice, 'beach', bob, 'Editor');
      await credited(alice, 'city', bob);
      await credited(carol, 'forest', bob);
      await credited(carol, 'other', alice);
      const r = await appearances();
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(r.body.total, 3);
      assert.deepEqual(names(r), ['Forest walk', 'city lights', 'Beach day']);
      assert.equal(r.body.data[0].uri, `/videos/${videos.forest}`);
      assert.equal(await total(), 3);
      assert.deepEqual(names(await appearances('', alice)), ['Other film']);
      assert.equal(await total(alice), 1);
      assert.equal(await total(carol), 0);
    });

    it('hides videos the caller may not see, while the counter counts every credit', async () => {
      await credited(alice, 'secret', bob);
      assert.equal(await total(), 4);
      const r = await appearances();
      assert.equal(r.body.total, 3);
      assert.ok(!names(r).includes('Secret cut'));
    });

    it('sorts, searches, filters and pages in the store', async () => {
      assert.deepEqual(names(await appearances('?sort=alphabetical')), ['Beach day', 'city lights', 'Forest walk']);
      assert.deepEqual(names(await appearances('?sort=alphabetical&direction=desc')), ['Forest walk', 'city lights', 'Beach day']);
      assert.deepEqual(names(await appearances('?sort=date&direction=asc')), ['Beach day', 'city lights', 'Forest walk']);
      assert.deepEqual(names(await appearances('?sort=plays')), ['city lights', 'Beach day', 'Forest walk']);
      assert.deepEqual(names(await appearances('?sort=likes')), ['city lights', 'Forest walk', 'Beach day']);
      assert.deepEqual(names(await appearances('?sort=comments')), ['Beach day', 'Forest walk', 'city lights']);
      assert.deepEqual(names(await appearances('?sort=duration')), ['Forest walk', 'Beach day', 'city lights']);
      assert.deepEqual(names(await appearances('?query=SAND')), ['Forest walk', 'Beach day']);
      assert.deepEqual(names(await appearances('?filter=embeddable&filter_embeddable=false')), ['city lights']);
      assert.deepEqual(names(await appearances('?filter=embeddable&filter_embeddable=true')), ['Forest walk', 'Beach day']);
      const page = await appearances('?sort=alphabetical&page=2&per_page=2');
      assert.equal(page.body.total, 3);
      assert.deepEqual(names(page), ['Forest walk']);
      assert.deepEqual(page.body.paging, {
        next: null,
        previous: '/me/appearances?sort=alphabetical&page=1&per_page=2',
        first: '/me/appearances?sort=alphabetical&page=1&per_page=2',
        last: '/me/appearances?sort=alphabetical&page=2&per_page=2',
      });
    });

    it('rejects bad list parameters naming them', async () => {
      expectError(await h.call('GET', '/me/appearances?filter=embeddable', { token: bob.token }), 400, 2204, 'filter_embeddable');
      expectError(await h.call('GET', '/me/appearances?sort=newest', { token: bob.token }), 400, 2204, 'sort');
      expectError(await h.call('GET', '/me/appearances?filter=featured', { token: bob.token }), 400, 2204, 'filter');
      expectError(await h.call('GET', '/me/appearances?direction=up', { token: bob.token }), 400, 2204, 'direction');
      expectError(await h.call('GET', '/me/appearances?per_page=101', { token: bob.token }), 400, 2204, 'per_page');
    });

    it('needs a user on /me (401); /users/{user_id}/appearances, the User connection, lists what the caller may see', async () => {
      expectError(await h.call('GET', '/me/appearances'), 401, 8003);
      const connection = (await h.call('GET', `/users/${bob.user.id}`)).body.metadata.connections.appearances;
      assert.equal(connection.uri, `/users/${bob.user.id}/appearances`);
      const asOwner = await h.call('GET', connection.uri, { token: bob.token });
      assert.equal(asOwner.status, 200, asOwner.text);
      assert.deepEqual(names(asOwner), names(await appearances()));
      const asAnonymous = await h.call('GET', connection.uri);
      assert.equal(asAnonymous.status, 200, asAnonymous.text);
      assert.ok(!names(asAnonymous).includes('Secret cut'));
      expectError(await h.call('GET', '/users/999999/appearances'), 404, 5000);
    });

    it('keeps the counter exact as credits come and go, and a refused credit changes nothing', async () => {
      expectError(await credit(alice, 'city', bob), 400, 2204);
      assert.equal(await total(), 4);
      const { body } = await h.call('GET', `/videos/${videos.beach}/credits`, { token: alice.token });
      const [actor, editor] = body.data.map((c: { uri: string }) => c.uri);
      assert.equal((await h.call('DELETE', actor, { token: bob.token })).status, 204);
      assert.equal(await total(), 4);
      assert.ok(names(await appearances()).includes('Beach day'));
      assert.equal((await h.call('DELETE', editor, { token: alice.token })).status, 204);
      assert.equal(await total(), 3);
      assert.deepEqual(names(await appearances()), ['Forest walk', 'city lights']);
    });

    it('takes a deleted video off the counters of everyone credited in it', async () => {
      await credited(carol, 'forest', alice);
      await credited(carol, 'forest', alice, 'Narrator');
      assert.equal(await total(alice), 2);
      assert.equal((await h.call('DELETE', `/videos/${videos.forest}`, { token: carol.token })).status, 204);
      assert.equal(await total(), 2);
      assert.equal(await total(alice), 1);
      assert.deepEqual(names(await appearances()), ['city lights']);
    });
  });
}
