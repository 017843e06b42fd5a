import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

/**
 * GET /videos/{video_id}/albums (issue 22): the list the Clip's `albums` connection names. The
 * albums holding the video that the caller may see: a password album only to its owner, like a
 * user's album list; 404 when the video is missing or hidden from the caller.
 */

const names = (r: Answer): string[] => r.body.data.map((a: { name: string }) => a.name);

for (const driver of drivers) {
  describe(`GET /videos/{video_id}/albums (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let video: string;
    let hidden: string;
    let locked: string;
    const albums = (id: string, token?: string, query = '') => h.call('GET', `/videos/${id}/albums${query}`, { token });
    const album = async (owner: Fixture, json: Record<string, unknown>, videos: string[]): Promise<string> => {
      h.clock.advance(60);
      const r = await h.call('POST', '/me/albums', { token: owner.token, json: { description: '', ...json } });
      assert.equal(r.status, 201, r.text);
      for (const v of videos) assert.equal((await h.call('PUT', `${r.body.uri}/videos/${v}`, { token: owner.token })).status, 204);
      return r.body.uri;
    };

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      video = await h.video(alice, { name: 'Shared' });
      hidden = await h.video(alice, { name: 'Hidden', privacy: { view: 'nobody' } });
      locked = await h.video(alice, { name: 'Locked', privacy: { view: 'password' }, password: 'open sesame' });
      await album(alice, { name: 'Alpha' }, [video, hidden, locked]);
      await album(alice, { name: 'Beta', privacy: 'password', password: 'secret' }, [video]);
      await album(alice, { name: 'Gamma', privacy: 'embed_only' }, [video]);
      await album(alice, { name: 'Empty' }, []);
      await album(bob, { name: "Bob's picks" }, [video]);
    });
    after(() => h.stop());

    it('answers the albums holding the video, newest first, typed as albums; the Clip’s connection names it', async () => {
      const r = await albums(video);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.album+json;version=3.4');
      assert.deepEqual(names(r), ["Bob's picks", 'Gamma', 'Alpha'], 'anybody sees all but the password album');
      assert.equal(r.body.total, 3);
      const bobs = r.body.data[0];
      assert.match(bobs.uri, new RegExp(`^/users/${bob.user.id}/albums/\\d+$`));
      assert.equal(bobs.user.uri, `/users/${bob.user.id}`);
      assert.equal(bobs.link, `${h.server.url}${bobs.uri}`);
      const clip = (await h.call('GET', `/videos/${video}`)).body;
      assert.equal(clip.metadata.connections.albums.uri, `/videos/${video}/albums`);
      assert.deepEqual(clip.metadata.connections.albums.options, ['GET']);
    });

    it('shows a password album to its owner only', async () => {
      assert.deepEqual(names(await albums(video, alice.token)), ["Bob's picks", 'Gamma', 'Beta', 'Alpha']);
      assert.deepEqual(names(await albums(video, bob.token)), ["Bob's picks", 'Gamma', 'Alpha']);
    });

    it('sorts, searches and pages with the usual list parameters', async () => {
      assert.deepEqual(names(await albums(video, alice.token, '?sort=alphabetical')), ['Alpha', 'Beta', "Bob's picks", 'Gamma']);
      assert.deepEqual(names(await albums(video, alice.token, '?sort=date&direction=asc')), ['Alpha', 'Beta', 'Gamma', "Bob's picks"]);
      assert.deepEqual(names(await albums(video, undefined, '?query=gam')), ['Gamma']);
      const r = await albums(video, undefined, '?per_page=1&page=2');
      assert.deepEqual(names(r), ['Gamma']);
      assert.equal(r.body.total, 3);
      assert.deepEqual(r.body.paging, {
        next: `/videos/${video}/albums?per_page=1&page=3`,
        previous: `/videos/${video}/albums?per_page=1&page=1`,
        first: `/videos/${video}/albums?per_page=1&page=1`,
        last: `/videos/${video}/albums?per_page=1&page=3`,
      });
    });

    it('a hidden video’s albums reach its owner only; a password video’s need its password', async () => {
      assert.deepEqual(names(await albums(hidden, alice.token)), ['Alpha']);
      expectError(await albums(hidden, bob.token), 404, 5000);
      expectError(await albums(hidden), 404, 5000);
      expectError(await albums(locked, bob.token), 403, 3200);
      expectError(await albums(locked, bob.token, '?password=wrong'), 403, 3200);
      assert.deepEqual(names(await albums(locked, bob.token, `?password=${encodeURIComponent('open sesame')}`)), ['Alpha']);
    });

    it('404 for a video that does not exist; an empty list for one in no album; 400 for a bad parameter', async () => {
      expectError(await albums('999999'), 404, 5000);
      expectError(await albums('not-an-id'), 404, 5000);
      const lonely = await h.video(alice, { name: 'Lonely' });
      const r = await albums(lonely);
      assert.equal(r.status, 200);
      assert.deepEqual([r.body.total, r.body.data], [0, []]);
      expectError(await albums(video, undefined, '?sort=plays'), 400, 2204, 'sort');
      expectError(await albums(video, undefined, '?per_page=0'), 400, 2204, 'per_page');
    });

    it('follows the album’s contents: a video taken out, or an album deleted, leaves the list', async () => {
      const alpha = (await albums(video, alice.token, '?query=Alpha')).body.data[0].uri;
      assert.equal((await h.call('DELETE', `${alpha}/videos/${video}`, { token: alice.token })).status, 204);
      const bobs = (await albums(video, bob.token, '?query=Bob')).body.data[0].uri;
      assert.equal((await h.call('DELETE', bobs, { token: bob.token })).status, 204);
      assert.deepEqual(names(await albums(video)), ['Gamma']);
    });
  });
}
