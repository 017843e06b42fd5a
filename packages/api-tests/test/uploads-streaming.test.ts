import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`streaming uploads: tickets, attempts and completion (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    /** A real 2 s 320x240 clip. */
    let mp4: Buffer;
    const start = async () => {
      const r = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'Streamed', upload: { approach: 'streaming', size: mp4.length } } });
      assert.equal(r.status, 201, r.text);
      const id = String(r.body.uri).split('/').pop()!;
      return { id, link: String(r.body.upload.upload_link) };
    };
    const put = (link: string, bytes: Uint8Array) => fetch(link, { method: 'PUT', body: bytes });
    before(async () => {
      mp4 = await makeClip({ width: 320, height: 240, seconds: 2 });
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('ticket, attempt (200; 204 before 3.3.11), PUT the bytes, DELETE completes: 201, queued, available once transcoded', async () => {
      const { id, link } = await start();
      const me = alice.user.id;
      assert.match(link, new RegExp(`^${h.server.url}/uploads/stream/${id}-[0-9a-f]{48}$`));
      const ticket = await h.call('GET', `/users/${me}/tickets/${id}`, { token: alice.token });
      assert.equal(ticket.status, 200, ticket.text);
      assert.equal(ticket.body.upload_link, link);
      const complete = String(ticket.body.complete_uri);
      assert.match(complete, new RegExp(`^/users/${me}/uploads/${id}\\?video_file_id=${id}&signature=[0-9a-f]{48}$`));
      const attempt = await h.call('GET', `/users/${me}/uploads/${id}`, { token: alice.token });
      assert.equal(attempt.status, 200, attempt.text);
      assert.equal(attempt.body.clip.uri, `/videos/${id}`);
      assert.equal(attempt.body.upload.complete_uri, complete);
      assert.equal((await h.call('GET', `/users/${me}/uploads/${id}`, { token: alice.token, version: '3.3.10' })).status, 204);
      expectError(await h.call('GET', `/users/${me}/uploads/${id}`, { token: bob.token }), 403, 3200);
      // Before the bytes: 5006.
      const query = new URLSearchParams(complete.split('?')[1]);
      const body = { signature: query.get('signature')!, video_file_id: query.get('video_file_id')! };
      expectError(await h.call('DELETE', `/users/${me}/uploads/${id}`, { token: alice.token, form: body }), 404, 5006);
      assert.equal((await put(link, mp4)).status, 200);
      expectError(await h.call('DELETE', `/users/${me}/uploads/${id}`, { token: alice.token, form: { video_file_id: id } }), 404, 5007);
      expectError(await h.call('DELETE', `/users/${me}/uploads/${id}`, { token: alice.token, form: { ...body, signature: 'f'.repeat(48) } }), 404, 8400);
      expectError(await h.call('DELETE', `/users/${me}/uploads/${id}`, { token: alice.token, form: { signature: body.signature } }), 404, 5006);
      const done = await h.call('DELETE', `/users/${me}/uploads/${id}`, { token: alice.token, form: body });
      assert.equal(done.status, 201, done.text);
      assert.deepEqual(
        [done.body.status, done.body.transcode.status, done.body.duration, done.body.width, done.body.height, done.body.upload.size],
        ['transcode_starting', 'in_progress', 2, 320, 240, mp4.length],
      );
      assert.equal(await h.settle(), 1);
      assert.equal((await h.call('GET', `/videos/${id}`, { token: alice.token })).body.status, 'available');
      const bytes = await fetch(`${h.server.url}/videos/${id}/file`, { headers: { range: 'bytes=4-11' } });
      assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), mp4.subarray(4, 12));
      // Finished: the ticket and the link are gone.
      expectError(await h.call('GET', `/users/${me}/tickets/${id}`, { token: alice.token }), 404, 5011);
      assert.equal((await put(link, mp4)).status, 404);
    });

    it('a file that is not a video: 400/2502, and the client may send the bytes again', async () => {
      const { id, link } = await start();
      const me = alice.user.id;
      const ticket = await h.call('GET', `/users/${me}/tickets/${id}`, { token: alice.token });
      const query = new URLSearchParams(String(ticket.body.complete_uri).split('?')[1]);
      const body = { signature: query.get('signature')!, video_file_id: query.get('video_file_id')! };
      assert.equal((await put(link, Buffer.from('plain text, no video'))).status, 200);
      const refused = await h.call('DELETE', `/users/${me}/uploads/${id}`, { token: alice.token, form: body });
      expectError(refused, 400, 2502);
      assert.match(refused.body.developer_message, /not a video/, 'ffprobe’s reason');
      assert.equal(await h.settle(), 0, 'nothing was queued');
      assert.equal((await put(link, mp4)).status, 200);
      const done = await h.call('DELETE', `/users/${me}/uploads/${id}`, { token: alice.token, form: body });
      assert.equal(done.status, 201, done.text);
      assert.equal(done.body.status, 'transcode_starting');
    });
  });
}
