import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

const videoNames = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);

for (const driver of drivers) {
  describe(`the watch later queue: /me/watchlater (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const videos: Record<string, string> = {};
    const queued = async () => (await h.call('GET', '/me', { token: alice.token })).body.metadata.connections.watchlater.total;
    const list = async (query = '', headers: Record<string, string> = {}) => {
      const r = await h.call('GET', `/me/watchlater${query ? `?${query}` : ''}`, { token: alice.token, headers });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      videos.banana = await h.video(bob, { name: 'banana', description: 'yellow fruit' });
      videos.Apple = await h.video(bob, { name: 'Apple', privacy: { embed: 'private' } });
      videos.cherry = await h.video(alice, { name: 'cherry', privacy: { view: 'nobody' } });
      await h.service.store.update('videos', videos.banana, { duration: 30, plays: 5, comments_total: 7, likes_total: 2 });
      await h.service.store.update('videos', videos.Apple, { duration: 10, plays: 50, comments_total: 1, likes_total: 9 });
      await h.service.store.update('videos', videos.cherry, { duration: 20, plays: 1, comments_total: 3, likes_total: 5 });
    });
    after(() => h.stop());

    it('PUT queues a video (204); the Clip shows it and the counter moves; a second PUT changes nothing', async () => {
      for (const name of ['banana', 'Apple', 'cherry']) {
        h.clock.advance(60);
        const r = await h.call('PUT', `/me/watchlater/${videos[name]}`, { token: alice.token });
        assert.equal(r.status, 204, r.text);
        assert.equal(r.text, '');
      }
      assert.equal(await queued(), 3);
      const clip = await h.call('GET', `/videos/${videos.banana}`, { token: alice.token });
      assert.deepEqual(clip.body.metadata.interactions.watchlater, {
        uri: `/users/${alice.user.id}/watchlater/${videos.banana}`,
        options: ['GET', 'PUT', 'DELETE'],
        added: true,
        added_time: '2026-01-02T03:05:05+00:00',
      });
      assert.equal((await h.call('PUT', `/users/${alice.user.id}/watchlater/${videos.banana}`, { token: alice.token })).status, 204);
      assert.equal(await queued(), 3);
    });

    it('GET one answers 200 with the Clip; 404 when it is not queued, missing or junk', async () => {
      const r = await h.call('GET', `/me/watchlater/${videos.Apple}`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(r.body.uri, `/videos/${videos.Apple}`);
      assert.equal(r.body.name, 'Apple');
      assert.equal(r.body.metadata.interactions.watchlater.added, true);
      assert.equal((await h.call('GET', `/users/${alice.user.id}/watchlater/${videos.cherry}`, { token: alice.token })).status, 200);
      expectError(await h.call('GET', `/me/watchlater/${videos.Apple}`, { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', '/me/watchlater/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/me/watchlater/abc', { token: alice.token }), 404, 5000);
    });

    it('lists the queue as Clips, the latest added first, with Last-Modified', async () => {
      const r = await list();
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.deepEqual(videoNames(r), ['cherry', 'Apple', 'banana']);
      assert.equal(r.body.total, 3);
      assert.equal(r.headers.get('last-modified'), 'Fri, 02 Jan 2026 03:07:05 GMT');
      assert.deepEqual(videoNames(await h.call('GET', `/users/${alice.user.id}/watchlater`, { token: alice.token })), ['cherry', 'Apple', 'banana']);
    });

    it('sorts, filters embeddable videos, searches and pages as the likes list does', async () => {
      const cases: [string, string[]][] = [
        ['sort=date&direction=asc', ['banana', 'Apple', 'cherry']],
        ['sort=alphabetical', ['Apple', 'banana', 'cherry']],
        ['sort=comments', ['banana', 'cherry', 'Apple']],
        ['sort=duration&direction=asc', ['Apple', 'cherry', 'banana']],
        ['sort=likes', ['Apple', 'cherry', 'banana']],
        ['sort=plays', ['Apple', 'banana', 'cherry']],
        ['filter=embeddable&filter_embeddable=true', ['cherry', 'banana']],
        ['filter=embeddable&filter_embeddable=false', ['Apple']],
        ['query=yellow', ['banana']],
        ['sort=alphabetical&per_page=2&page=2', ['cherry']],
      ];
      for (const [query, expected] of cases) assert.deepEqual(videoNames(await list(query)), expected, query);
      assert.equal((await list('filter=embeddable&filter_embeddable=true')).body.total, 2);
      for (const [query, field] of [
        ['sort=manual', 'sort'],
        ['filter=embeddable', 'filter_embeddable'],
        ['filter=online', 'filter'],
        ['per_page=101', 'per_page'],
      ]) {
        expectError(await h.call('GET', `/me/watchlater?${query}`, { token: alice.token }), 400, 2204, field);
      }
    });

    it('answers 304 to If-Modified-Since until a video is added', async () => {
      const since = { 'if-modified-since': 'Fri, 02 Jan 2026 03:07:05 GMT' };
      let r = await h.call('GET', '/me/watchlater', { token: alice.token, headers: since });
      assert.equal(r.status, 304);
      assert.equal(r.text, '');
      r = await h.call('GET', '/me/watchlater', { token: alice.token, headers: { 'if-modified-since': 'Fri, 02 Jan 2026 03:07:04 GMT' } });
      assert.equal(r.status, 200);
      h.clock.advance(60);
      const late = await h.video(bob, { name: 'late' });
      assert.equal((await h.call('PUT', `/me/watchlater/${late}`, { token: alice.token })).status, 204);
      r = await list('', since);
      assert.deepEqual(videoNames(r), ['late', 'cherry', 'Apple', 'banana']);
      assert.equal(r.headers.get('last-modified'), 'Fri, 02 Jan 2026 03:08:05 GMT');
      assert.equal((await h.call('DELETE', `/me/watchlater/${late}`, { token: alice.token })).status, 204);
    });

    it("only the user sees or changes their queue (403); 401 without a token; scopes private and interact", async () => {
      const other = `/users/${alice.user.id}/watchlater`;
      expectError(await h.call('GET', other, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', `${other}/${videos.banana}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('PUT', `/users/${bob.user.id}/watchlater/${videos.banana}`, { token: alice.token }), 403, 3200);
      expectError(await h.call('DELETE', `${other}/${videos.banana}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', '/users/999999/watchlater', { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', other), 401, 8003);
      expectError(await h.call('PUT', `/me/watchlater/${videos.banana}`), 401, 8003);
      const noPrivate = await h.user('No private', 'public,interact');
      expectError(await h.call('GET', '/me/watchlater', { token: noPrivate.token }), 403, 3200);
      expectError(await h.call('GET', `/me/watchlater/${videos.banana}`, { token: noPrivate.token }), 403, 3200);
      const noInteract = await h.user('No interact', 'public,private');
      const r = await h.call('PUT', `/me/watchlater/${videos.banana}`, { token: noInteract.token });
      expectError(r, 403, 3200);
      assert.match(r.body.developer_message, /"interact"/);
      expectError(await h.call('DELETE', `/me/watchlater/${videos.banana}`, { token: noInteract.token }), 403, 3200);
      assert.equal(await queued(), 3);
    });

    it('a hidden or missing video cannot be queued (404); a password video needs its password', async () => {
      const hidden = await h.video(bob, { name: 'hidden', privacy: { view: 'nobody' } });
      expectError(await h.call('PUT', `/me/watchlater/${hidden}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', '/me/watchlater/999999', { token: alice.token }), 404, 5000);
      const locked = await h.video(bob, { name: 'locked', privacy: { view: 'password' }, password: 'sesame' });
      expectError(await h.call('PUT', `/me/watchlater/${locked}`, { token: alice.token }), 403, 3200);
      assert.equal(await queued(), 3);
      assert.equal((await h.call('PUT', `/me/watchlater/${locked}`, { token: alice.token, json: { password: 'sesame' } })).status, 204);
      assert.equal(await queued(), 4);
      assert.equal((await h.call('DELETE', `/me/watchlater/${locked}`, { token: alice.token })).status, 204);
      assert.equal(await queued(), 3);
    });

    it('a queued video that becomes hidden leaves the list; its owner deleting it empties the slot and the count', async () => {
      assert.equal((await h.call('PATCH', `/videos/${videos.banana}`, { token: bob.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      const r = await list();
      assert.deepEqual(videoNames(r), ['cherry', 'Apple']);
      assert.equal(r.body.total, 2);
      expectError(await h.call('GET', `/me/watchlater/${videos.banana}`, { token: alice.token }), 404, 5000);
      assert.equal((await h.call('DELETE', `/videos/${videos.banana}`, { token: bob.token })).status, 204);
      assert.equal(await queued(), 2);
    });

    it('DELETE takes a video off the queue (204) and the counter follows; a second DELETE is a 404', async () => {
      assert.equal((await h.call('DELETE', `/users/${alice.user.id}/watchlater/${videos.Apple}`, { token: alice.token })).status, 204);
      assert.equal(await queued(), 1);
      expectError(await h.call('GET', `/me/watchlater/${videos.Apple}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `/me/watchlater/${videos.Apple}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', '/me/watchlater/abc', { token: alice.token }), 404, 5000);
      assert.deepEqual(videoNames(await list()), ['cherry']);
      assert.equal(await queued(), 1);
    });
  });
}
