import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, type Answer, type Fixture } from '../src/index';

const files = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

for (const driver of drivers) {
  describe(`post uploads: an HTML form and a multipart POST (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    /** A real 1 s 320x240 clip (~32 KB), well under the cap. */
    let mp4: Buffer;
    const cap = 96 * 1024;
    const form = (bytes: Uint8Array, name = 'file_data') => {
      const body = new FormData();
      body.append('note', 'hi');
      body.append(name, new Blob([bytes], { type: 'video/mp4' }), 'clip.mp4');
      return body;
    };
    const start = async (json: Record<string, unknown> = {}) => {
      const r = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Posted', upload: { approach: 'post', ...json } } });
      assert.equal(r.status, 201, r.text);
      return r;
    };
    before(async () => {
      mp4 = await makeClip({ width: 320, height: 240, seconds: 1 });
      h = await Harness.start(driver, { uploadMaxBytes: cap });
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('answers a form posting to the upload link, then redirects to upload.redirect_url', async () => {
      const r: Answer = await start({ redirect_url: 'https://example.com/done?x=1' });
      const link = r.body.upload.upload_link as string;
      const id = String(r.body.uri).split('/').pop();
      assert.match(link, new RegExp(`^${h.server.url}/uploads/post/${id}-[0-9a-f]{48}$`));
      assert.match(r.body.upload.form, new RegExp(`<form method="POST" action="${link}" enctype="multipart/form-data">`));
      assert.match(r.body.upload.form, /<input type="file" name="file_data"/);
      const sent = await fetch(link, { method: 'POST', body: form(mp4), redirect: 'manual' });
      assert.equal(sent.status, 302);
      assert.equal(sent.headers.get('location'), `https://example.com/done?x=1&video_uri=%2Fvideos%2F${id}`);
      const v = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.deepEqual(
        [v.body.status, v.body.transcode.status, v.body.duration, v.body.width, v.body.height, v.body.upload.size, v.body.upload.upload_link, v.body.upload.form],
        ['transcode_starting', 'in_progress', 1, 320, 240, mp4.length, null, null],
      );
      assert.equal(await h.settle(), 1);
      assert.equal((await h.call('GET', `/videos/${id}`, { token: alice.token })).body.status, 'available');
      // Used once: the link is gone.
      expectError(await h.call('POST', link.slice(h.server.url.length), { raw: 'x' }), 404, 5011);
    });

    it('without a redirect_url answers 200 with the video, queued for transcoding', async () => {
      const r = await start();
      const sent = await fetch(r.body.upload.upload_link, { method: 'POST', body: form(mp4) });
      assert.equal(sent.status, 200);
      assert.deepEqual(await sent.json(), { uri: r.body.uri, status: 'transcode_starting' });
      assert.equal(await h.settle(), 1);
    });

    it('refuses a file over the cap (413), no file (400) and unknown links (404), leaving no files', async () => {
      const before = files(h.filesDir);
      const r = await start();
      const big = await fetch(r.body.upload.upload_link, { method: 'POST', body: form(Buffer.concat([mp4, Buffer.alloc(cap)])) });
      assert.equal(big.status, 413);
      const none = await fetch(r.body.upload.upload_link, { method: 'POST', body: (() => { const f = new FormData(); f.append('a', 'b'); return f; })() });
      assert.equal(none.status, 400);
      const unknown = await fetch(`${h.server.url}/uploads/post/1-${'0'.repeat(48)}`, { method: 'POST', body: form(mp4) });
      assert.equal(unknown.status, 404);
      // A link is for its own approach only: a tus or streaming link takes no form post.
      for (const approach of ['tus', 'streaming']) {
        const other = await h.call('POST', '/me/videos', { token: alice.token, json: { upload: { approach, size: mp4.length } } });
        const secret = String(other.body.upload.upload_link).split('/').pop();
        const posted = await fetch(`${h.server.url}/uploads/post/${secret}`, { method: 'POST', body: form(mp4) });
        assert.equal(posted.status, 404, approach);
        assert.equal((await h.call('GET', other.body.uri, { token: alice.token })).body.status, 'uploading');
      }
      assert.equal(files(h.filesDir), before);
      assert.equal((await h.call('GET', r.body.uri, { token: alice.token })).body.status, 'uploading');
    });
  });
}
