import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, fetchBytes, filesUnder, Harness, makeImage, type Fixture, putFile } from '../src/index';

type Track = { uri: string; link: string; hls_link: string; link_expires_time: string; hls_link_expires_time: string; active: boolean };

const srt = '\uFEFF1\r\n00:00:00,500 --> 00:00:02,250\r\nHello there\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n<i>Second</i> line\r\nand more\r\n';
const srtAsVtt = 'WEBVTT\n\n00:00:00.500 --> 00:00:02.250\nHello there\n\n00:00:03.000 --> 00:00:04.000\n<i>Second</i> line\nand more\n';
const vtt = 'WEBVTT\n\n00:01.000 --> 00:02.000\nBonjour\n';

const put = (link: string, body: Uint8Array | string, token?: string) => putFile(link, body, token, 'text/plain');

for (const driver of drivers) {
  describe(`text-track files (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let video: string;
    const create = async (json: Record<string, unknown> = { type: 'captions', language: 'en', name: 'English' }): Promise<Track> => {
      const r = await h.call('POST', `${video}/texttracks`, { token: alice.token, json });
      assert.equal(r.status, 201, r.text);
      return r.body as Track;
    };
    const read = async (t: Track): Promise<Track> => (await h.call('GET', t.uri, { token: alice.token })).body as Track;
    const trackFiles = (t: Track) => filesUnder(h.filesDir).filter((f) => f.includes(`/texttracks/${t.uri.split('/').pop()}/`));
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      video = `/videos/${await h.video(alice)}`;
      await h.service.store.update('videos', video.split('/').pop()!, { duration: 12 });
    });
    after(() => h.stop());

    it('SRT PUT to `link` (bearer token) is served as WebVTT with its cues and timings; activate; hls_link plays it', async () => {
      const t = await create();
      const r = await put(t.link, srt, alice.token);
      assert.equal(r.status, 200, await r.text());
      const active = await h.call('PATCH', t.uri, { token: alice.token, json: { active: true } });
      assert.equal(active.status, 200, active.text);
      const shown = await read(t);
      assert.equal(shown.active, true);
      assert.notEqual(shown.link, t.link, 'a new file, a new link');
      assert.match(shown.link, /\/v1-\d+-[0-9a-f]{32}\.vtt$/);
      const file = await fetchBytes(shown.link);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'text/vtt; charset=utf-8');
      assert.equal(file.bytes.toString('utf8'), srtAsVtt);
      const playlist = await fetchBytes(shown.hls_link);
      assert.equal(playlist.status, 200);
      assert.equal(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl');
      const lines = playlist.bytes.toString('utf8').split('\n');
      assert.deepEqual(lines.slice(0, 3), ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:12']);
      const segment = lines.find((l) => l.endsWith('.vtt'))!;
      assert.equal(new URL(segment, shown.hls_link).toString(), shown.link, 'the playlist points at the track');
      assert.equal(lines.at(-2), '#EXT-X-ENDLIST');
      assert.equal((await fetchBytes(t.link)).status, 404, 'the link of the empty track no longer answers');
    });

    it('WebVTT is taken as it is; links carry ETag/Last-Modified and answer 304', async () => {
      const t = await create({ type: 'subtitles', language: 'fr', name: 'Français' });
      assert.equal((await put(t.link, vtt, alice.token)).status, 200);
      const shown = await read(t);
      const first = await fetchBytes(shown.link);
      assert.equal(first.bytes.toString('utf8'), vtt);
      assert.equal(first.headers.get('etag'), '"v1-vtt"');
      assert.equal((await fetchBytes(shown.link, { 'if-none-match': first.headers.get('etag')! })).status, 304);
      assert.equal((await fetchBytes(shown.link, { 'if-modified-since': first.headers.get('last-modified')! })).status, 304);
      assert.equal((await fetchBytes(shown.hls_link, { 'if-none-match': '"v1-m3u8"' })).status, 304);
    });

    it('a track without a file answers an empty WebVTT file, not a dead link', async () => {
      const t = await create({ type: 'chapters', language: 'en', name: 'Chapters' });
      const r = await fetchBytes(t.link);
      assert.equal(r.status, 200);
      assert.equal(r.bytes.toString('utf8'), 'WEBVTT\n');
    });

    it('refuses an image, an empty body, plain text and a broken SRT with 400 naming the file and the accepted formats; stores nothing', async () => {
      const t = await create();
      const before = trackFiles(t);
      for (const body of [await makeImage('png', 20, 20), '', 'hello world', '1\n00:00:01,000 -> 00:00:02,000\nbroken\n']) {
        const r = await put(t.link, body, alice.token);
        const answer = { status: r.status, headers: r.headers, body: (await r.json()) as { invalid_parameters: { developer_message: string }[] }, text: '' };
        expectError(answer, 400, 2204, 'file');
        assert.match(answer.body.invalid_parameters[0].developer_message, /WebVTT.*SRT/);
      }
      assert.deepEqual(trackFiles(t), before);
      assert.equal((await read(t)).link, t.link);
    });

    it("refuses another user's PUT (403/3430) and an anonymous one (401); stores nothing", async () => {
      const t = await create();
      const r = await put(t.link, srt, bob.token);
      assert.equal(r.status, 403);
      assert.equal(((await r.json()) as { error_code: number }).error_code, 3430);
      assert.equal((await put(t.link.split('?')[0], srt, undefined)).status, 401);
      assert.deepEqual(trackFiles(t), []);
    });

    it('takes a PUT without a token at the link its owner was handed before the first file (as vimeo.php sends it), once; others never see that link', async () => {
      const t = await create();
      assert.match(t.link, /\.vtt\?upload=[0-9a-f]{32}$/);
      const seen = (await h.call('GET', t.uri, { token: bob.token })).body as Track;
      assert.equal(seen.link, t.link.split('?')[0], 'another viewer gets the plain link');
      assert.equal((await put(seen.link, srt, undefined)).status, 401);
      assert.equal((await put(t.link, srt, undefined)).status, 200);
      assert.equal((await fetchBytes((await read(t)).link)).bytes.toString('utf8'), srtAsVtt);
      assert.equal((await put(t.link, srt, undefined)).status, 401, 'spent by the upload');
    });

    it('links expire at the end of the next UTC day, and forged ones never answer', async () => {
      const t = await create();
      assert.equal(t.link_expires_time, '2026-01-04T00:00:00+00:00');
      assert.equal(t.hls_link_expires_time, t.link_expires_time);
      const plain = t.link.split('?')[0];
      assert.equal((await fetchBytes(plain.replace(/-[0-9a-f]{32}\.vtt$/, `-${'a'.repeat(32)}.vtt`))).status, 404);
      assert.equal((await fetchBytes(plain.replace(/-(\d+)-/, (_, e: string) => `-${Number(e) + 86400}-`))).status, 404);
      h.clock.advance(2 * 86400);
      try {
        assert.equal((await fetchBytes(t.link)).status, 404, 'expired');
        const fresh = await read(t);
        assert.equal(fresh.link_expires_time, '2026-01-06T00:00:00+00:00');
        assert.equal((await fetchBytes(fresh.link)).status, 200);
      } finally {
        h.clock.advance(-2 * 86400);
      }
    });

    it('delete removes the file and its links stop answering', async () => {
      const t = await create();
      assert.equal((await put(t.link, srt, alice.token)).status, 200);
      const shown = await read(t);
      assert.equal(trackFiles(t).length, 1);
      assert.equal((await h.call('DELETE', t.uri, { token: alice.token })).status, 204);
      assert.deepEqual(trackFiles(t), []);
      assert.equal((await fetchBytes(shown.link)).status, 404);
    });

    it('only one track per language stays active after uploads', async () => {
      const [a, b] = [await create(), await create()];
      for (const t of [a, b]) {
        assert.equal((await put(t.link, vtt, alice.token)).status, 200);
        await h.call('PATCH', t.uri, { token: alice.token, json: { active: true } });
      }
      assert.deepEqual([(await read(a)).active, (await read(b)).active], [false, true]);
    });
  });
}
