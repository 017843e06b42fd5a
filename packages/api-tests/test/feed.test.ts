import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

/** [type, video id, name of the user behind it, tag word or category slug] of each feed item. */
type Item = [string, string, string, string | null];

for (const driver of drivers) {
  describe(`/me/feed and /users/{user_id}/feed (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    let dave: Fixture;
    let bobClip: string;
    let daveClip: string;
    let carolContacts: string;
    let bobCredit: string;
    /** When each event happened, by a name the tests use. */
    const at: Record<string, string> = {};

    const tick = (name: string): void => {
      h.clock.advance(60);
      at[name] = h.clock.now().toISOString().replace('.000Z', '+00:00');
    };
    const ok = async (method: string, path: string, who: Fixture, json?: unknown): Promise<Answer> => {
      const r = await h.call(method, path, { token: who.token, json });
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
      return r;
    };
    const read = async (path: string, who: Fixture = alice): Promise<Answer> => {
      const r = await h.call('GET', path, { token: who.token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    const items = (r: Answer): Item[] =>
      r.body.data.map((a: Record<string, { uri?: string; name?: string; canonical?: string } | string>) => {
        const subject = (a.tag as { canonical: string } | undefined)?.canonical ?? (a.category as { uri: string } | undefined)?.uri.split('/').pop() ?? null;
        return [a.type, (a.clip as { uri: string }).uri.split('/').pop(), (a.user as { name: string }).name, subject];
      });
    /**
     * Alice follows Bob and Carol and the Sports category, and tags her own video "surf". Dave,
     * whom she does not follow, does the rest.
     */
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
      dave = await h.user('Dave');
      await h.follow(alice, bob);
      await h.follow(alice, carol);
      tick('bobUpload');
      bobClip = await h.video(bob, { name: 'Bob surfs' });
      tick('daveUpload');
      daveClip = await h.video(dave, { name: 'Dave rides' });
      tick('carolHidden');
      await h.video(carol, { name: 'Carol alone', privacy: { view: 'nobody' } });
      tick('carolContacts');
      carolContacts = await h.video(carol, { name: 'Carol for contacts', privacy: { view: 'contacts' } });
      tick('aliceTags');
      const own = await h.video(alice, { name: 'Alice surfs' });
      await ok('PUT', `/videos/${own}/tags/Surf`, alice);
      tick('daveTags');
      await ok('PUT', `/videos/${daveClip}/tags/SURF`, dave);
      await ok('PUT', `/videos/${daveClip}/tags/ski`, dave);
      tick('bobCredited');
      const credit = (who: Fixture) => ({ email: 'x@example.com', name: who.user.name, role: 'Rider', user_uri: `/users/${who.user.id}` });
      bobCredit = (await ok('POST', `/videos/${daveClip}/credits`, dave, credit(bob))).body.uri;
      tick('aliceCredited');
      await ok('POST', `/videos/${daveClip}/credits`, dave, credit(alice));
      tick('featured');
      await ok('PUT', '/me/categories/sports', alice);
      await ok('PUT', `/videos/${daveClip}/categories`, dave, { category: ['surf'] });
      tick('bobLikes');
      await ok('PUT', `/me/likes/${daveClip}`, bob);
      tick('daveLikes');
      await ok('PUT', `/me/likes/${bobClip}`, dave);
    });
    after(() => h.stop());

    it('lists what the people, tags and categories Alice follows did, newest first, as Activity items', async () => {
      const r = await read('/me/feed');
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.activity+json;version=3.4');
      assert.equal(r.body.total, 6);
      assert.deepEqual(items(r), [
        ['likes', daveClip, 'Bob', null],
        ['category_featured', daveClip, 'Dave', 'surf'],
        ['appears', daveClip, 'Alice', null],
        ['appears', daveClip, 'Bob', null],
        ['tagged_with', daveClip, 'Dave', 'surf'],
        ['uploads', bobClip, 'Bob', null],
      ]);
      assert.deepEqual(
        r.body.data.map((a: { time: string }) => a.time),
        [at.bobLikes, at.featured, at.aliceCredited, at.bobCredited, at.daveTags, at.bobUpload],
      );
    });

    it('carries the Clip, the user, and the tag or category behind each item', async () => {
      const [liked, featured, , , tagged, upload] = (await read('/me/feed')).body.data;
      assert.deepEqual(Object.keys(upload).sort(), ['clip', 'resource_key', 'time', 'type', 'uri', 'user']);
      assert.match(upload.uri, new RegExp(`^/users/${alice.user.id}/feed/\\d+$`));
      assert.match(upload.resource_key, /^[0-9a-f]{40}$/);
      assert.equal(upload.clip.name, 'Bob surfs');
      assert.equal(upload.clip.user.uri, `/users/${bob.user.id}`);
      assert.deepEqual(upload.user, (await read(`/videos/${bobClip}`)).body.user);
      assert.equal(liked.user.uri, `/users/${bob.user.id}`);
      assert.deepEqual(tagged.tag, (await read(`/videos/${daveClip}/tags`)).body.data[0]);
      assert.equal(tagged.tag.name, 'SURF');
      assert.equal(featured.category.uri, '/categories/surf');
      assert.equal(featured.category.parent.uri, '/categories/sports');
      assert.deepEqual(featured.category.metadata.interactions.follow, {
        uri: `/users/${alice.user.id}/categories/surf`,
        options: ['GET', 'PUT', 'DELETE'],
        added: false,
        added_time: null,
      });
    });

    it('shows each user only the videos they may see, deciding at read time', async () => {
      assert.ok(!items(await read('/me/feed')).some(([, video]) => video === carolContacts));
      await h.follow(carol, alice);
      const r = await read('/me/feed');
      assert.equal(r.body.total, 7);
      assert.deepEqual(items(r).slice(5), [
        ['uploads', carolContacts, 'Carol', null],
        ['uploads', bobClip, 'Bob', null],
      ]);
      assert.equal(r.body.data[5].time, at.carolContacts);
    });

    it("answers the same at /users/{user_id}/feed for the user themselves; Bob's feed has only his own appearance", async () => {
      assert.deepEqual((await read(`/users/${alice.user.id}/feed`)).body.data, (await read('/me/feed')).body.data);
      assert.deepEqual(items(await read('/me/feed', bob)), [['appears', daveClip, 'Bob', null]]);
    });

    it('pages with an opaque offset cursor in paging.next and paging.previous', async () => {
      const all = items(await read('/me/feed'));
      const first = await read('/me/feed?per_page=3');
      assert.equal(first.body.total, 7);
      assert.equal(first.body.page, 1);
      assert.equal(first.body.per_page, 3);
      assert.deepEqual(items(first), all.slice(0, 3));
      assert.equal(first.body.paging.previous, null);
      assert.equal(first.body.paging.first, '/me/feed?page=1&per_page=3');
      assert.equal(first.body.paging.last, '/me/feed?page=3&per_page=3');
      assert.match(first.body.paging.next, /^\/me\/feed\?offset=[\w-]+\.[\w-]+&page=2&per_page=3$/);

      const second = await read(first.body.paging.next);
      assert.equal(second.body.page, 2);
      assert.equal(second.body.total, 7);
      assert.deepEqual(items(second), all.slice(3, 6));
      const third = await read(second.body.paging.next);
      assert.equal(third.body.page, 3);
      assert.deepEqual(items(third), all.slice(6));
      assert.equal(third.body.paging.next, null);
      assert.equal(third.body.paging.last, '/me/feed?page=3&per_page=3');

      const back = await read(third.body.paging.previous);
      assert.equal(back.body.page, 2);
      assert.deepEqual(items(back), all.slice(3, 6));
      const top = await read(back.body.paging.previous);
      assert.equal(top.body.page, 1);
      assert.deepEqual(items(top), all.slice(0, 3));
      assert.equal(top.body.paging.previous, null);
      assert.equal(top.body.paging.next, first.body.paging.next);
    });

    it('keeps its place while new activity arrives, unlike plain page numbers', async () => {
      const first = await read('/me/feed?per_page=3');
      const expected = items(await read(first.body.paging.next));
      tick('bobUploadsAgain');
      const fresh = await h.video(bob, { name: 'Bob again' });
      const second = await read(first.body.paging.next);
      assert.equal(second.body.total, 8);
      assert.deepEqual(items(second), expected);
      assert.deepEqual(items(await read('/me/feed?per_page=1')), [['uploads', fresh, 'Bob', null]]);
      assert.deepEqual(items(await read('/me/feed?per_page=3&page=2')).slice(1), expected.slice(0, 2));
      const back = await read(second.body.paging.previous);
      assert.deepEqual(items(back), items(first));
      assert.deepEqual(items(await read(back.body.paging.previous)), [['uploads', fresh, 'Bob', null]]);
    });

    it('an empty page after the last item still links back', async () => {
      const all = items(await read('/me/feed'));
      const last = await read(`/me/feed?per_page=${all.length - 1}`);
      const end = await read(last.body.paging.next);
      assert.deepEqual(items(end), all.slice(-1));
      // The oldest item is withdrawn between reads: the page after it is empty but not a dead end.
      await h.service.store.deleteWhere('activities', { field: 'video_id', op: 'eq', value: bobClip });
      const emptied = await read(last.body.paging.next);
      assert.deepEqual(emptied.body.data, []);
      assert.equal(emptied.body.paging.next, null);
      assert.deepEqual(items(await read(emptied.body.paging.previous)).at(-1), all.at(-2));
    });

    it('filters by type, and the paging links keep the filter', async () => {
      const r = await read('/me/feed?type=appears&per_page=1');
      assert.equal(r.body.total, 2);
      assert.deepEqual(items(r), [['appears', daveClip, 'Alice', null]]);
      assert.match(r.body.paging.next, /^\/me\/feed\?type=appears&offset=[\w-]+\.[\w-]+&page=2&per_page=1$/);
      assert.deepEqual(items(await read(r.body.paging.next)), [['appears', daveClip, 'Bob', null]]);
      assert.deepEqual(items(await read('/me/feed?type=category_featured')), [['category_featured', daveClip, 'Dave', 'surf']]);
      for (const type of ['share', 'facebook_feed', 'twitter_timeline', 'following', 'channel', 'group', 'ondemand_publish']) {
        const none = await read(`/me/feed?type=${type}`);
        assert.equal(none.body.total, 0);
        assert.deepEqual(none.body.data, []);
      }
    });

    it('takes an item back when its cause is undone or its video deleted', async () => {
      await ok('DELETE', bobCredit, dave);
      await ok('DELETE', `/videos/${daveClip}/tags/surf`, dave);
      assert.deepEqual(
        items(await read('/me/feed')).filter(([, video]) => video === daveClip),
        [
          ['likes', daveClip, 'Bob', null],
          ['category_featured', daveClip, 'Dave', 'surf'],
          ['appears', daveClip, 'Alice', null],
        ],
      );
      await ok('PUT', `/videos/${daveClip}/categories`, dave, { category: ['music'] });
      assert.deepEqual(items(await read('/me/feed?type=category_featured')), []);
      await ok('DELETE', `/videos/${daveClip}`, dave);
      assert.ok(!items(await read('/me/feed')).some(([, video]) => video === daveClip));
      assert.equal(await h.service.store.count('activities', { field: 'video_id', op: 'eq', value: daveClip }), 0);
    });

    it('answers 400 naming offset for an offset it did not make', async () => {
      const next: string = (await read('/me/feed?per_page=1')).body.paging.next;
      const offset = new URLSearchParams(next.split('?')[1]).get('offset')!;
      const [payload, mac] = offset.split('.');
      const edited = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), s: 1 })).toString('base64url');
      await h.follow(bob, carol);
      await h.video(carol);
      await h.video(carol);
      const bobs: string = (await read('/me/feed?per_page=1', bob)).body.paging.next;
      const bobOffset = new URLSearchParams(bobs.split('?')[1]).get('offset')!;
      for (const junk of ['', 'abc', '12345', `${edited}.${mac}`, `${payload}.${mac}x`, `${payload}.${mac}.${mac}`, `${payload}`, bobOffset, 'x'.repeat(300)]) {
        expectError(await h.call('GET', `/me/feed?offset=${encodeURIComponent(junk)}`, { token: alice.token }), 400, 2204, 'offset');
      }
    });

    it('rejects other bad parameters naming them', async () => {
      expectError(await h.call('GET', '/me/feed?type=posts', { token: alice.token }), 400, 2204, 'type');
      expectError(await h.call('GET', '/me/feed?per_page=101', { token: alice.token }), 400, 2204, 'per_page');
      expectError(await h.call('GET', '/me/feed?page=0', { token: alice.token }), 400, 2204, 'page');
    });

    it("answers 403 for another user's feed, 401 without a user, 403 without the private scope, 404 for no such user", async () => {
      expectError(await h.call('GET', `/users/${bob.user.id}/feed`, { token: alice.token }), 403, 3200);
      expectError(await h.call('GET', '/me/feed'), 401, 8003);
      expectError(await h.call('GET', `/users/${alice.user.id}/feed`), 401, 8003);
      const noPrivate = await h.user('No private', 'public,interact');
      const r = await h.call('GET', '/me/feed', { token: noPrivate.token });
      expectError(r, 403, 3200);
      assert.match(r.body.developer_message, /"private"/);
      expectError(await h.call('GET', '/users/999999/feed', { token: alice.token }), 404, 5000);
    });

    it('answers Activity 3.1 items in every version, typed from 3.2', async () => {
      const old = await h.call('GET', '/me/feed', { token: alice.token, version: '3.1' });
      assert.equal(old.status, 200);
      assert.equal(old.headers.get('content-type'), 'application/json');
      assert.deepEqual(
        old.body.data.map((a: { type: string }) => a.type),
        (await read('/me/feed')).body.data.map((a: { type: string }) => a.type),
      );
      const typed = await h.call('GET', '/me/feed', { token: alice.token, version: '3.2' });
      assert.equal(typed.headers.get('content-type'), 'application/vnd.reelbase.activity+json;version=3.2');
    });
  });
}
