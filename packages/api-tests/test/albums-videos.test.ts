import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

const ids = (r: Answer): string[] => r.body.data.map((v: { uri: string }) => v.uri.split('/').pop());

for (const driver of drivers) {
  describe(`adding and removing album videos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let album: string;
    /** A video with a known duration, created a minute after the previous one. */
    const clip = async (owner: Fixture, json: Record<string, unknown> = {}, duration = 10): Promise<string> => {
      h.clock.advance(60);
      const id = await h.video(owner, json);
      await h.service.store.update('videos', id, { duration });
      return id;
    };
    const albumState = async (uri = album) => {
      const r = await h.call('GET', uri);
      return { total: r.body.metadata.connections.videos.total as number, duration: r.body.duration as number };
    };
    const put = (id: string, token = alice.token, uri = album) => h.call('PUT', `${uri}/videos/${id}`, { token });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      const r = await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Mixed', description: '' } });
      album = r.body.uri;
    });
    after(() => h.stop());

    it('PUT adds a video (204), once; the album counts it and its duration', async () => {
      const v = await clip(alice, {}, 30);
      const r = await put(v);
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
      assert.equal((await put(v)).status, 204);
      assert.deepEqual(await albumState(), { total: 1, duration: 30 });
      const listed = await h.call('GET', `${album}/videos`);
      assert.deepEqual(ids(listed), [v]);
    });

    it("adds the owner's own private videos, and others' videos they may see and privacy.add allows", async () => {
      const own = await clip(alice, { privacy: { view: 'nobody', add: false } });
      assert.equal((await put(own)).status, 204);
      const others = await clip(bob, {}, 5);
      assert.equal((await put(others)).status, 204);
      const before = await albumState();
      const noAdd = await clip(bob, { privacy: { add: false } });
      expectError(await put(noAdd), 403, 3200);
      const hidden = await clip(bob, { privacy: { view: 'nobody' } });
      expectError(await put(hidden), 404, 5000);
      const locked = await clip(bob, { privacy: { view: 'password' }, password: 'pw' });
      expectError(await put(locked), 403, 3200);
      expectError(await put('999999'), 404, 5000);
      expectError(await put('abc'), 404, 5000);
      assert.deepEqual(await albumState(), before);
    });

    it("403 for anyone but the album's owner or without the edit scope; 401 anonymous; 404 unknown album", async () => {
      const v = await clip(bob);
      const before = await albumState();
      expectError(await put(v, bob.token), 403, 3200);
      expectError(await h.call('DELETE', `${album}/videos/${v}`, { token: bob.token }), 403, 3200);
      const noEdit = await h.user('No edit', 'public,private,create,delete,interact,upload');
      expectError(await h.call('PUT', `/me/albums/${album.split('/').pop()}/videos/${v}`, { token: noEdit.token }), 403, 3200);
      expectError(await h.call('PUT', `${album}/videos/${v}`), 401, 8003);
      expectError(await put(v, alice.token, `/users/${alice.user.id}/albums/999999`), 404, 5000);
      expectError(await put(v, alice.token, `/me/albums/999999`), 404, 5000);
      assert.deepEqual(await albumState(), before);
    });

    it('DELETE takes a video out (204) and uncounts it; 404 when it is not in the album', async () => {
      const v = await clip(alice, {}, 7);
      assert.equal((await put(v)).status, 204);
      const before = await albumState();
      const r = await h.call('DELETE', `${album}/videos/${v}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.deepEqual(await albumState(), { total: before.total - 1, duration: before.duration - 7 });
      expectError(await h.call('DELETE', `${album}/videos/${v}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `${album}/videos/999999`, { token: alice.token }), 404, 5000);
      assert.equal((await h.call('GET', `/videos/${v}`)).status, 200, 'the video stays');
    });

    it('deleting a video takes it out of every album it was in, counters included', async () => {
      const other = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Other', description: '' } })).body.uri;
      const v = await clip(alice, {}, 100);
      assert.equal((await put(v)).status, 204);
      assert.equal((await put(v, alice.token, other)).status, 204);
      const before = await albumState();
      assert.deepEqual(await albumState(other), { total: 1, duration: 100 });
      assert.equal((await h.call('DELETE', `/videos/${v}`, { token: alice.token })).status, 204);
      assert.deepEqual(await albumState(), { total: before.total - 1, duration: before.duration - 100 });
      assert.deepEqual(await albumState(other), { total: 0, duration: 0 });
      assert.deepEqual(ids(await h.call('GET', `${other}/videos`)), []);
    });

    describe('PUT .../videos replaces them all', () => {
      let target: string;
      let vids: string[];
      const replace = (videos: unknown, token = alice.token) => h.call('PUT', `${target}/videos`, { token, json: { videos } });
      const manual = async () => ids(await h.call('GET', `${target}/videos?sort=manual`, { token: alice.token }));
      before(async () => {
        target = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Replace', description: '' } })).body.uri;
        vids = [await clip(alice, {}, 1), await clip(alice, {}, 2), await clip(bob, {}, 4)];
      });

      it('takes comma-separated URIs in their manual order: 201 with the Album', async () => {
        const r = await h.call('PUT', `${target}/videos`, {
          token: alice.token,
          form: { videos: `/videos/${vids[2]},/videos/${vids[0]}, /users/${alice.user.id}/videos/${vids[1]},/videos/${vids[0]}` },
        });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.album+json;version=3.4');
        assert.equal(r.body.uri, target);
        assert.equal(r.body.metadata.connections.videos.total, 3);
        assert.equal(r.body.duration, 7);
        assert.deepEqual(await manual(), [vids[2], vids[0], vids[1]]);
      });

      it('rearranges with a JSON list; videos it keeps keep the time they were added', async () => {
        h.clock.advance(60);
        const r = await replace([`/videos/${vids[1]}`, `/videos/${vids[2]}`]);
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(await manual(), [vids[1], vids[2]]);
        assert.deepEqual(await albumState(target), { total: 2, duration: 6 });
        const fresh = await clip(alice, {}, 8);
        assert.equal((await put(fresh, alice.token, target)).status, 204);
        // Added first = the most recently added first; the two kept ones share their first time.
        assert.equal((await h.call('PATCH', target, { token: alice.token, json: { sort: 'added_first' } })).status, 200);
        assert.deepEqual(ids(await h.call('GET', `${target}/videos`)), [fresh, vids[1], vids[2]]);
        assert.equal((await h.call('PATCH', target, { token: alice.token, json: { sort: 'arranged' } })).status, 200);
      });

      it('an empty list clears the album', async () => {
        assert.equal((await h.call('PUT', `${target}/videos`, { token: alice.token, form: { videos: '' } })).status, 201);
        assert.deepEqual(await albumState(target), { total: 0, duration: 0 });
        assert.deepEqual(await manual(), []);
        assert.equal((await replace([vids[0]])).status, 201);
        assert.equal((await replace([])).status, 201);
        assert.deepEqual(await manual(), []);
      });

      it('fails whole: 400 for a bad URI or no list, 404 for a missing video, 403 for one that cannot be added; nothing changes', async () => {
        assert.equal((await replace([`/videos/${vids[0]}`])).status, 201);
        const noAdd = await clip(bob, { privacy: { add: false } });
        expectError(await replace([`/videos/${vids[1]}`, '/channels/3']), 400, 2204, 'videos');
        expectError(await h.call('PUT', `${target}/videos`, { token: alice.token, json: {} }), 400, 2204, 'videos');
        expectError(await replace([`/videos/${vids[1]}`, '/videos/999999']), 404, 5000);
        expectError(await replace([`/videos/${vids[1]}`, `/videos/${noAdd}`]), 403, 3200);
        expectError(await replace([vids[1]], bob.token), 403, 3200);
        expectError(await h.call('PUT', `/users/${alice.user.id}/albums/999999/videos`, { token: alice.token, json: { videos: [] } }), 404, 5000);
        assert.deepEqual(await manual(), [vids[0]]);
        assert.deepEqual(await albumState(target), { total: 1, duration: 1 });
      });

      it('keeps a video it already holds even when it could no longer be added', async () => {
        const later = await clip(bob);
        assert.equal((await replace([vids[0], later])).status, 201);
        assert.equal((await h.call('PATCH', `/videos/${later}`, { token: bob.token, json: { privacy: { add: false } } })).status, 200);
        assert.equal((await replace([later, vids[0]])).status, 201);
        assert.deepEqual(await manual(), [later, vids[0]]);
      });
    });
  });
}

for (const driver of drivers) {
  describe(`GET /users/{user_id}/albums/{album_id}/videos (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let friend: Fixture;
    let stranger: Fixture;
    let album: string;
    /** By name: a, b, c (owner's public), hidden (owner's, nobody), contacts (owner's), pal (friend's public). */
    const v: Record<string, string> = {};
    const list = async (query = '', token?: string): Promise<Answer> => {
      const r = await h.call('GET', `${album}/videos${query}`, { token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    const named = (r: Answer): string[] => r.body.data.map((c: { name: string }) => c.name);
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      friend = await h.user('Friend');
      stranger = await h.user('Stranger');
      await h.follow(owner, friend);
      album = (await h.call('POST', '/me/albums', { token: owner.token, json: { name: 'Show', description: '' } })).body.uri;
      const make = async (name: string, who: Fixture, json: Record<string, unknown>, stats: Record<string, number>) => {
        h.clock.advance(60);
        v[name] = await h.video(who, { name, ...json });
        await h.service.store.update('videos', v[name], stats);
      };
      // Added in this order (the manual order); each is created a minute after the previous one.
      await make('b', owner, { description: 'sunset beach' }, { duration: 20, plays: 5, likes_total: 1, comments_total: 9 });
      await make('hidden beach', owner, { privacy: { view: 'nobody' } }, { duration: 99, plays: 0, likes_total: 0, comments_total: 0 });
      await make('A', owner, { privacy: { embed: 'private' } }, { duration: 10, plays: 50, likes_total: 3, comments_total: 0 });
      await make('pal', friend, { description: 'Beach day' }, { duration: 30, plays: 1, likes_total: 2, comments_total: 1 });
      await make('contacts beach', owner, { privacy: { view: 'contacts' } }, { duration: 5, plays: 0, likes_total: 0, comments_total: 0 });
      await make('c', owner, {}, { duration: 40, plays: 7, likes_total: 0, comments_total: 2 });
      for (const name of ['b', 'hidden beach', 'A', 'pal', 'contacts beach', 'c']) {
        h.clock.advance(1);
        assert.equal((await h.call('PUT', `${album}/videos/${v[name]}`, { token: owner.token })).status, 204);
      }
      // Modified last: b.
      await h.service.store.update('videos', v.b, { modified_time: '2027-01-01T00:00:00+00:00' });
    });
    after(() => h.stop());

    it('lists in the album order by default, as Clips, to each caller what they may see', async () => {
      const mine = await list('', owner.token);
      assert.equal(mine.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.deepEqual(named(mine), ['b', 'hidden beach', 'A', 'pal', 'contacts beach', 'c']);
      assert.equal(mine.body.total, 6);
      assert.equal(mine.body.data[0].uri, `/videos/${v.b}`);
      const friends = await list('', friend.token);
      assert.deepEqual(named(friends), ['b', 'A', 'pal', 'contacts beach', 'c']);
      assert.equal(friends.body.total, 5);
      for (const token of [stranger.token, undefined]) {
        const r = await list('', token);
        assert.deepEqual(named(r), ['b', 'A', 'pal', 'c']);
        assert.equal(r.body.total, 4);
      }
      assert.deepEqual(named(await list('', owner.token)), named(await h.call('GET', `/me/albums/${album.split('/').pop()}/videos`, { token: owner.token })));
    });

    it('sorts by every technique; direction flips the order', async () => {
      const t = stranger.token;
      assert.deepEqual(named(await list('?sort=alphabetical', t)), ['A', 'b', 'c', 'pal']);
      assert.deepEqual(named(await list('?sort=alphabetical&direction=desc', t)), ['pal', 'c', 'b', 'A']);
      assert.deepEqual(named(await list('?sort=date', t)), ['c', 'pal', 'A', 'b']);
      assert.deepEqual(named(await list('?sort=date&direction=asc', t)), ['b', 'A', 'pal', 'c']);
      assert.deepEqual(named(await list('?sort=duration', t)), ['c', 'pal', 'b', 'A']);
      assert.deepEqual(named(await list('?sort=plays', t)), ['A', 'c', 'b', 'pal']);
      assert.deepEqual(named(await list('?sort=likes', t)), ['A', 'pal', 'b', 'c']);
      assert.deepEqual(named(await list('?sort=comments', t)), ['b', 'c', 'pal', 'A']);
      assert.deepEqual(named(await list('?sort=modified_time', t)), ['b', 'c', 'pal', 'A']);
      assert.deepEqual(named(await list('?sort=manual', t)), ['b', 'A', 'pal', 'c']);
      assert.deepEqual(named(await list('?sort=manual&direction=desc', t)), ['c', 'pal', 'A', 'b']);
      assert.deepEqual(named(await list('?sort=default&direction=desc', t)), ['c', 'pal', 'A', 'b']);
    });

    it("sort=default follows the album's own sort", async () => {
      const expected: Record<string, string[]> = {
        added_first: ['c', 'pal', 'A', 'b'],
        added_last: ['b', 'A', 'pal', 'c'],
        alphabetical: ['A', 'b', 'c', 'pal'],
        arranged: ['b', 'A', 'pal', 'c'],
        comments: ['b', 'c', 'pal', 'A'],
        likes: ['A', 'pal', 'b', 'c'],
        newest: ['c', 'pal', 'A', 'b'],
        oldest: ['b', 'A', 'pal', 'c'],
        plays: ['A', 'c', 'b', 'pal'],
      };
      for (const [sort, names] of Object.entries(expected)) {
        assert.equal((await h.call('PATCH', album, { token: owner.token, json: { sort } })).status, 200);
        assert.deepEqual(named(await list('')), names, sort);
        assert.deepEqual(named(await list('?sort=default')), names, sort);
      }
      assert.equal((await h.call('PATCH', album, { token: owner.token, json: { sort: 'arranged' } })).status, 200);
    });

    it('filter=embeddable needs filter_embeddable, and selects by it', async () => {
      assert.deepEqual(named(await list('?filter=embeddable&filter_embeddable=true')), ['b', 'pal', 'c']);
      assert.deepEqual(named(await list('?filter=embeddable&filter_embeddable=false')), ['A']);
      expectError(await h.call('GET', `${album}/videos?filter=embeddable`), 400, 2204, 'filter_embeddable');
      expectError(await h.call('GET', `${album}/videos?filter=featured`), 400, 2204, 'filter');
    });

    it('query searches public videos by name or description; weak_search matches names, private videos included', async () => {
      assert.deepEqual(named(await list('?query=BEACH', owner.token)), ['b', 'pal']);
      assert.deepEqual(named(await list('?query=beach&weak_search=true', owner.token)), ['hidden beach', 'contacts beach']);
      assert.deepEqual(named(await list('?query=beach&weak_search=true', friend.token)), ['contacts beach']);
      assert.deepEqual(named(await list('?query=beach&weak_search=true', stranger.token)), []);
      assert.deepEqual(named(await list('?query=beach&weak_search=false', stranger.token)), ['b', 'pal']);
      expectError(await h.call('GET', `${album}/videos?weak_search=maybe`), 400, 2204, 'weak_search');
    });

    it('pages, and containing_uri answers the page holding that video', async () => {
      const r = await list('?per_page=2&page=2', owner.token);
      assert.deepEqual(named(r), ['A', 'pal']);
      assert.equal(r.body.total, 6);
      const found = await list(`?per_page=2&containing_uri=/videos/${v.c}`, owner.token);
      assert.equal(found.body.page, 3);
      assert.deepEqual(named(found), ['contacts beach', 'c']);
      assert.equal(found.body.paging.previous, `${album}/videos?per_page=2&containing_uri=%2Fvideos%2F${v.c}&page=2`);
      assert.equal((await list(`?per_page=2&page=1&sort=alphabetical&containing_uri=/videos/${v.pal}`, stranger.token)).body.page, 2);
      expectError(await h.call('GET', `${album}/videos?containing_uri=/videos/${v['hidden beach']}`, { token: stranger.token }), 400, 2204, 'containing_uri');
      expectError(await h.call('GET', `${album}/videos?containing_uri=/videos/999999`), 400, 2204, 'containing_uri');
      expectError(await h.call('GET', `${album}/videos?containing_uri=nonsense`), 400, 2204, 'containing_uri');
    });

    it('answers 400 for an invalid sort or direction, 404 for an unknown album or user', async () => {
      expectError(await h.call('GET', `${album}/videos?sort=added`), 400, 2204, 'sort');
      expectError(await h.call('GET', `${album}/videos?direction=sideways`), 400, 2204, 'direction');
      expectError(await h.call('GET', `/users/${owner.user.id}/albums/999999/videos`), 404, 5000);
      expectError(await h.call('GET', `/users/${friend.user.id}${album.slice(album.indexOf('/albums'))}/videos`), 404, 5000);
      expectError(await h.call('GET', `/users/999999/albums/1/videos`), 404, 5000);
    });

    it('GET one answers the Clip of a video in the album; 404 when the album is missing or the video not in it or hidden', async () => {
      const r = await h.call('GET', `${album}/videos/${v.pal}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(r.body.uri, `/videos/${v.pal}`);
      expectError(await h.call('GET', `${album}/videos/${v['hidden beach']}`, { token: stranger.token }), 404, 5000);
      assert.equal((await h.call('GET', `${album}/videos/${v['hidden beach']}`, { token: owner.token })).status, 200);
      const outside = await h.video(owner);
      expectError(await h.call('GET', `${album}/videos/${outside}`), 404, 5000);
      expectError(await h.call('GET', `${album}/videos/999999`), 404, 5000);
      expectError(await h.call('GET', `/users/${owner.user.id}/albums/999999/videos/${v.pal}`), 404, 5000);
    });

    it("a password album's videos need its password from anyone but the owner (403 otherwise)", async () => {
      const locked = (await h.call('POST', '/me/albums', { token: owner.token, json: { name: 'Locked', description: '', privacy: 'password', password: 'pw' } })).body.uri;
      assert.equal((await h.call('PUT', `${locked}/videos/${v.b}`, { token: owner.token })).status, 204);
      for (const token of [stranger.token, undefined]) {
        expectError(await h.call('GET', `${locked}/videos`, { token }), 403, 3200);
        expectError(await h.call('GET', `${locked}/videos?password=wrong`, { token }), 403, 3200);
        expectError(await h.call('GET', `${locked}/videos/${v.b}`, { token }), 403, 3200);
        expectError(await h.call('GET', `${locked}/videos/${v.b}?password=nope`, { token }), 403, 3200);
        assert.deepEqual(named(await h.call('GET', `${locked}/videos?password=pw`, { token })), ['b']);
        assert.equal((await h.call('GET', `${locked}/videos/${v.b}?password=pw`, { token })).status, 200);
      }
      assert.deepEqual(named(await h.call('GET', `${locked}/videos`, { token: owner.token })), ['b']);
      assert.equal((await h.call('GET', `${locked}/videos/${v.b}`, { token: owner.token })).status, 200);
    });
  });
}
