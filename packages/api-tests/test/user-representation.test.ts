import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`the User's portrait and follow interaction (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
    });
    after(() => h.stop());

    it('pictures follows the active portrait, in the User and in a Clip owner', async () => {
      const made = await h.call('POST', '/me/pictures', { token: bob.token, json: { active: true } });
      assert.equal(made.status, 200, made.text);
      const uri = made.body.uri as string;
      assert.match(uri, new RegExp(`^/users/${bob.user.id}/pictures/\\d+$`));
      const user = await h.call('GET', `/users/${bob.user.id}`);
      assert.equal(user.body.pictures.uri, uri);
      assert.equal(user.body.pictures.active, true);
      assert.equal(user.body.pictures.type, 'custom');
      const video = await h.video(bob);
      assert.equal((await h.call('GET', `/videos/${video}`)).body.user.pictures.uri, uri);
      assert.equal((await h.call('PATCH', uri, { token: bob.token, json: { active: false } })).status, 200);
      const after = await h.call('GET', `/users/${bob.user.id}`);
      assert.equal(after.body.pictures.uri, null);
      assert.equal(after.body.pictures.type, 'default');
    });

    it('metadata.interactions.follow shows whether the caller follows the user', async () => {
      h.clock.advance(60);
      assert.equal((await h.call('PUT', `/me/following/${bob.user.id}`, { token: alice.token })).status, 204);
      const seen = await h.call('GET', `/users/${bob.user.id}`, { token: alice.token });
      assert.deepEqual(seen.body.metadata.interactions.follow, {
        uri: `/users/${alice.user.id}/following/${bob.user.id}`,
        options: ['GET', 'PUT', 'DELETE'],
        added: true,
        added_time: '2026-01-02T03:05:05+00:00',
      });
      const other = await h.call('GET', `/users/${bob.user.id}`, { token: carol.token });
      assert.equal(other.body.metadata.interactions.follow.added, false);
      assert.equal(other.body.metadata.interactions.follow.added_time, null);
      const following = await h.call('GET', '/me/following', { token: alice.token });
      assert.deepEqual(following.body.data.map((u: { metadata: { interactions: { follow: { added: boolean } } } }) => u.metadata.interactions.follow.added), [true]);
      assert.equal((await h.call('DELETE', `/me/following/${bob.user.id}`, { token: alice.token })).status, 204);
      assert.equal((await h.call('GET', `/users/${bob.user.id}`, { token: alice.token })).body.metadata.interactions.follow.added, false);
    });
  });
}
