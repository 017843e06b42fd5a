import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

/**
 * GET /me/feed/{activity_id}, /users/{user_id}/feed/{activity_id} (issue 22): the `uri` every
 * Activity of a feed names answers that one item, for the feed's user only, while the feed shows
 * it (the same audience and visibility rules as the list).
 */

for (const driver of drivers) {
  describe(`GET /users/{user_id}/feed/{activity_id} (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    let dave: Fixture;
    let bobClip: string;
    /** The uri of Bob's upload in Alice's feed, and of Dave's in Carol's. */
    let bobUpload: string;
    let daveUpload: string;
    const feed = async (who: Fixture) => {
      const r = await h.call('GET', '/me/feed', { token: who.token });
      assert.equal(r.status, 200, r.text);
      return r.body.data as { uri: string; type: string; clip: { uri: string } }[];
    };

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
      dave = await h.user('Dave');
      await h.follow(alice, bob);
      await h.follow(carol, dave);
      bobClip = await h.video(bob, { name: 'Bob surfs' });
      await h.video(dave, { name: 'Dave rides' });
      [{ uri: bobUpload }] = await feed(alice);
      [{ uri: daveUpload }] = await feed(carol);
    });
    after(() => h.stop());

    it('answers the item its uri names, as the feed shows it, under /users/{id} and /me', async () => {
      assert.match(bobUpload, new RegExp(`^/users/${alice.user.id}/feed/\\d+$`));
      const [listed] = await feed(alice);
      const r = await h.call('GET', bobUpload, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.activity+json;version=3.4');
      assert.deepEqual(r.body, listed);
      assert.equal(r.body.type, 'uploads');
      assert.equal(r.body.clip.uri, `/videos/${bobClip}`);
      const viaMe = await h.call('GET', `/me/feed/${bobUpload.split('/').pop()}`, { token: alice.token });
      assert.deepEqual(viaMe.body, listed);
    });

    it("is the feed's user's alone: 403 to another user, 401 without a token", async () => {
      expectError(await h.call('GET', bobUpload, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', bobUpload), 401, 8003);
    });

    it('404 for an activity the feed does not hold, or that does not exist', async () => {
      const id = daveUpload.split('/').pop();
      expectError(await h.call('GET', `/me/feed/${id}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `/users/${carol.user.id}/feed/${bobUpload.split('/').pop()}`, { token: carol.token }), 404, 5000);
      expectError(await h.call('GET', '/me/feed/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/me/feed/not-an-id', { token: alice.token }), 404, 5000);
    });

    it('404 once the video is hidden from the feed’s user, as the feed drops it', async () => {
      assert.equal((await h.call('PATCH', `/videos/${bobClip}`, { token: bob.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      assert.deepEqual(await feed(alice), []);
      expectError(await h.call('GET', bobUpload, { token: alice.token }), 404, 5000);
    });
  });
}
