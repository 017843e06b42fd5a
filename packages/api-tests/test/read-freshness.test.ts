import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, createToken, parseScopes, revokeToken, type Store } from '@reelbase/core';
import { drivers, Harness, type Answer, type Fixture } from '../src/index';

/**
 * What the read path remembers (the SQLite driver's read cache, shared Clip and User bases, a
 * viewer's Clips and the bytes they serialise to) never answers stale data (issue 21). Each rule
 * is checked after the reads it concerns were made at least twice, so that whatever can be
 * remembered was: a revoked token is refused on its next request, also when another store on the
 * same database revoked it; what a viewer does (like, watch later, watched, follow) shows in their
 * next answer; an owner's edit shows to every viewer at once; a viewer who just lost access gets
 * a 404 at once.
 */
for (const driver of drivers) {
  describe(`reads stay fresh (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let viewer: Fixture;
    let video: string;
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      viewer = await h.user('Viewer');
      video = await h.video(owner, { name: 'Fresh' });
    });
    after(() => h.stop());

    /** The answer to a GET, read twice first so that every cache has it. */
    const warm = async (path: string, token?: string): Promise<Answer> => {
      for (let i = 0; i < 2; i++) await h.call('GET', path, { token });
      return h.call('GET', path, { token });
    };
    const interaction = async (name: string): Promise<{ added: boolean; added_time: string | null }> =>
      (await h.call('GET', `/videos/${video}`, { token: viewer.token })).body.metadata.interactions[name];

    it("a viewer's like, watch-later and watched show in their next read of the video, and go with the undo", async () => {
      for (const [name, path] of [
        ['like', `/me/likes/${video}`],
        ['watchlater', `/me/watchlater/${video}`],
        ['watched', `/me/watched/videos/${video}`],
      ]) {
        assert.equal((await warm(`/videos/${video}`, viewer.token)).body.metadata.interactions[name].added, false, name);
        assert.equal((await h.call('PUT', path, { token: viewer.token })).status, 204, name);
        assert.deepEqual(await interaction(name), { ...(await interaction(name)), added: true }, name);
        assert.equal((await interaction(name)).added_time, '2026-01-02T03:04:05+00:00', name);
        assert.equal((await h.call('DELETE', path, { token: viewer.token })).status, 204, name);
        assert.equal((await interaction(name)).added, false, name);
      }
      // The owner's counter moved with the like, for everybody.
      assert.equal((await warm(`/videos/${video}`)).body.metadata.connections.likes.total, 0);
      await h.call('PUT', `/me/likes/${video}`, { token: viewer.token });
      assert.equal((await h.call('GET', `/videos/${video}`)).body.metadata.connections.likes.total, 1);
      await h.call('DELETE', `/me/likes/${video}`, { token: viewer.token });
    });

    it("a viewer's like, watch-later and watched, a channel they came to moderate and the owner's new name show in their next read of a list", async () => {
      const list = `/users/${owner.user.id}/videos`;
      const clip = async () => (await h.call('GET', list, { token: viewer.token })).body.data[0];
      // Viewers with nothing of their own on the page still each see their own interactions.
      const second = await h.user('Second');
      for (const token of [viewer.token, second.token, undefined, viewer.token]) await warm(list, token);
      assert.equal((await clip()).metadata.interactions.like.uri, `/users/${viewer.user.id}/likes/${video}`);
      assert.equal((await h.call('GET', list, { token: second.token })).body.data[0].metadata.interactions.like.uri, `/users/${second.user.id}/likes/${video}`);
      assert.deepEqual((await h.call('GET', list)).body.data[0].metadata.interactions, {});
      for (const [name, path] of [
        ['like', `/me/likes/${video}`],
        ['watchlater', `/me/watchlater/${video}`],
        ['watched', `/me/watched/videos/${video}`],
      ]) {
        assert.equal((await warm(list, viewer.token)).body.data[0].metadata.interactions[name].added, false, name);
        assert.equal((await h.call('PUT', path, { token: viewer.token })).status, 204, name);
        assert.deepEqual([(await clip()).metadata.interactions[name].added, (await clip()).metadata.interactions[name].added_time], [true, '2026-01-02T03:04:05+00:00'], name);
        // The same page read by others right after shows them their own.
        assert.equal((await h.call('GET', list, { token: owner.token })).body.data[0].metadata.interactions[name].added, false, name);
        assert.deepEqual((await h.call('GET', list)).body.data[0].metadata.interactions, {}, name);
        assert.equal((await h.call('DELETE', path, { token: viewer.token })).status, 204, name);
        assert.equal((await clip()).metadata.interactions[name].added, false, name);
      }
      assert.equal((await warm(list, viewer.token)).body.data[0].metadata.connections.available_channels.total, 0);
      const channel = await h.call('POST', '/channels', { token: viewer.token, json: { name: 'Mine', description: 'x', privacy: 'anybody' } });
      assert.equal(channel.status, 200);
      assert.equal((await clip()).metadata.connections.available_channels.total, 1);
      assert.equal((await h.call('DELETE', String(channel.body.uri), { token: viewer.token })).status, 204);
      assert.equal((await clip()).metadata.connections.available_channels.total, 0);
      for (const token of [undefined, viewer.token, owner.token]) assert.equal((await warm(list, token)).body.data[0].user.name, 'Owner');
      assert.equal((await h.call('PATCH', '/me', { token: owner.token, json: { name: 'Owner Renamed' } })).status, 200);
      for (const token of [undefined, viewer.token, owner.token]) assert.equal((await h.call('GET', list, { token })).body.data[0].user.name, 'Owner Renamed');
      assert.equal((await h.call('PATCH', '/me', { token: owner.token, json: { name: 'Owner' } })).status, 200);
    });

    it("a follow shows in the viewer's next read of the user, and in the user's followers total for everybody", async () => {
      const user = `/users/${owner.user.id}`;
      assert.equal((await warm(user, viewer.token)).body.metadata.interactions.follow.added, false);
      assert.equal((await warm(user)).body.metadata.connections.followers.total, 0);
      assert.equal((await h.call('PUT', `/me/following/${owner.user.id}`, { token: viewer.token })).status, 204);
      assert.equal((await h.call('GET', user, { token: viewer.token })).body.metadata.interactions.follow.added, true);
      assert.equal((await h.call('GET', user)).body.metadata.connections.followers.total, 1);
      assert.equal((await h.call('GET', '/me', { token: viewer.token })).body.metadata.connections.following.total, 1);
      assert.equal((await h.call('DELETE', `/me/following/${owner.user.id}`, { token: viewer.token })).status, 204);
      assert.equal((await h.call('GET', user, { token: viewer.token })).body.metadata.interactions.follow.added, false);
    });

    it("a video shared with a user and a channel they came to moderate show in the next read of that user, by anybody", async () => {
      const totals = async (token?: string) => {
        const { shared, moderated_channels } = (await h.call('GET', `/users/${viewer.user.id}`, { token })).body.metadata.connections;
        return [shared.total, moderated_channels.total];
      };
      // A channel's owner makes moderators of the users they follow.
      assert.equal((await h.call('PUT', `/me/following/${viewer.user.id}`, { token: owner.token })).status, 204);
      const readers = [undefined, viewer.token, owner.token];
      for (const token of readers) {
        await warm(`/users/${viewer.user.id}`, token);
        assert.deepEqual(await totals(token), [0, 0]);
      }
      const secret = await h.video(owner, { name: 'For the viewer', privacy: { view: 'users' } });
      const channel = (await h.call('POST', '/channels', { token: owner.token, json: { name: 'Theirs', description: 'x', privacy: 'anybody' } })).body.uri as string;
      for (const token of readers) await warm(`/users/${viewer.user.id}`, token);
      assert.equal((await h.call('PUT', `/videos/${secret}/privacy/users/${viewer.user.id}`, { token: owner.token })).status, 200);
      // Shared videos are a list only their user may read: others count none (issue 46 §7).
      const shared = (token?: string) => (token === viewer.token ? 1 : 0);
      for (const token of readers) assert.deepEqual(await totals(token), [shared(token), 0]);
      assert.equal((await h.call('PUT', `${channel}/moderators/${viewer.user.id}`, { token: owner.token })).status, 204);
      for (const token of readers) assert.deepEqual(await totals(token), [shared(token), 1]);
      assert.equal((await h.call('DELETE', `/videos/${secret}`, { token: owner.token })).status, 204);
      assert.equal((await h.call('DELETE', channel, { token: owner.token })).status, 204);
      for (const token of readers) assert.deepEqual(await totals(token), [0, 0]);
      assert.equal((await h.call('DELETE', `/me/following/${viewer.user.id}`, { token: owner.token })).status, 204);
    });

    it("the owner's edit shows at once to every viewer, in the video and in lists", async () => {
      const list = `/users/${owner.user.id}/videos`;
      for (const token of [undefined, viewer.token, owner.token]) {
        assert.equal((await warm(`/videos/${video}`, token)).body.name, 'Fresh');
        assert.equal((await warm(list, token)).body.data[0].name, 'Fresh');
      }
      assert.equal((await h.call('PATCH', `/videos/${video}`, { token: owner.token, json: { name: 'Renamed' } })).status, 200);
      for (const token of [undefined, viewer.token, owner.token]) {
        assert.equal((await h.call('GET', `/videos/${video}`, { token })).body.name, 'Renamed');
        assert.equal((await h.call('GET', list, { token })).body.data[0].name, 'Renamed');
      }
    });

    it('a viewer who just lost access gets a 404 at once, in the video and in lists', async () => {
      const list = `/users/${owner.user.id}/videos`;
      for (const token of [undefined, viewer.token]) {
        assert.equal((await warm(`/videos/${video}`, token)).status, 200);
        assert.equal((await warm(list, token)).body.total, 1);
      }
      assert.equal((await h.call('PATCH', `/videos/${video}`, { token: owner.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      for (const token of [undefined, viewer.token]) {
        const r = await h.call('GET', `/videos/${video}`, { token });
        assert.equal(r.status, 404);
        assert.equal(r.body.error_code, 5000);
        assert.equal((await h.call('GET', list, { token })).body.total, 0);
      }
      assert.equal((await h.call('GET', `/videos/${video}`, { token: owner.token })).status, 200);
      await h.call('PATCH', `/videos/${video}`, { token: owner.token, json: { privacy: { view: 'anybody' } } });
      assert.equal((await h.call('GET', `/videos/${video}`, { token: viewer.token })).status, 200);
    });

    it('a revoked token is refused on its next request', async () => {
      const { token } = await createToken(h.service.store, h.clock.now(), viewer.user.id, parseScopes('all'));
      assert.equal((await warm('/me', token)).status, 200);
      assert.equal((await warm(`/videos/${video}`, token)).status, 200);
      await revokeToken(h.service.store, token);
      for (const path of ['/me', `/videos/${video}`]) {
        const r = await h.call('GET', path, { token });
        assert.equal(r.status, 401, path);
        assert.equal(r.body.error_code, 8003, path);
      }
    });

    // A JSON store is one process's file; SQLite and PostgreSQL are shared by processes.
    if (!driver.sharedByProcesses) return;

    describe('changes made through another store on the same database (another process)', () => {
      let other: Store;
      before(async () => {
        other = await h.reopen!();
      });
      after(() => other.close());

      it('a token revoked there is refused here on its next request', async () => {
        const { token } = await createToken(h.service.store, h.clock.now(), viewer.user.id, parseScopes('all'));
        assert.equal((await warm('/me', token)).status, 200);
        assert.equal((await warm(`/videos/${video}`, token)).status, 200);
        await revokeToken(other, token);
        assert.equal((await h.call('GET', '/me', { token })).status, 401);
        assert.equal((await h.call('GET', `/videos/${video}`, { token })).status, 401);
      });

      it("a like, an owner's edit and a privacy change made there show here at once", async () => {
        const service = createService({ store: other, clock: h.clock.now, config: { rateLimit: null } });
        const there = (method: string, url: string, token: string, body?: unknown) =>
          service.handle(token, { method, url, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
        assert.equal((await warm(`/videos/${video}`, viewer.token)).body.metadata.interactions.like.added, false);
        assert.equal((await there('PUT', `/me/likes/${video}`, viewer.token)).status, 204);
        assert.equal((await interaction('like')).added, true);
        assert.equal((await warm(`/videos/${video}`)).body.name, 'Renamed');
        assert.equal((await there('PATCH', `/videos/${video}`, owner.token, { name: 'Elsewhere' })).status, 200);
        assert.equal((await h.call('GET', `/videos/${video}`)).body.name, 'Elsewhere');
        assert.equal((await there('PATCH', `/videos/${video}`, owner.token, { privacy: { view: 'nobody' } })).status, 200);
        assert.equal((await h.call('GET', `/videos/${video}`, { token: viewer.token })).status, 404);
        assert.equal((await h.call('GET', `/videos/${video}`)).status, 404);
      });
    });
  });
}
