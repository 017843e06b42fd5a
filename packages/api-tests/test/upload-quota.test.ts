import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, type Fixture } from '../src/index';
import { sendByTus, uploadByTus } from '../src/media';

for (const driver of drivers) {
  describe(`upload quota (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let mp4: Buffer;
    /** Room for the clip, a version twice its length, and a little more. */
    let quota: number;
    const space = async () => {
      const r = await h.call('GET', '/me?fields=upload_quota,metadata.connections.videos.total', { token: alice.token });
      assert.equal(r.status, 200, r.text);
      return { ...r.body.upload_quota.space, videos: r.body.metadata.connections.videos.total as number };
    };
    before(async () => {
      mp4 = await makeClip({ width: 160, height: 120, seconds: 1 });
      quota = mp4.length * 4 + 100;
      h = await Harness.start(driver, { uploadQuotaBytes: quota, uploadLinkTtlSeconds: 3600 });
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('counts a completed upload in used and free, and lets it go when the video is deleted', async () => {
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 0 });
      const id = await uploadByTus(h, alice.token, mp4);
      assert.deepEqual(await space(), { free: quota - mp4.length, max: quota, used: mp4.length, showing: 'lifetime', videos: 1 });
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 0 });
    });

    it('counts a pending version beside the file, then only the version once it replaces the file', async () => {
      const id = await uploadByTus(h, alice.token, mp4);
      await h.settle();
      const replacement = await makeClip({ width: 160, height: 120, seconds: 2 });
      const over = await h.call('POST', `/videos/${id}/versions`, { token: alice.token, json: { file_name: 'big.mp4', upload: { approach: 'tus', size: quota } } });
      expectError(over, 403, 4101, 'upload.size');
      const version = await h.call('POST', `/videos/${id}/versions`, { token: alice.token, json: { file_name: 'new.mp4', upload: { approach: 'tus', size: replacement.length } } });
      assert.equal(version.status, 201, version.text);
      await sendByTus(version.body.upload.upload_link, replacement);
      assert.equal((await space()).used, mp4.length + replacement.length);
      await h.settle();
      assert.equal((await space()).used, replacement.length);
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      assert.equal((await space()).used, 0);
    });

    it('refuses an upload whose declared size exceeds the free space with 403/4101, recording nothing', async () => {
      const id = await uploadByTus(h, alice.token, mp4);
      const free = quota - mp4.length;
      const r = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Too big', upload: { approach: 'tus', size: free + 1 } } });
      expectError(r, 403, 4101, 'upload.size');
      assert.deepEqual(await space(), { free, max: quota, used: mp4.length, showing: 'lifetime', videos: 1 });
      // Exactly the free space still fits.
      const fits = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Fits', upload: { approach: 'tus', size: free } } });
      assert.equal(fits.status, 200, fits.text);
      for (const v of [id, String(fits.body.uri).split('/').pop()]) assert.equal((await h.call('DELETE', `/videos/${v}`, { token: alice.token })).status, 204);
    });
  });
}
