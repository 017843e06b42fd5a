import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTusVideo, drivers, Harness, makeClip, type Fixture } from '../src/index';
import { holdPatch, sizeOf, until } from '../src/held-patch';

/** Every file under a directory, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();

/**
 * The cap on uploads moving bytes at once (ServiceConfig.maxConcurrentUploads), here 1: while one
 * tus PATCH is mid-transfer, a tus PATCH, a post form and a streaming PUT are refused with
 * 503/9000 and Retry-After before a byte is stored; a pull waits for the slot instead.
 */
for (const driver of drivers) {
  describe(`a cap on concurrent uploads (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let origin: Server;
    let base: string;
    /** For each fetch of the pull's link: was the held upload still in progress? */
    const fetchedWhileHeld: boolean[] = [];
    let heldFile = '';
    /** A real 2 s 320x240 clip (~57 KB): room to be caught mid-transfer. */
    let mp4: Buffer;
    const create = async (upload: Record<string, unknown>) => {
      const r = await h.call('POST', '/me/videos?fields=uri,upload', { token: alice.token, json: { name: 'Capped', upload } });
      assert.equal(r.status, 201, r.text);
      return { uri: String(r.body.uri), link: String(r.body.upload.upload_link) };
    };
    const expectBusy = async (answer: Response) => {
      const body = (await answer.json()) as { error_code: number; developer_message: string };
      assert.equal(answer.status, 503, JSON.stringify(body));
      assert.equal(answer.headers.get('retry-after'), '10');
      assert.equal(body.error_code, 9000);
      assert.match(body.developer_message, /at most 1 uploads at once; nothing of this request was kept/);
    };
    const statusOf = async (uri: string) => (await h.call('GET', `${uri}?fields=status`, { token: alice.token })).body.status;

    before(async () => {
      mp4 = await makeClip({ width: 320, height: 240, seconds: 2 });
      origin = createServer((_req, res) => {
        fetchedWhileHeld.push(existsSync(heldFile));
        res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4);
      });
      await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
      h = await Harness.start(driver, { maxConcurrentUploads: 1, uploadMaxBytes: 256 * 1024, pullAllowPrivate: true });
      alice = await h.user('Alice');
    });
    after(async () => {
      await h.stop();
      await new Promise((resolve) => origin.close(resolve));
    });

    it('refuses uploads beyond the cap with 503 and Retry-After, keeps nothing of them, and queues a pull', async () => {
      const held = await createTusVideo(h, alice.token, mp4.length);
      heldFile = join(h.filesDir, '.tus', held.link.split('/').pop()!);
      const patch = holdPatch(held.link, mp4, 4096);
      await until(async () => (await sizeOf(heldFile)) >= 4096, 'the first upload to be mid-transfer');
      const before = filesUnder(h.filesDir);

      const tus = await createTusVideo(h, alice.token, mp4.length);
      await expectBusy(await fetch(tus.link, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: mp4 }));
      const post = await create({ approach: 'post' });
      const form = new FormData();
      form.append('file_data', new Blob([mp4], { type: 'video/mp4' }), 'clip.mp4');
      await expectBusy(await fetch(post.link, { method: 'POST', body: form }));
      const streaming = await create({ approach: 'streaming', size: mp4.length });
      await expectBusy(await fetch(streaming.link, { method: 'PUT', body: mp4 }));
      const pulled = await create({ approach: 'pull', link: `${base}/clip.mp4` });

      assert.deepEqual(filesUnder(h.filesDir), before, 'the refused uploads left no file');
      const waiting = [`/videos/${tus.id}`, post.uri, streaming.uri, pulled.uri];
      assert.deepEqual(await Promise.all(waiting.map(statusOf)), ['uploading', 'uploading', 'uploading', 'uploading']);

      assert.equal(await patch.finish(), 204);
      assert.equal(await statusOf(`/videos/${held.id}`), 'transcode_starting');
      // The queued pull takes the freed slot; only then does it fetch its link.
      await until(async () => (await statusOf(pulled.uri)) !== 'uploading', 'the queued pull to finish');
      assert.equal(await statusOf(pulled.uri), 'transcode_starting');
      assert.deepEqual(fetchedWhileHeld, [false], 'the pull fetched its link once, after the held upload finished');

      // With the slot free again, the refused tus upload goes through from offset 0.
      const retried = await fetch(tus.link, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: mp4 });
      assert.equal(retried.status, 204, await retried.text());
      assert.equal(await statusOf(`/videos/${tus.id}`), 'transcode_starting');
      // The cap is on moving bytes, not on transcodes: the three finished uploads are all queued.
      assert.equal(await h.settle(), 3);
      assert.deepEqual(await Promise.all([`/videos/${held.id}`, pulled.uri, `/videos/${tus.id}`].map(statusOf)), ['available', 'available', 'available']);
    });

    it('frees the slot when a client drops its upload mid-transfer', async () => {
      const dropped = await createTusVideo(h, alice.token, mp4.length);
      const patch = holdPatch(dropped.link, mp4, 2048);
      await until(async () => (await sizeOf(join(h.filesDir, '.tus', dropped.link.split('/').pop()!))) >= 2048, 'the upload to be mid-transfer');
      patch.abort();
      await patch.closed;
      const next = await createTusVideo(h, alice.token, mp4.length);
      await until(async () => {
        const r = await fetch(next.link, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: mp4 });
        await r.arrayBuffer();
        return r.status === 204;
      }, 'the dropped upload’s slot to be free');
      assert.equal(await statusOf(`/videos/${next.id}`), 'transcode_starting');
    });
  });
}
