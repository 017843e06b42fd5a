import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, filesUnder, Harness, makeClip, until, type Answer, type Fixture } from '../src/index';
import { sendByTus, uploadByTus } from '../src/media';
import { recountUploadQuota, type UserRecord } from '@reelbase/core';

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

    const idOf = (r: Answer) => String(r.body.uri).split('/').pop()!;
    const remove = async (id: string) => assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
    const tusOf = (size: number, name = 'Held') => h.call('POST', '/me/videos', { token: alice.token, json: { name, upload: { approach: 'tus', size } } });

    it('holds an upload in progress\'s declared size until its video goes; concurrent uploads never together pass max', async () => {
      const held = await tusOf(quota - 10);
      assert.equal(held.status, 200, held.text);
      assert.deepEqual(await space(), { free: 10, max: quota, used: 0, showing: 'lifetime', videos: 1 });
      expectError(await tusOf(11), 403, 4101, 'upload.size');
      await remove(idOf(held));
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 0 });
      const racing = await Promise.all([1, 2, 3].map((n) => tusOf(Math.floor(quota / 2) + 1, `Race ${n}`)));
      const won = racing.filter((r) => r.status === 200);
      assert.equal(won.length, 1, racing.map((r) => r.status).join(','));
      for (const r of racing.filter((r) => r.status !== 200)) expectError(r, 403, 4101, 'upload.size');
      await remove(idOf(won[0]));
      assert.equal((await space()).free, quota);
    });

    it('holds nothing for a video made without an upload approach, whatever size it declares (it has no link to upload by)', async () => {
      const r = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'No upload', upload: { size: quota } } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.upload.link, null);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 1 });
      await remove(idOf(r));
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 0 });
    });

    it('checks an upload that declared no size when it completes: over the free space, 403/4101 and nothing kept; the link takes it once there is room', async () => {
      const held = await tusOf(quota - mp4.length + 1);
      const posted = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Sizeless', upload: { approach: 'post' } } });
      assert.equal(posted.status, 201, posted.text);
      const send = () => {
        const body = new FormData();
        body.append('file_data', new Blob([mp4], { type: 'video/mp4' }), 'clip.mp4');
        return fetch(posted.body.upload.upload_link, { method: 'POST', body });
      };
      const refused = await send();
      const answer = { status: refused.status, headers: refused.headers, text: await refused.text() } as Answer;
      answer.body = JSON.parse(answer.text);
      expectError(answer, 403, 4101);
      assert.equal((await space()).used, 0);
      assert.deepEqual(filesUnder(h.filesDir).filter((f) => f.startsWith(`videos/${idOf(posted)}/`)), [], 'the file was not kept');
      assert.equal((await h.call('GET', posted.body.uri, { token: alice.token })).body.status, 'uploading');
      await remove(idOf(held));
      assert.equal((await send()).status, 200);
      assert.equal((await space()).used, mp4.length);
      await remove(idOf(posted));
    });

    it('lets go of what a pull held once it fails', async () => {
      // A loopback link: refused, as pulls from private addresses are unless configured.
      const pulled = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Pulled', upload: { approach: 'pull', link: `${h.server.url}/clip.mp4`, size: quota } } });
      assert.equal(pulled.status, 201, pulled.text);
      // The pull runs in the background once the answer is committed.
      let upload = pulled.body.upload;
      await until(async () => (upload = (await h.call('GET', pulled.body.uri, { token: alice.token })).body.upload).status !== 'in_progress', 'the pull to fail');
      assert.equal(upload.status, 'error');
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 1 });
      await remove(idOf(pulled));
    });

    it('recountUploadQuota sets the counters from the records: a file counted nowhere and an upload in progress', async () => {
      const id = await uploadByTus(h, alice.token, mp4);
      const held = await tusOf(100);
      await h.service.store.update<UserRecord>('users', alice.user.id, { upload_bytes: 0, upload_reserved: 0 });
      assert.equal((await space()).used, 0, 'as a store from before the counters');
      assert.equal(await recountUploadQuota(h.service.store, undefined, h.clock.now()), 1);
      assert.deepEqual(await space(), { free: quota - mp4.length - 100, max: quota, used: mp4.length, showing: 'lifetime', videos: 2 });
      assert.equal(await recountUploadQuota(h.service.store, undefined, h.clock.now()), 0, 'a second run changes nothing');
      for (const v of [id, idOf(held)]) await remove(v);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 0 });
    });

    it('checks a streaming upload that declared no size when it is completed: 403/4101, its staged bytes removed', async () => {
      const held = await tusOf(quota - mp4.length + 1);
      const streamed = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Streamed', upload: { approach: 'streaming' } } });
      assert.equal(streamed.status, 201, streamed.text);
      const id = idOf(streamed);
      assert.equal((await fetch(streamed.body.upload.upload_link, { method: 'PUT', body: mp4 })).status, 200);
      const ticket = (await h.call('GET', `/users/${alice.user.id}/tickets/${id}`, { token: alice.token })).body;
      const query = new URLSearchParams(String(ticket.complete_uri).split('?')[1]);
      const complete = () => h.call('DELETE', `/users/${alice.user.id}/uploads/${id}`, { token: alice.token, form: { signature: query.get('signature')!, video_file_id: id } });
      expectError(await complete(), 403, 4101);
      assert.equal((await space()).used, 0);
      assert.deepEqual(filesUnder(h.filesDir).filter((f) => f.startsWith('staging/') || f.startsWith(`videos/${id}/`)), [], 'the staged bytes were removed');
      await remove(idOf(held));
      await remove(id);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime', videos: 0 });
    });
  });
}
