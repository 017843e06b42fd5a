import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`the Clip's folder and album count (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it("parent_folder is the Project from 3.3.9 for the owner (only they may open it), null outside a folder and to others, absent before", async () => {
      const video = await h.video(alice);
      assert.equal((await h.call('GET', `/videos/${video}`, { token: alice.token })).body.parent_folder, null);
      const project = await h.call('POST', '/me/projects', { token: alice.token, json: { name: 'Rushes' } });
      assert.equal(project.status, 201, project.text);
      assert.equal((await h.call('PUT', `${project.body.uri}/videos/${video}`, { token: alice.token })).status, 204);
      assert.equal((await h.call('GET', `/videos/${video}`)).body.parent_folder, null);
      const clip = await h.call('GET', `/videos/${video}`, { token: alice.token });
      assert.equal(clip.body.parent_folder.uri, project.body.uri);
      assert.equal(clip.body.parent_folder.name, 'Rushes');
      assert.equal(clip.body.parent_folder.metadata.connections.videos.total, 1);
      assert.equal((await h.call('GET', `/videos/${video}`, { token: alice.token, version: '3.3' })).body.parent_folder, undefined);
      const listed = await h.call('GET', '/me/videos?fields=uri,parent_folder.uri', { token: alice.token });
      assert.deepEqual(listed.body.data, [{ uri: `/videos/${video}`, parent_folder: { uri: project.body.uri } }]);
      // Read by the owner first (a Clip may be remembered), then by another user and anonymously, one by one and in lists (issue 35).
      const bob = await h.user('Bob');
      for (const token of [bob.token, undefined]) {
        assert.equal((await h.call('GET', `/videos/${video}`, { token })).body.parent_folder, null);
        const theirs = await h.call('GET', `/users/${alice.user.id}/videos?fields=uri,parent_folder`, { token });
        assert.deepEqual(theirs.body.data, [{ uri: `/videos/${video}`, parent_folder: null }]);
      }
    });

    it('metadata.connections.available_channels.total counts the channels the viewer moderates', async () => {
      const video = await h.video(alice);
      const total = async (token?: string) => (await h.call('GET', `/videos/${video}`, { token })).body.metadata.connections.available_channels.total;
      const before = await total(alice.token);
      const r = await h.call('POST', '/channels', { token: alice.token, json: { name: `Ch ${before}`, privacy: 'anybody' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(await total(alice.token), before + 1);
      assert.equal(await total(), 0);
    });

    it('metadata.connections.albums.total counts the albums a video is in', async () => {
      const video = await h.video(alice);
      const total = async () => (await h.call('GET', `/videos/${video}`)).body.metadata.connections.albums.total;
      const album = async (name: string) => {
        const r = await h.call('POST', '/me/albums', { token: alice.token, json: { name, description: 'd' } });
        assert.equal(r.status, 201, r.text);
        return r.body.uri as string;
      };
      const [a, b] = [await album('A'), await album('B')];
      assert.equal(await total(), 0);
      assert.equal((await h.call('PUT', `${a}/videos/${video}`, { token: alice.token })).status, 204);
      assert.equal((await h.call('PUT', `${b}/videos`, { token: alice.token, form: { videos: `/videos/${video}` } })).status, 201);
      assert.equal(await total(), 2);
      assert.equal((await h.call('PUT', `${b}/videos`, { token: alice.token, form: { videos: '' } })).status, 201);
      assert.equal(await total(), 1);
      assert.equal((await h.call('DELETE', `${a}/videos/${video}`, { token: alice.token })).status, 204);
      assert.equal(await total(), 0);
    });
  });
}
