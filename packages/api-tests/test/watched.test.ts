import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/me/watched/videos and /users/{user_id}/watched/videos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let first: string;
    let second: string;
    let third: string;
    const history = async (path = '/me/watched/videos') => {
      const r = await h.call('GET', path, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    const ids = (r: { body: { data: { uri: string }[] } }) => r.body.data.map((v) => v.uri.split('/').pop());
    const watch = async (id: string, token = alice.token) => {
      h.clock.advance(60);
      const r = await h.call('PUT', `/me/watched/videos/${id}`, { token });
      assert.equal(r.status, 204, r.text);
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      first = await h.video(bob, { name: 'First' });
      second = await h.video(bob, { name: 'Second' });
      third = await h.video(alice, { name: 'Own', privacy: { view: 'nobody' } });
    });
    after(() => h.stop());

    it('PUT marks a video watched now (204) and the Clip shows it', async () => {
      await watch(first);
      const clip = await h.call('GET', `/videos/${first}`, { token: alice.token });
      assert.deepEqual(clip.body.metadata.interactions.watched, {
        uri: `/users/${alice.user.id}/watched/videos/${first}`,
        options: ['GET', 'PUT', 'DELETE'],
        added: true,
        added_time: '2026-01-02T03:05:05+00:00',
      });
      assert.equal((await h.call('GET', `/videos/${first}`, { token: bob.token })).body.metadata.interactions.watched.added, false);
    });

    it('GET lists the most recently watched first; watching again moves a video up', async () => {
      await watch(second);
      await watch(third);
      let r = await history();
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(r.body.total, 3);
      assert.deepEqual(ids(r), [third, second, first]);
      await watch(first);
      r = await history();
      assert.deepEqual(ids(r), [first, third, second]);
      assert.equal(r.body.total, 3);
      assert.equal(r.body.data[0].metadata.interactions.watched.added_time, '2026-01-02T03:08:05+00:00');
      assert.deepEqual(ids(await history(`/users/${alice.user.id}/watched/videos`)), [first, third, second]);
    });

    it('GET of one video answers its Clip (200) while it is in the history, 404 otherwise', async () => {
      for (const path of [`/me/watched/videos/${first}`, `/users/${alice.user.id}/watched/videos/${first}`]) {
        const r = await h.call('GET', path, { token: alice.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.uri, `/videos/${first}`);
        assert.equal(r.body.metadata.interactions.watched.added_time, '2026-01-02T03:08:05+00:00');
      }
      expectError(await h.call('GET', `/me/watched/videos/${first}`, { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', '/me/watched/videos/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/me/watched/videos/not-an-id', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `/users/${alice.user.id}/watched/videos/${first}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', `/me/watched/videos/${first}`), 401, 8003);
      const noPrivate = await h.user('No private here', 'public,edit,delete,interact,upload');
      expectError(await h.call('GET', `/me/watched/videos/${first}`, { token: noPrivate.token }), 403, 3200);
    });

    it('pages with page and per_page only', async () => {
      const r = await history('/me/watched/videos?per_page=2&page=2');
      assert.equal(r.body.total, 3);
      assert.deepEqual(ids(r), [second]);
      assert.equal(r.body.paging.first, '/me/watched/videos?per_page=2&page=1');
      expectError(await h.call('GET', '/me/watched/videos?per_page=101', { token: alice.token }), 400, 2204, 'per_page');
      expectError(await h.call('GET', '/me/watched/videos?page=abc', { token: alice.token }), 400, 2204, 'page');
    });

    it("another user's history answers 403; an unknown user 404; anonymous 401; the private scope is needed", async () => {
      expectError(await h.call('GET', `/users/${alice.user.id}/watched/videos`, { token: bob.token }), 403, 3200);
      expectError(await h.call('DELETE', `/users/${alice.user.id}/watched/videos`, { token: bob.token }), 403, 3200);
      expectError(await h.call('DELETE', `/users/${alice.user.id}/watched/videos/${first}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('PUT', `/users/${alice.user.id}/watched/videos/${first}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', '/users/999999/watched/videos', { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', '/me/watched/videos'), 401, 8003);
      expectError(await h.call('GET', `/users/${alice.user.id}/watched/videos`), 401, 8003);
      expectError(await h.call('PUT', `/me/watched/videos/${first}`), 401, 8003);
      const noPrivate = await h.user('No private', 'public,edit,delete,interact,upload');
      expectError(await h.call('GET', '/me/watched/videos', { token: noPrivate.token }), 403, 3200);
      const noDelete = await h.user('No delete', 'public,private,edit,interact,upload');
      expectError(await h.call('DELETE', '/me/watched/videos', { token: noDelete.token }), 403, 3200);
      const noInteract = await h.user('No interact', 'public,private,edit,delete,upload');
      expectError(await h.call('PUT', `/me/watched/videos/${first}`, { token: noInteract.token }), 403, 3200);
      assert.equal((await history()).body.total, 3);
    });

    it('PUT needs a video the caller may see', async () => {
      expectError(await h.call('PUT', '/me/watched/videos/999999', { token: bob.token }), 404, 5000);
      expectError(await h.call('PUT', `/me/watched/videos/${third}`, { token: bob.token }), 404, 5000);
      const locked = await h.video(alice, { privacy: { view: 'password' }, password: 'pw' });
      expectError(await h.call('PUT', `/me/watched/videos/${locked}`, { token: bob.token }), 403, 3200);
      assert.equal((await h.call('PUT', `/me/watched/videos/${locked}`, { token: bob.token, json: { password: 'pw' } })).status, 204);
      const r = await h.call('GET', '/me/watched/videos', { token: bob.token });
      // A password video is never listed to anyone but its owner, so it is watched but not shown.
      assert.equal(r.body.total, 0);
    });

    it('lists only videos the caller may still see, with a true total', async () => {
      assert.equal((await h.call('PATCH', `/videos/${second}`, { token: bob.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      let r = await history();
      assert.deepEqual(ids(r), [first, third]);
      assert.equal(r.body.total, 2);
      expectError(await h.call('GET', `/me/watched/videos/${second}`, { token: alice.token }), 404, 5000);
      assert.equal((await h.call('PATCH', `/videos/${second}`, { token: bob.token, json: { privacy: { view: 'anybody' } } })).status, 200);
      r = await history();
      assert.deepEqual(ids(r), [first, third, second]);
    });

    it('DELETE of one video removes it (204), then 404', async () => {
      const r = await h.call('DELETE', `/me/watched/videos/${third}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.deepEqual(ids(await history()), [first, second]);
      expectError(await h.call('DELETE', `/me/watched/videos/${third}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', '/me/watched/videos/999999', { token: alice.token }), 404, 5000);
      const clip = await h.call('GET', `/videos/${third}`, { token: alice.token });
      assert.equal(clip.body.metadata.interactions.watched.added, false);
    });

    it('DELETE of the history clears it (204) and touches no one else’s', async () => {
      await watch(first, bob.token);
      const r = await h.call('DELETE', `/users/${alice.user.id}/watched/videos`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal((await history()).body.total, 0);
      assert.deepEqual(ids(await h.call('GET', '/me/watched/videos', { token: bob.token })), [first]);
      assert.equal((await h.call('DELETE', '/me/watched/videos', { token: alice.token })).status, 204);
    });
  });
}

for (const driver of drivers) {
  describe(`watch history counts on the User (${driver.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(driver);
    });
    after(() => h.stop());

    it('metadata.connections.watched_videos.total follows marking, removing, clearing and video deletion', async () => {
      const owner = await h.user('Owner');
      const viewer = await h.user('Viewer');
      const total = async () => (await h.call('GET', '/me', { token: viewer.token })).body.metadata.connections.watched_videos.total;
      const [a, b, c] = [await h.video(owner), await h.video(owner), await h.video(owner)];
      for (const id of [a, b, c, a]) assert.equal((await h.call('PUT', `/me/watched/videos/${id}`, { token: viewer.token })).status, 204);
      assert.equal(await total(), 3);
      assert.equal((await h.call('DELETE', `/me/watched/videos/${a}`, { token: viewer.token })).status, 204);
      assert.equal(await total(), 2);
      assert.equal((await h.call('DELETE', `/videos/${b}`, { token: owner.token })).status, 204);
      assert.equal(await total(), 1);
      assert.equal((await h.call('DELETE', '/me/watched/videos', { token: viewer.token })).status, 204);
      assert.equal(await total(), 0);
    });
  });
}
