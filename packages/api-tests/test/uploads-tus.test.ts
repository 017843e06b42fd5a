import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, until, type Fixture } from '../src/index';

/** Files left anywhere under the files directory (uploads in progress included). */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

/** A video's stored files, relative to its directory: the source at the top, its renditions below. */
const videoFiles = (filesDir: string, id: string): string[] => {
  const dir = join(filesDir, 'videos', id);
  return existsSync(dir) ? filesUnder(dir).map((f) => f.slice(dir.length + 1)).sort() : [];
};
const sources = (files: string[]) => files.filter((f) => !f.includes('/'));

/**
 * A tus PATCH that announces `length` bytes from offset 0, sends `part` of them, then drops the
 * connection once `arrived()` says the server has them (a client whose network went away mid-upload).
 */
function cutPatch(link: string, length: number, part: Uint8Array, arrived: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(link, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.flushHeaders();
    req.write(part, () => {
      until(arrived, 'the part to reach the server’s disk').then(() => req.destroy(), (e) => (reject(e), req.destroy()));
    });
  });
}

for (const driver of drivers) {
  describe(`tus uploads (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    /** A real 2 s 320x240 H.264/AAC clip (~57 KB); the cap leaves it room. */
    let mp4: Buffer;
    const cap = 128 * 1024;
    const tus = (method: string, link: string, headers: Record<string, string> = {}, body?: Uint8Array) =>
      fetch(link, { method, headers: { 'Tus-Resumable': '1.0.0', ...headers }, body });
    const patch = (link: string, offset: number, bytes: Uint8Array) =>
      tus('PATCH', link, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, bytes);
    const start = async (size: number) => {
      const r = await h.call('POST', '/me/videos?fields=uri,upload', { token: alice.token, json: { name: 'Tus', upload: { approach: 'tus', size } } });
      assert.equal(r.status, 200, r.text);
      return { id: String(r.body.uri).split('/').pop()!, link: String(r.body.upload.upload_link) };
    };
    before(async () => {
      mp4 = await makeClip({ width: 320, height: 240, seconds: 2 });
      h = await Harness.start(driver, { uploadMaxBytes: cap, uploadLinkTtlSeconds: 3600 });
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('uploads in two PATCHes resumed after a HEAD; the Clip is probed and queued, then available once transcoded', async () => {
      const { id, link } = await start(mp4.length);
      assert.match(link, new RegExp(`^${h.server.url}/uploads/tus/${id}-[0-9a-f]{48}$`));
      const head0 = await tus('HEAD', link);
      assert.equal(head0.status, 200);
      assert.equal(head0.headers.get('upload-offset'), '0');
      assert.equal(head0.headers.get('upload-length'), String(mp4.length));
      const half = 1000;
      const p1 = await patch(link, 0, mp4.subarray(0, half));
      assert.equal(p1.status, 204, await p1.text());
      assert.equal(p1.headers.get('upload-offset'), String(half));
      // The connection "drops"; the client asks where to resume.
      const head = await tus('HEAD', link);
      assert.equal(head.headers.get('upload-offset'), String(half));
      const mid = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.deepEqual([mid.body.status, mid.body.upload.status, mid.body.transcode.status], ['uploading', 'in_progress', 'in_progress']);
      const p2 = await patch(link, half, mp4.subarray(half));
      assert.equal(p2.status, 204, await p2.text());
      assert.equal(p2.headers.get('upload-offset'), String(mp4.length));
      const v = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.equal(v.status, 200, v.text);
      assert.deepEqual(
        [v.body.status, v.body.upload.status, v.body.transcode.status, v.body.duration, v.body.width, v.body.height, v.body.upload.size, v.body.upload.upload_link],
        ['transcode_starting', 'complete', 'in_progress', 2, 320, 240, mp4.length, null],
      );
      // The finished link is gone; only the finished file remains.
      assert.equal((await tus('HEAD', link)).status, 404);
      const onlyVideo = () =>
        assert.deepEqual(
          filesUnder(h.filesDir).map((f) => f.slice(h.filesDir.length)),
          filesUnder(join(h.filesDir, 'videos', id)).map((f) => f.slice(h.filesDir.length)),
        );
      onlyVideo();
      assert.equal(videoFiles(h.filesDir, id).length, 1);
      assert.equal(await h.settle(), 1);
      const done = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.deepEqual([done.body.status, done.body.transcode.status, done.body.upload.status], ['available', 'complete', 'complete']);
      // The source stays beside its renditions; nothing else is left anywhere.
      onlyVideo();
      assert.equal(sources(videoFiles(h.filesDir, id)).length, 1);
    });

    it('resumes after a PATCH whose connection is cut mid-body, from the offset the server kept', async () => {
      const { id, link } = await start(mp4.length);
      const sent = 3000;
      const partial = join(h.filesDir, '.tus', link.split('/').pop()!);
      await cutPatch(link, mp4.length, mp4.subarray(0, sent), () => existsSync(partial) && statSync(partial).size === sent);
      // The server settles the aborted request in the background; HEAD reports what it kept.
      let offset = -1;
      await until(async () => {
        const head = await tus('HEAD', link);
        if (head.status === 200) offset = Number(head.headers.get('upload-offset'));
        return offset > 0;
      }, 'HEAD to report the offset kept');
      assert.equal(offset, sent);
      assert.equal((await h.call('GET', `/videos/${id}`, { token: alice.token })).body.status, 'uploading');
      const rest = await patch(link, offset, mp4.subarray(offset));
      assert.equal(rest.status, 204, await rest.text());
      const v = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.deepEqual([v.body.status, v.body.duration, v.body.upload.size], ['transcode_starting', 2, mp4.length]);
      await h.settle();
      assert.deepEqual(Buffer.from(await (await fetch(`${h.server.url}/videos/${id}/file`)).arrayBuffer()), mp4);
    });

    it('answers 409 to a wrong offset without changing the upload', async () => {
      const { link } = await start(mp4.length);
      assert.equal((await patch(link, 0, mp4.subarray(0, 100))).status, 204);
      const wrong = await patch(link, 50, mp4.subarray(50, 150));
      assert.equal(wrong.status, 409);
      assert.equal((await tus('HEAD', link)).headers.get('upload-offset'), '100');
    });

    it('answers 404 to unknown links, including a guessed secret for a real video', async () => {
      const { id } = await start(mp4.length);
      for (const bad of [`${id}-${'0'.repeat(48)}`, 'nonsense', `999999-${'a'.repeat(48)}`]) {
        const r = await tus('HEAD', `${h.server.url}/uploads/tus/${bad}`);
        assert.equal(r.status, 404, bad);
        const p = await patch(`${h.server.url}/uploads/tus/${bad}`, 0, mp4.subarray(0, 10));
        assert.equal(p.status, 404, bad);
      }
    });

    it('refuses a declared size over the cap (413) and bytes beyond the declared size, announced or chunked (413, the Error representation), then takes the right bytes', async () => {
      const r = await h.call('POST', '/me/videos', { token: alice.token, json: { upload: { approach: 'tus', size: cap + 1 } } });
      expectError(r, 413, 2204, 'upload.size');
      const { id, link } = await start(mp4.length - 100);
      const over = await patch(link, 0, mp4);
      assert.equal(over.status, 413);
      assert.equal(over.headers.get('tus-resumable'), '1.0.0');
      assert.match(over.headers.get('content-type') ?? '', /^application\/vnd\.reelbase\.error\+json/);
      const error = (await over.json()) as { error_code: number; developer_message: string };
      assert.equal(error.error_code, 2204);
      assert.match(error.developer_message, new RegExp(`end at byte ${mp4.length}, past the upload's declared size of ${mp4.length - 100} bytes; nothing was written`));
      assert.equal((await tus('HEAD', link)).headers.get('upload-offset'), '0', 'the upload is as it was');
      // Chunked (no Content-Length): stopped once its bytes cross the size, with the same answer.
      const chunked = await fetch(link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: new Blob([mp4]).stream(),
        duplex: 'half',
      } as RequestInit);
      assert.equal(chunked.status, 413);
      assert.equal(chunked.headers.get('tus-resumable'), '1.0.0');
      assert.match(chunked.headers.get('content-type') ?? '', /^application\/vnd\.reelbase\.error\+json/);
      const past = (await chunked.json()) as { error_code: number; developer_message: string };
      assert.equal(past.error_code, 2204);
      assert.match(past.developer_message, new RegExp(`went past the upload's declared size of ${mp4.length - 100} bytes; those that fit were kept. Send the file's remaining bytes`));
      const kept = Number((await tus('HEAD', link)).headers.get('upload-offset'));
      assert.ok(kept < mp4.length - 100, `kept ${kept}`);
      // The client retries with bytes that fit: the upload completes, and the video leaves `uploading`.
      const fits = await patch(link, kept, mp4.subarray(kept, mp4.length - 100));
      assert.equal(fits.status, 204, await fits.text());
      assert.notEqual((await h.call('GET', `/videos/${id}?fields=status`, { token: alice.token })).body.status, 'uploading');
      await h.settle();
    });

    it('refuses an expired link (410) and leaves no partial file behind', async () => {
      const { id, link } = await start(mp4.length);
      assert.equal((await patch(link, 0, mp4.subarray(0, 100))).status, 204);
      h.clock.advance(3601);
      const r = await patch(link, 100, mp4.subarray(100));
      assert.equal(r.status, 410);
      assert.equal((await tus('HEAD', link)).status, 410);
      assert.ok(!filesUnder(h.filesDir).some((f) => f.includes(`${id}-`)), 'the partial upload was removed');
      const v = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.equal(v.body.status, 'uploading');
    });

    const uploadJunk = async () => {
      const junk = Buffer.from('this is not a video at all, just some text'.repeat(10));
      const { id, link } = await start(junk.length);
      assert.equal((await patch(link, 0, junk)).status, 204);
      return (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
    };

    it('a file that is not a video ends transcode_error, with nothing queued and no file kept', async () => {
      const v = await uploadJunk();
      assert.deepEqual([v.status, v.transcode.status], ['transcode_error', 'error']);
      assert.equal(await h.settle(), 0, 'no transcode was queued');
      assert.equal(filesUnder(join(h.filesDir, 'videos')).filter((f) => f.includes(`/${v.uri.split('/').pop()}/`)).length, 0);
    });

    it('a file that is not a video: every byte arrived, so upload.status is complete', async () => {
      const v = await uploadJunk();
      assert.deepEqual([v.status, v.upload.status, v.transcode.status], ['transcode_error', 'complete', 'error']);
    });

    it('a version replaces the file only once the new one is a video and transcoded; the old file plays until then', async () => {
      const { id, link } = await start(mp4.length);
      assert.equal((await patch(link, 0, mp4)).status, 204);
      await h.settle();
      const oldFiles = videoFiles(h.filesDir, id);
      const version = async (bytes: Uint8Array) => {
        const r = await h.call('POST', `/videos/${id}/versions`, { token: alice.token, json: { file_name: 'v.mp4', upload: { approach: 'tus', size: bytes.length } } });
        assert.equal(r.status, 201, r.text);
        return { uri: String(r.body.uri), link: String(r.body.upload.upload_link) };
      };
      const plays = async () => Buffer.from(await (await fetch(`${h.server.url}/videos/${id}/file`)).arrayBuffer());
      // A version that is not a video: the version fails, the video keeps its file.
      const junk = Buffer.from('not a video'.repeat(20));
      const bad = await version(junk);
      assert.equal((await patch(bad.link, 0, junk)).status, 204);
      assert.equal((await h.call('GET', bad.uri, { token: alice.token })).body.upload.status, 'error');
      assert.deepEqual(await plays(), mp4);
      // A good version: half uploaded, the old file still plays; complete, it still does while the
      // new one transcodes; transcoded, the new one plays.
      const next = await makeClip({ width: 426, height: 240, seconds: 1 });
      const good = await version(next);
      assert.equal((await patch(good.link, 0, next.subarray(0, 100))).status, 204);
      assert.deepEqual(await plays(), mp4);
      assert.equal((await h.call('GET', `/videos/${id}`, { token: alice.token })).body.status, 'available');
      assert.equal((await patch(good.link, 100, next.subarray(100))).status, 204);
      assert.deepEqual(await plays(), mp4);
      const during = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.deepEqual([during.body.status, during.body.transcode.status, during.body.width, during.body.files[0].size], ['available', 'in_progress', 320, mp4.length]);
      assert.equal(await h.settle(), 1);
      assert.deepEqual(await plays(), next);
      const v = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.deepEqual(
        [v.body.status, v.body.transcode.status, v.body.duration, v.body.width, v.body.height, v.body.files[0].rendition, v.body.files[0].size],
        ['available', 'complete', 1, 426, 240, 'source', next.length],
      );
      assert.equal((await h.call('GET', good.uri, { token: alice.token })).body.upload.status, 'complete');
      const now = videoFiles(h.filesDir, id);
      assert.equal(sources(now).length, 1);
      assert.deepEqual(now.filter((f) => oldFiles.includes(f)), [], 'the replaced file and its renditions were deleted');
    });

    it('shows the upload link only to the owner', async () => {
      const { id } = await start(10);
      const bob = await h.user('Bob');
      const r = await h.call('GET', `/videos/${id}`, { token: bob.token });
      assert.equal(r.body.upload.upload_link, null);
    });

    // Last: the refused upload's link stays open, and its give-up job would count in a later settle().
    it('replaces an upload refused for its size with a version of the file’s real size: the video leaves uploading and plays', async () => {
      const { id, link } = await start(mp4.length - 100);
      assert.equal((await patch(link, 0, mp4)).status, 413);
      const version = await h.call('POST', `/videos/${id}/versions`, { token: alice.token, json: { file_name: 'real.mp4', upload: { approach: 'tus', size: mp4.length } } });
      assert.equal(version.status, 201, version.text);
      assert.equal((await patch(version.body.upload.upload_link, 0, mp4)).status, 204);
      await h.settle();
      assert.equal((await h.call('GET', `/videos/${id}?fields=status`, { token: alice.token })).body.status, 'available');
    });
  });
}
