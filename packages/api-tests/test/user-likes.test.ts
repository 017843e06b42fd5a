import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isoTime, type UserRecord } from '@reelbase/core';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { listedFor, seedPrivacyMatrix, viewers, type PrivacyMatrix } from '../src/privacy-matrix';

const videoNames = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);

for (const driver of drivers) {
  describe(`liking videos: PUT, GET, DELETE /me/likes/{video_id} (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let video: string;
    /** The like counters: the video's likes connection and the user's. */
    const counters = async (who: Fixture = alice) => ({
      video: (await h.call('GET', `/videos/${video}`)).body.metadata.connections.likes.total,
      user: (await h.call('GET', `/users/${who.user.id}`)).body.metadata.connections.likes.total,
    });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      video = await h.video(bob, { name: 'Bob clip' });
    });
    after(() => h.stop());

    it("PUT likes (204): the check answers 204, the Clip shows the like, both counters move; a second PUT changes nothing", async () => {
      const r = await h.call('PUT', `/me/likes/${video}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
      assert.equal((await h.call('GET', `/me/likes/${video}`, { token: alice.token })).status, 204);
      assert.equal((await h.call('GET', `/users/${alice.user.id}/likes/${video}`)).status, 204);
      assert.deepEqual(await counters(), { video: 1, user: 1 });
      const clip = await h.call('GET', `/videos/${video}`, { token: alice.token });
      assert.deepEqual(clip.body.metadata.interactions.like, {
        uri: `/users/${alice.user.id}/likes/${video}`,
        options: ['GET', 'PUT', 'DELETE'],
        added: true,
        added_time: '2026-01-02T03:04:05+00:00',
      });
      const likers = await h.call('GET', `/videos/${video}/likes`);
      assert.deepEqual(likers.body.data.map((u: { name: string }) => u.name), ['Alice']);
      assert.equal((await h.call('PUT', `/users/${alice.user.id}/likes/${video}`, { token: alice.token })).status, 204);
      assert.deepEqual(await counters(), { video: 1, user: 1 });
    });

    it('the check answers 404 when not liked, for an unknown video and for an unknown user', async () => {
      expectError(await h.call('GET', `/me/likes/${video}`, { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', `/users/${bob.user.id}/likes/${video}`), 404, 5000);
      expectError(await h.call('GET', '/me/likes/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/me/likes/abc', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `/users/999999/likes/${video}`), 404, 5000);
      expectError(await h.call('GET', `/me/likes/${video}`), 401, 8003);
    });

    it("liking one's own video is a 400; a missing or hidden video a 404; nothing changes", async () => {
      const own = await h.video(alice, { name: 'Own' });
      expectError(await h.call('PUT', `/me/likes/${own}`, { token: alice.token }), 400, 2204);
      expectError(await h.call('PUT', '/me/likes/999999', { token: alice.token }), 404, 5000);
      const hidden = await h.video(bob, { name: 'Hidden', privacy: { view: 'nobody' } });
      expectError(await h.call('PUT', `/me/likes/${hidden}`, { token: alice.token }), 404, 5000);
      assert.deepEqual(await counters(), { video: 1, user: 1 });
      assert.equal((await h.call('GET', `/videos/${own}`)).body.metadata.connections.likes.total, 0);
    });

    it('a password video needs its password to be liked', async () => {
      const locked = await h.video(bob, { name: 'Locked', privacy: { view: 'password' }, password: 'sesame' });
      expectError(await h.call('PUT', `/me/likes/${locked}`, { token: alice.token }), 403, 3200);
      expectError(await h.call('PUT', `/me/likes/${locked}`, { token: alice.token, json: { password: 'wrong' } }), 403, 3200);
      assert.equal((await h.call('PUT', `/me/likes/${locked}`, { token: alice.token, json: { password: 'sesame' } })).status, 204);
      assert.equal((await h.call('GET', `/users/${alice.user.id}`, { token: alice.token })).body.metadata.connections.likes.total, 2);
      // Anybody else counts the likes they could list: not the password video's (issue 46 §7).
      assert.equal((await h.call('GET', `/users/${alice.user.id}`)).body.metadata.connections.likes.total, 1);
      assert.equal((await h.call('DELETE', `/me/likes/${locked}`, { token: alice.token })).status, 204);
      assert.deepEqual(await counters(), { video: 1, user: 1 });
    });

    it('only the user themselves may like or unlike (403); 401 without a token; the interact scope is needed', async () => {
      expectError(await h.call('PUT', `/users/${bob.user.id}/likes/${video}`, { token: alice.token }), 403, 3200);
      expectError(await h.call('DELETE', `/users/${alice.user.id}/likes/${video}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('PUT', `/me/likes/${video}`), 401, 8003);
      expectError(await h.call('DELETE', `/users/${alice.user.id}/likes/${video}`), 401, 8003);
      const noInteract = await h.user('No interact', 'public,private,edit');
      const r = await h.call('PUT', `/me/likes/${video}`, { token: noInteract.token });
      expectError(r, 403, 3200);
      assert.match(r.body.developer_message, /"interact"/);
      assert.deepEqual(await counters(), { video: 1, user: 1 });
    });

    it('a user who may not like videos gets 403 on PUT and DELETE and changes nothing', async () => {
      const barred = await h.user('Barred');
      assert.equal((await h.call('PUT', `/me/likes/${video}`, { token: barred.token })).status, 204);
      await h.service.store.update<UserRecord>('users', barred.user.id, { can_like: false });
      const other = await h.video(bob, { name: 'Other' });
      expectError(await h.call('PUT', `/me/likes/${other}`, { token: barred.token }), 403, 3200);
      expectError(await h.call('DELETE', `/me/likes/${video}`, { token: barred.token }), 403, 3200);
      assert.deepEqual(await counters(barred), { video: 2, user: 1 });
      assert.equal((await h.call('GET', `/me/likes/${other}`, { token: barred.token })).status, 404);
    });

    it('DELETE unlikes (204) and both counters come back; a second DELETE is a 404', async () => {
      assert.equal((await h.call('DELETE', `/me/likes/${video}`, { token: alice.token })).status, 204);
      expectError(await h.call('GET', `/me/likes/${video}`, { token: alice.token }), 404, 5000);
      assert.deepEqual(await counters(), { video: 1, user: 0 });
      const clip = await h.call('GET', `/videos/${video}`, { token: alice.token });
      assert.equal(clip.body.metadata.interactions.like.added, false);
      expectError(await h.call('DELETE', `/me/likes/${video}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', '/me/likes/abc', { token: alice.token }), 404, 5000);
      assert.deepEqual(await counters(), { video: 1, user: 0 });
    });

    it("deleting a liked video takes the like and the user's count with it", async () => {
      const doomed = await h.video(bob, { name: 'Doomed' });
      assert.equal((await h.call('PUT', `/me/likes/${doomed}`, { token: alice.token })).status, 204);
      assert.equal((await counters()).user, 1);
      assert.equal((await h.call('DELETE', `/videos/${doomed}`, { token: bob.token })).status, 204);
      assert.equal((await counters()).user, 0);
      const r = await h.call('GET', '/me/likes', { token: alice.token });
      assert.equal(r.body.total, 0);
    });
  });

  describe(`GET /me/likes and /users/{user_id}/likes (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const list = async (query = '', token?: string) => {
      const r = await h.call('GET', `/users/${alice.user.id}/likes${query ? `?${query}` : ''}`, { token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      // Liked in this order, a minute apart; every sort orders them differently.
      const videos: [string, Record<string, unknown>, Record<string, number>][] = [
        ['banana', { description: 'yellow fruit' }, { duration: 30, plays: 5, comments_total: 7, likes_total: 2 }],
        ['Apple', { privacy: { embed: 'private' } }, { duration: 10, plays: 50, comments_total: 1, likes_total: 9 }],
        ['cherry', {}, { duration: 20, plays: 1, comments_total: 3, likes_total: 5 }],
      ];
      for (const [name, json, stats] of videos) {
        const id = await h.video(bob, { name, ...json });
        h.clock.advance(60);
        assert.equal((await h.call('PUT', `/me/likes/${id}`, { token: alice.token })).status, 204);
        // Fixture values for the sorts; the like counter itself is tested above.
        await h.service.store.update('videos', id, stats);
      }
    });
    after(() => h.stop());

    it('lists the videos the user liked as Clips, the latest liked first, for anyone', async () => {
      const r = await list();
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.deepEqual(videoNames(r), ['cherry', 'Apple', 'banana']);
      assert.equal(r.body.total, 3);
      assert.match(r.body.data[0].uri, /^\/videos\/\d+$/);
      const mine = await h.call('GET', '/me/likes', { token: alice.token });
      assert.deepEqual(videoNames(mine), ['cherry', 'Apple', 'banana']);
      assert.equal(mine.body.data[0].metadata.interactions.like.added, true);
      assert.equal((await h.call('GET', `/users/${alice.user.id}`)).body.metadata.connections.likes.total, 3);
      expectError(await h.call('GET', '/me/likes'), 401, 8003);
      expectError(await h.call('GET', '/users/999999/likes'), 404, 5000);
    });

    it('sorts by every listed sort in both directions', async () => {
      const sorted: [string, string[]][] = [
        ['sort=date', ['cherry', 'Apple', 'banana']],
        ['sort=date&direction=asc', ['banana', 'Apple', 'cherry']],
        ['sort=alphabetical', ['Apple', 'banana', 'cherry']],
        ['sort=alphabetical&direction=desc', ['cherry', 'banana', 'Apple']],
        ['sort=comments', ['banana', 'cherry', 'Apple']],
        ['sort=duration', ['banana', 'cherry', 'Apple']],
        ['sort=duration&direction=asc', ['Apple', 'cherry', 'banana']],
        ['sort=likes', ['Apple', 'cherry', 'banana']],
        ['sort=plays', ['Apple', 'banana', 'cherry']],
        ['sort=plays&direction=asc', ['cherry', 'banana', 'Apple']],
      ];
      for (const [query, expected] of sorted) assert.deepEqual(videoNames(await list(query)), expected, query);
    });

    it('filters embeddable videos, searches names and descriptions, and pages, with true totals', async () => {
      const embeddable = await list('filter=embeddable&filter_embeddable=true');
      assert.deepEqual(videoNames(embeddable), ['cherry', 'banana']);
      assert.equal(embeddable.body.total, 2);
      assert.deepEqual(videoNames(await list('filter=embeddable&filter_embeddable=false&sort=alphabetical')), ['Apple']);
      assert.deepEqual(videoNames(await list('query=YELLOW')), ['banana']);
      assert.deepEqual(videoNames(await list('query=CHER&sort=alphabetical')), ['cherry']);
      const page = await list('sort=alphabetical&per_page=2&page=2');
      assert.deepEqual(videoNames(page), ['cherry']);
      assert.equal(page.body.total, 3);
      assert.equal(page.body.paging.first, `/users/${alice.user.id}/likes?sort=alphabetical&per_page=2&page=1`);
    });

    it('rejects values it does not list (400 naming them)', async () => {
      for (const [query, field] of [
        ['sort=manual', 'sort'],
        ['sort=relevant', 'sort'],
        ['filter=playable', 'filter'],
        ['filter=embeddable', 'filter_embeddable'],
        ['filter=embeddable&filter_embeddable=maybe', 'filter_embeddable'],
        ['direction=sideways', 'direction'],
        ['per_page=0', 'per_page'],
      ]) {
        expectError(await h.call('GET', `/users/${alice.user.id}/likes?${query}`), 400, 2204, field);
      }
    });

    it('a video that becomes hidden leaves the list and the check for others, not for its owner', async () => {
      const [cherry] = (await list()).body.data;
      const id = cherry.uri.split('/').pop();
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: bob.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      const r = await list('', alice.token);
      assert.deepEqual(videoNames(r), ['Apple', 'banana']);
      assert.equal(r.body.total, 2);
      expectError(await h.call('GET', `/me/likes/${id}`, { token: alice.token }), 404, 5000);
      assert.deepEqual(videoNames(await list('', bob.token)), ['cherry', 'Apple', 'banana']);
      assert.equal((await h.call('GET', `/users/${alice.user.id}/likes/${id}`, { token: bob.token })).status, 204);
    });
  });

  describe(`the likes of a user follow the visibility rule (${driver.name})`, () => {
    let h: Harness;
    let m: PrivacyMatrix;
    let liker: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      m = await seedPrivacyMatrix(h, 'Likes');
      liker = await h.user('Liker');
      // Rows written straight to the store: the liker could not see most of these to like them.
      for (const id of Object.values(m.videos)) {
        await h.service.store.insert('likes', { user_id: liker.user.id, video_id: id, created_time: isoTime(h.clock.now()) });
      }
    });
    after(() => h.stop());

    for (const viewer of viewers) {
      it(`${viewer}: GET /users/{liker}/likes lists only what the viewer may see listed, and checks agree`, async () => {
        const r = await h.call('GET', `/users/${liker.user.id}/likes?per_page=100`, { token: m.tokens[viewer] });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(videoNames(r).sort(), [...listedFor[viewer]].sort());
        assert.equal(r.body.total, listedFor[viewer].length);
        for (const [view, id] of Object.entries(m.videos)) {
          const check = await h.call('GET', `/users/${liker.user.id}/likes/${id}`, { token: m.tokens[viewer] });
          assert.equal(check.status, (listedFor[viewer] as readonly string[]).includes(view) ? 204 : 404, `${viewer} ${view}`);
        }
      });
    }
  });
}
