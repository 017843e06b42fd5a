import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isoTime } from '@reelbase/core';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`GET /videos/{video_id}/likes (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let stranger: Fixture;
    let video: string;
    /** Likes arrive with PUT /me/likes in a later issue: rows go straight into the store, counter included. */
    const like = async (who: Fixture, id: string) => {
      await h.service.store.insert('likes', { user_id: who.user.id, video_id: id, created_time: isoTime(h.clock.now()) });
      await h.service.store.increment('videos', id, 'likes_total', 1);
    };
    const names = (r: { body: { data: { name: string }[] } }) => r.body.data.map((u) => u.name);
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      stranger = await h.user('Stranger');
      video = await h.video(alice);
      // Liked in this order, a minute apart; names sort differently from times.
      for (const name of ['carl', 'Ann', 'dora', 'Bert']) {
        h.clock.advance(60);
        await like(await h.user(name), video);
      }
      await like(stranger, await h.video(alice));
    });
    after(() => h.stop());

    it('lists the users who liked the video, the latest like first, as Users', async () => {
      const r = await h.call('GET', `/videos/${video}/likes`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(r.body.total, 4);
      assert.deepEqual(names(r), ['Bert', 'dora', 'Ann', 'carl']);
      assert.match(r.body.data[0].uri, /^\/users\/\d+$/);
      const clip = await h.call('GET', `/videos/${video}`);
      assert.equal(clip.body.metadata.connections.likes.uri, `/videos/${video}/likes`);
      assert.equal(clip.body.metadata.connections.likes.total, r.body.total);
    });

    it('sorts by date and alphabetically in both directions', async () => {
      const list = async (q: string) => names(await h.call('GET', `/videos/${video}/likes?${q}`));
      assert.deepEqual(await list('sort=date'), ['Bert', 'dora', 'Ann', 'carl']);
      assert.deepEqual(await list('sort=date&direction=asc'), ['carl', 'Ann', 'dora', 'Bert']);
      assert.deepEqual(await list('sort=alphabetical'), ['Ann', 'Bert', 'carl', 'dora']);
      assert.deepEqual(await list('sort=alphabetical&direction=desc'), ['dora', 'carl', 'Bert', 'Ann']);
    });

    it('pages in the store with true totals and links', async () => {
      const r = await h.call('GET', `/videos/${video}/likes?sort=alphabetical&per_page=3&page=2`);
      assert.equal(r.body.total, 4);
      assert.deepEqual(names(r), ['dora']);
      assert.equal(r.body.paging.previous, `/videos/${video}/likes?sort=alphabetical&per_page=3&page=1`);
      assert.equal(r.body.paging.next, null);
      const byDate = await h.call('GET', `/videos/${video}/likes?per_page=3&page=2`);
      assert.deepEqual(names(byDate), ['carl']);
      assert.equal(byDate.body.total, 4);
    });

    it('takes the older query parameter in either sort, counting only the matches', async () => {
      for (const sort of ['date', 'alphabetical']) {
        // A name matches by a word beginning with the query: "d" finds dora, "r" nobody.
        const r = await h.call('GET', `/videos/${video}/likes?sort=${sort}&query=D`);
        assert.equal(r.body.total, 1);
        assert.deepEqual(names(r), ['dora']);
        assert.equal((await h.call('GET', `/videos/${video}/likes?sort=${sort}&query=r`)).body.total, 0);
      }
      const page = await h.call('GET', `/videos/${video}/likes?query=b&per_page=1&page=2`);
      assert.deepEqual(names(page), []);
      assert.equal(page.body.total, 1);
      assert.equal((await h.call('GET', `/videos/${video}/likes?query=zzz`)).body.total, 0);
    });

    it('answers 400 naming the parameter for a sort, direction or page it does not list', async () => {
      expectError(await h.call('GET', `/videos/${video}/likes?sort=plays`), 400, 2204, 'sort');
      expectError(await h.call('GET', `/videos/${video}/likes?direction=sideways`), 400, 2204, 'direction');
      expectError(await h.call('GET', `/videos/${video}/likes?per_page=101`), 400, 2204, 'per_page');
      expectError(await h.call('GET', `/videos/${video}/likes?page=0`), 400, 2204, 'page');
    });

    it('answers 404 for a missing or hidden video, and needs the password of a password video', async () => {
      expectError(await h.call('GET', '/videos/999999/likes'), 404, 5000);
      const hidden = await h.video(alice, { privacy: { view: 'nobody' } });
      await like(stranger, hidden);
      expectError(await h.call('GET', `/videos/${hidden}/likes`, { token: stranger.token }), 404, 5000);
      expectError(await h.call('GET', `/videos/${hidden}/likes`), 404, 5000);
      assert.deepEqual(names(await h.call('GET', `/videos/${hidden}/likes`, { token: alice.token })), ['Stranger']);
      const locked = await h.video(alice, { privacy: { view: 'password' }, password: 'open sesame' });
      expectError(await h.call('GET', `/videos/${locked}/likes`), 403, 3200);
      expectError(await h.call('GET', `/videos/${locked}/likes?password=wrong`), 403, 3200);
      const r = await h.call('GET', `/videos/${locked}/likes?password=open%20sesame`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.total, 0);
    });
  });
}
