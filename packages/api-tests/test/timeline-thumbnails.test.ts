import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/videos/{video_id}/timelinethumbnails (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const video = async (json: Record<string, unknown> = {}) => `/videos/${await h.video(alice, json)}`;
    const create = async (uri: string): Promise<string> => {
      const r = await h.call('POST', `${uri}/timelinethumbnails`, { token: alice.token });
      assert.equal(r.status, 201, r.text);
      return r.body.uri as string;
    };
    const count = (uri: string) => h.service.store.count('timeline_thumbnails', { field: 'video_id', op: 'eq', value: uri.split('/').pop()! });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('POST answers 201 with uri, status, link and sizes', async () => {
      const uri = await video();
      const r = await h.call('POST', `${uri}/timelinethumbnails`, { token: alice.token, json: {} });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      const id = r.body.uri.split('/').pop();
      assert.equal(r.body.uri, `${uri}/timelinethumbnails/${id}`);
      assert.equal(r.body.status, 'in_progress');
      assert.equal(r.body.sizes.length, 7);
      // No frame yet (the video was never uploaded): the placeholder, at the thumbnail's signed address.
      assert.match(r.body.link, new RegExp(`^${h.server.url}/media/timelinethumbnails/${id}/p-[0-9a-f]{32}\\?upload=[0-9a-f]{32}$`));
      assert.deepEqual(r.body.sizes[3], { width: 640, height: 360, link: `${r.body.link.split('?')[0]}/640x360.png` });
      assert.equal(r.body.created_time, '2026-01-02T03:04:05+00:00');
      assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
    });

    it('GET answers the owner 200; the status follows the video transcode', async () => {
      const uri = await video();
      const thumb = await create(uri);
      const r = await h.call('GET', thumb, { token: alice.token });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      assert.equal(r.body.uri, thumb);
      assert.equal(r.body.status, 'in_progress');
      await h.service.store.update('videos', uri.split('/').pop()!, { transcode_status: 'complete' });
      assert.equal((await h.call('GET', thumb, { token: alice.token })).body.status, 'complete');
      const old = await h.call('GET', thumb, { token: alice.token, version: '3.1' });
      assert.equal(old.headers.get('content-type'), 'application/json');
      assert.equal(old.body.uri, thumb);
    });

    it('POST is 403 on a video someone else owns, 404 on a hidden or missing one, and creates nothing', async () => {
      const uri = await video();
      expectError(await h.call('POST', `${uri}/timelinethumbnails`, { token: bob.token }), 403, 3200);
      const locked = await video({ privacy: { view: 'password' }, password: 'pw' });
      expectError(await h.call('POST', `${locked}/timelinethumbnails`, { token: bob.token }), 403, 3200);
      const hidden = await video({ privacy: { view: 'nobody' } });
      expectError(await h.call('POST', `${hidden}/timelinethumbnails`, { token: bob.token }), 404, 5000);
      expectError(await h.call('POST', '/videos/999999/timelinethumbnails', { token: alice.token }), 404, 5000);
      expectError(await h.call('POST', `${uri}/timelinethumbnails`), 401, 8003);
      const noUpload = await h.user('NoUpload', 'public,edit');
      expectError(await h.call('POST', `${uri}/timelinethumbnails`, { token: noUpload.token }), 403, 3200);
      for (const u of [uri, locked, hidden]) assert.equal(await count(u), 0);
    });

    it('GET is 403 to anyone but the owner who can see the video, 404 when hidden, 401 anonymous', async () => {
      const uri = await video();
      const thumb = await create(uri);
      expectError(await h.call('GET', thumb, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', thumb), 401, 8003);
      const hidden = await video({ privacy: { view: 'disable' } });
      const hiddenThumb = await create(hidden);
      expectError(await h.call('GET', hiddenThumb, { token: bob.token }), 404, 5000);
    });

    it('GET is 404 for a missing thumbnail, one of another video, or a missing video', async () => {
      const uri = await video();
      const other = await video();
      const id = (await create(uri)).split('/').pop();
      expectError(await h.call('GET', `${other}/timelinethumbnails/${id}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `${uri}/timelinethumbnails/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `${uri}/timelinethumbnails/x`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `/videos/999999/timelinethumbnails/${id}`, { token: alice.token }), 404, 5000);
    });

    it('deleting the video deletes its timeline thumbnails', async () => {
      const uri = await video();
      await create(uri);
      assert.equal(await count(uri), 1);
      assert.equal((await h.call('DELETE', uri, { token: alice.token })).status, 204);
      assert.equal(await count(uri), 0);
    });
  });
}
