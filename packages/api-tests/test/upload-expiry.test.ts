import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq, recountUploadQuota, type JobRecord } from '@reelbase/core';
import { drivers, filesUnder, Harness, makeClip, type Fixture } from '../src/index';
import { holdPatch, sizeOf, until } from '../src/held-patch';
import { createTusVideo, sendByTus } from '../src/media';

/** Seconds the tests' upload links live. */
const ttl = 3600;

/**
 * An upload whose link expired unfinished is given up by a job due an hour after: its space comes
 * back, its record shows the failure, and the partial file the filesystem store's tus directory
 * kept for it goes (a client that never returns otherwise leaves it there for good).
 */
for (const driver of drivers) {
  describe(`expired uploads are given up (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let mp4: Buffer;
    let quota: number;
    const tusFiles = () => filesUnder(join(h.filesDir, '.tus')).sort();
    const space = async () => {
      const r = await h.call('GET', '/me?fields=upload_quota.space', { token: alice.token });
      assert.equal(r.status, 200, r.text);
      return r.body.upload_quota.space as { free: number; used: number; max: number; showing: string };
    };
    const video = async (id: string) => {
      const r = await h.call('GET', `/videos/${id}?fields=status,upload.status,upload.upload_link`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const giveUpJobs = async (id: string) =>
      (await h.service.store.find<JobRecord>('jobs', { where: eq('subject', id) })).items.filter((j) => j.kind === 'uploads.abort').map((j) => j.state);
    const tus = (method: string, link: string) => fetch(link, { method, headers: { 'Tus-Resumable': '1.0.0' } });
    /** Moves the clock to just after the upload created now is given up: its link's life, then the hour's margin. */
    const pastAbandonment = () => h.clock.advance(ttl + 3600 + 1);
    /** A tus upload whose one PATCH is held mid-transfer, with the clock past the upload's give-up. */
    const heldPastAbandonment = async () => {
      const { id, link } = await createTusVideo(h, alice.token, mp4.length);
      const patch = holdPatch(link, mp4, 4096);
      await until(async () => (await sizeOf(join(h.filesDir, '.tus', link.split('/').pop()!))) >= 4096, 'the PATCH to be mid-transfer');
      pastAbandonment();
      return { id, patch };
    };

    before(async () => {
      mp4 = await makeClip({ width: 160, height: 120, seconds: 1 });
      quota = mp4.length * 4;
      h = await Harness.start(driver, { uploadQuotaBytes: quota, uploadLinkTtlSeconds: ttl });
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('lets go of the space, marks the upload failed and removes its tus file and .json, an hour after the link expired', async () => {
      const { id, link } = await createTusVideo(h, alice.token, mp4.length);
      const upload = link.split('/').pop()!;
      const sent = await fetch(link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: mp4.subarray(0, 1000),
      });
      assert.equal(sent.status, 204, await sent.text());
      assert.deepEqual(tusFiles(), [upload, `${upload}.json`]);
      assert.equal((await space()).free, quota - mp4.length);
      assert.equal(await h.settle(), 0, 'nothing is due while the link works');
      h.clock.advance(ttl + 3600 - 1);
      assert.equal(await h.settle(), 0, 'nor in the hour after it expired: a PATCH begun before may still be completing');
      h.clock.advance(2);
      assert.equal(await h.settle(), 1);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' });
      assert.deepEqual(await video(id), { status: 'uploading_error', upload: { status: 'error', upload_link: null } });
      assert.deepEqual(tusFiles(), [], 'the partial file and its .json are gone');
      assert.deepEqual(await giveUpJobs(id), ['done']);
      // The link answers as any ended upload's: 404/5011.
      assert.equal((await tus('HEAD', link)).status, 404);
      assert.equal(await h.settle(), 0, 'and nothing is left to do');
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' }, 'let go of once');
    });

    it('removes the tus file of an upload whose client never sent a byte after its first request', async () => {
      const { link } = await createTusVideo(h, alice.token, mp4.length);
      assert.equal((await tus('HEAD', link)).status, 200);
      assert.equal(tusFiles().length, 2);
      pastAbandonment();
      assert.equal(await h.settle(), 1);
      assert.deepEqual(tusFiles(), []);
      assert.equal((await space()).free, quota);
    });

    it('gives up a new version unfinished without touching its video, which keeps playing', async () => {
      const { id, link } = await createTusVideo(h, alice.token, mp4.length);
      await sendByTus(link, mp4);
      assert.equal(await h.settle(), 1, 'the transcode');
      const version = await h.call('POST', `/videos/${id}/versions`, { token: alice.token, json: { file_name: 'new.mp4', upload: { approach: 'tus', size: mp4.length } } });
      assert.equal(version.status, 201, version.text);
      const versionUri = String(version.body.uri);
      assert.equal((await tus('HEAD', version.body.upload.upload_link)).status, 200);
      assert.deepEqual(await space(), { free: quota - 2 * mp4.length, max: quota, used: mp4.length, showing: 'lifetime' });
      pastAbandonment();
      assert.equal(await h.settle(), 2, "the version's give-up, and the video's upload's job, which finds it complete");
      assert.deepEqual(await space(), { free: quota - mp4.length, max: quota, used: mp4.length, showing: 'lifetime' });
      assert.equal((await h.call('GET', versionUri, { token: alice.token })).body.upload.status, 'error');
      assert.deepEqual(await video(id), { status: 'available', upload: { status: 'complete', upload_link: null } });
      assert.deepEqual(tusFiles(), []);
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' }, 'the video lets go of its file only');
    });

    it('leaves alone an upload whose last PATCH, begun before the link expired, completes after it: its file is counted once', async () => {
      const { id, patch } = await heldPastAbandonment();
      assert.equal(await patch.finish(), 204);
      assert.equal(await h.settle(), 2, 'the transcode, and the give-up job, which finds the upload complete');
      assert.deepEqual(await video(id), { status: 'available', upload: { status: 'complete', upload_link: null } });
      assert.deepEqual(await space(), { free: quota - mp4.length, max: quota, used: mp4.length, showing: 'lifetime' });
      assert.deepEqual(await giveUpJobs(id), ['done']);
      assert.equal(filesUnder(join(h.filesDir, 'videos', id)).filter((f) => !f.includes('/')).length, 1, 'the file is kept');
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' });
    });

    it('gives up a streaming upload whose bytes were sent but never completed, and removes the staged bytes', async () => {
      const streamed = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Streamed', upload: { approach: 'streaming', size: mp4.length } } });
      assert.equal(streamed.status, 201, streamed.text);
      const id = String(streamed.body.uri).split('/').pop()!;
      assert.equal((await fetch(streamed.body.upload.upload_link, { method: 'PUT', body: mp4 })).status, 200);
      assert.equal(filesUnder(h.filesDir).filter((f) => f.startsWith('staging/')).length, 1);
      pastAbandonment();
      assert.equal(await h.settle(), 1);
      assert.deepEqual(await video(id), { status: 'uploading_error', upload: { status: 'error', upload_link: null } });
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' });
      assert.deepEqual(filesUnder(h.filesDir).filter((f) => f.startsWith('staging/')), [], 'the staged bytes are gone');
    });

    it('refuses the last bytes of an upload given up while they were on their way: 404/5011, nothing kept, the space let go of once', async () => {
      const { id, patch } = await heldPastAbandonment();
      assert.equal(await h.settle(), 1);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' });
      assert.equal(await patch.finish(), 404);
      assert.deepEqual(await video(id), { status: 'uploading_error', upload: { status: 'error', upload_link: null } });
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' });
      assert.deepEqual(filesUnder(h.filesDir).filter((f) => f.startsWith(`videos/${id}/`) || f.startsWith('.tus/')), []);
      assert.equal(await h.settle(), 0);
    });

    it('recountUploadQuota gives up an upload expired unfinished before these jobs were queued, and its bytes go by one it queues', async () => {
      const { id, link } = await createTusVideo(h, alice.token, mp4.length);
      const sent = await fetch(link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: mp4.subarray(0, 1000),
      });
      assert.equal(sent.status, 204);
      // As a store from before: nothing will give the upload up.
      await h.service.store.deleteWhere('jobs', eq('subject', id));
      pastAbandonment();
      assert.equal(await h.settle(), 0);
      assert.equal((await space()).free, quota - mp4.length, 'held still');
      assert.equal(await recountUploadQuota(h.service.store, undefined, h.clock.now()), 1);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' });
      assert.deepEqual(await video(id), { status: 'uploading_error', upload: { status: 'error', upload_link: null } });
      assert.equal(tusFiles().length, 2);
      assert.equal(await h.settle(), 1);
      assert.deepEqual(tusFiles(), []);
      assert.equal(await recountUploadQuota(h.service.store, undefined, h.clock.now()), 0, 'a second run changes nothing');
      assert.equal(await h.settle(), 0);
    });

    it('removes the tus file of a deleted video at once', async () => {
      const { id, link } = await createTusVideo(h, alice.token, mp4.length);
      assert.equal((await tus('HEAD', link)).status, 200);
      assert.equal(tusFiles().length, 2);
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      assert.equal(await h.settle(), 1);
      assert.deepEqual(tusFiles(), []);
      assert.deepEqual(await space(), { free: quota, max: quota, used: 0, showing: 'lifetime' });
    });
  });
}
