import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/videos/{video_id}/versions (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let video: string;
    const post = (json: unknown, o: { token?: string; version?: string; id?: string } = {}) =>
      h.call('POST', `/videos/${o.id ?? video}/versions`, { token: o.token ?? alice.token, json, version: o.version });
    const stored = () => h.service.store.count('video_versions');
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      video = await h.video(alice, { name: 'Original' });
    });
    after(() => h.stop());

    it('POST starts a tus version: 201 with an Upload Attempt', async () => {
      const r = await post({ file_name: 'cut-2.mp4', upload: { approach: 'tus', size: 1234 } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.uploadattempt+json;version=3.4');
      assert.match(r.body.uri, new RegExp(`^/videos/${video}/versions/\\d+$`));
      assert.equal(r.body.file_name, 'cut-2.mp4');
      assert.equal(r.body.created_time, '2026-01-02T03:04:05+00:00');
      const { upload_link, ...upload } = r.body.upload;
      assert.match(upload_link, new RegExp(`^${h.server.url}/uploads/tus/${video}\\.\\d+-[0-9a-f]{48}$`));
      assert.deepEqual(upload, { status: 'in_progress', approach: 'tus', size: 1234, link: null, redirect_url: null, form: null });
      assert.equal(r.body.clip.uri, `/videos/${video}`);
      assert.equal(r.body.clip.name, 'Original');
      assert.deepEqual(r.body.clip.metadata.connections.versions, { uri: `/videos/${video}/versions`, options: ['POST'], total: 2 });
      assert.equal(typeof r.body.resource_key, 'string');
      const again = await h.call('GET', r.body.uri, { token: alice.token });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.headers.get('content-type'), 'application/vnd.reelbase.uploadattempt+json;version=3.4');
      assert.deepEqual(again.body, r.body);
    });

    it('takes every approach from 3.4; a pull needs upload.link; the size may be a string', async () => {
      for (const approach of ['post', 'streaming']) {
        const r = await post({ file_name: 'a.mov', upload: { approach } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.upload.approach, approach);
        assert.equal(r.body.upload.size, null);
      }
      const pull = await post({ file_name: 'b.mov', upload: { approach: 'pull', link: 'https://files.example.com/b.mov', size: '2048' } });
      assert.equal(pull.status, 201, pull.text);
      assert.equal(pull.body.upload.link, 'https://files.example.com/b.mov');
      assert.equal(pull.body.upload.size, 2048);
      const form = await h.call('POST', `/videos/${video}/versions`, {
        token: alice.token,
        form: { file_name: 'c.mov', 'upload.approach': 'tus', 'upload.size': '99' },
      });
      assert.equal(form.status, 201, form.text);
      assert.equal(form.body.upload.size, 99);
    });

    it('answers 400/2204 naming the field for invalid upload or versions data, storing nothing', async () => {
      const before = await stored();
      const cases: [unknown, string][] = [
        [{ upload: { approach: 'tus' } }, 'file_name'],
        [{ file_name: '', upload: { approach: 'tus' } }, 'file_name'],
        [{ file_name: '   ', upload: { approach: 'tus' } }, 'file_name'],
        [{ file_name: 7, upload: { approach: 'tus' } }, 'file_name'],
        [{ file_name: 'a.mp4' }, 'upload'],
        [{ file_name: 'a.mp4', upload: {} }, 'upload.approach'],
        [{ file_name: 'a.mp4', upload: { approach: 'ftp' } }, 'upload.approach'],
        [{ file_name: 'a.mp4', upload: { approach: 'pull' } }, 'upload.link'],
        [{ file_name: 'a.mp4', upload: { approach: 'pull', link: 'ftp://x' } }, 'upload.link'],
        [{ file_name: 'a.mp4', upload: { approach: 'tus', size: 0 } }, 'upload.size'],
        [{ file_name: 'a.mp4', upload: { approach: 'tus', size: -5 } }, 'upload.size'],
        [{ file_name: 'a.mp4', upload: { approach: 'tus', size: '12kb' } }, 'upload.size'],
        [{ file_name: 'a.mp4', upload: { approach: 'tus', size: 1.5 } }, 'upload.size'],
      ];
      for (const [json, field] of cases) expectError(await post(json), 400, 2204, field);
      assert.equal(await stored(), before);
    });

    it('answers 404/5013 below 3.4 unless the approach is tus', async () => {
      const before = await stored();
      for (const version of ['3.3', '3.2']) {
        expectError(await post({ file_name: 'a.mp4', upload: { approach: 'post' } }, { version }), 404, 5013);
        expectError(await post({ file_name: 'a.mp4', upload: { approach: 'pull', link: 'https://x.example/a' } }, { version }), 404, 5013);
      }
      assert.equal(await stored(), before);
      const tus = await post({ file_name: 'a.mp4', upload: { approach: 'tus', size: 1 } }, { version: '3.3' });
      assert.equal(tus.status, 201, tus.text);
      assert.equal(tus.headers.get('content-type'), 'application/vnd.reelbase.uploadattempt+json;version=3.3');
    });

    it('answers 404/5012 for a missing or hidden video and 403/3427 to anyone but the owner', async () => {
      const before = await stored();
      const body = { file_name: 'a.mp4', upload: { approach: 'tus' } };
      expectError(await post(body, { id: '999999' }), 404, 5012);
      expectError(await post(body, { id: 'abc' }), 404, 5012);
      const hidden = await h.video(alice, { privacy: { view: 'nobody' } });
      expectError(await post(body, { id: hidden, token: bob.token }), 404, 5012);
      expectError(await post(body, { token: bob.token }), 403, 3427);
      expectError(await h.call('POST', `/videos/${video}/versions`, { json: body }), 401, 8003);
      const noUpload = await h.user('No upload', 'public,private,edit,delete,interact');
      expectError(await post(body, { token: noUpload.token }), 403, 3200);
      assert.equal(await stored(), before);
    });

    it('GET of a version: 404/5011 when the upload is not found, 5012 and 3427 as for POST', async () => {
      const mine = await post({ file_name: 'a.mp4', upload: { approach: 'tus' } });
      const other = await h.video(alice);
      expectError(await h.call('GET', `/videos/${video}/versions/999999`, { token: alice.token }), 404, 5011);
      expectError(await h.call('GET', `/videos/${video}/versions/abc`, { token: alice.token }), 404, 5011);
      expectError(await h.call('GET', mine.body.uri.replace(`/videos/${video}/`, `/videos/${other}/`), { token: alice.token }), 404, 5011);
      expectError(await h.call('GET', `/videos/999999/versions/1`, { token: alice.token }), 404, 5012);
      expectError(await h.call('GET', mine.body.uri, { token: bob.token }), 403, 3427);
      expectError(await h.call('GET', mine.body.uri), 401, 8003);
    });

    it('leaves the video as it was', async () => {
      const r = await h.call('GET', `/videos/${video}`, { token: alice.token });
      assert.equal(r.body.name, 'Original');
      assert.equal(r.body.modified_time, '2026-01-02T03:04:05+00:00');
    });
  });
}
