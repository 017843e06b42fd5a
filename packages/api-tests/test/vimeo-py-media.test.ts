import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, fetchBytes, Harness, imageSize, makeImage, type Fixture } from '../src/index';

/**
 * The official Python SDK's picture and text-track uploads (vimeo.py 1.1, `upload_picture` and
 * `upload_texttrack`), replayed request by request: its URLs and query strings, its headers (the
 * bearer token goes on every request, the PUTs to links included), its bodies (dicts sent as
 * JSON, `"true"` as a string) and the status each step checks.
 */
const accept = 'application/vnd.vimeo.*;version=3.4';

for (const driver of drivers) {
  describe(`vimeo.py upload_picture and upload_texttrack (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    const sdk = (method: string, url: string, body?: Uint8Array | Record<string, unknown>) => {
      const headers: Record<string, string> = { accept, 'user-agent': 'pyvimeo 1.0.11; (http://developer.vimeo.com/api/docs)', authorization: `Bearer ${alice.token}` };
      let payload: Uint8Array | string | undefined;
      if (body instanceof Uint8Array) payload = body;
      else if (body) {
        payload = JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      return fetch(url.startsWith('http') ? url : `${h.server.url}${url}`, { method, headers, body: payload });
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
    });
    after(() => h.stop());

    it('upload_picture(video_uri, file, activate=True)', async () => {
      const video = `/videos/${await h.video(alice)}`;
      const obj = await sdk('GET', `${video}?fields=metadata.connections.pictures.uri`);
      assert.equal(obj.status, 200);
      const picturesUri = ((await obj.json()) as { metadata: { connections: { pictures: { uri: string } } } }).metadata.connections.pictures.uri;
      const created = await sdk('POST', `${picturesUri}?fields=link,uri`);
      assert.equal(created.status, 201);
      const picture = (await created.json()) as { uri: string; link: string };
      assert.deepEqual(Object.keys(picture).sort(), ['link', 'uri']);
      const jpeg = await makeImage('jpeg', 1280, 720);
      const uploaded = await sdk('PUT', `${picture.link}?fields=error`, jpeg);
      assert.equal(uploaded.status, 200, await uploaded.text());
      const active = await sdk('PATCH', `${picture.uri}?fields=error`, { active: 'true' });
      assert.equal(active.status, 200, await active.text());
      const clip = (await (await sdk('GET', video)).json()) as { pictures: { uri: string; sizes: { width: number; height: number; link: string }[] } };
      assert.equal(clip.pictures.uri, picture.uri);
      const largest = clip.pictures.sizes.at(-1)!;
      assert.deepEqual(await imageSize((await fetchBytes(largest.link)).bytes), { width: 1920, height: 1080, format: 'jpeg' });
    });

    it('upload_texttrack(video_uri, "captions", "en", "captions.srt")', async () => {
      const video = `/videos/${await h.video(alice)}`;
      const created = await sdk('POST', `${video}/texttracks?fields=link`, { type: 'captions', language: 'en', name: 'captions.srt' });
      assert.equal(created.status, 201);
      const track = (await created.json()) as { link: string };
      const uploaded = await sdk('PUT', track.link, Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nHi\n'));
      assert.equal(uploaded.status, 200, await uploaded.text());
      const list = (await (await sdk('GET', `${video}/texttracks`)).json()) as { data: { link: string }[] };
      const file = await fetchBytes(list.data[0].link);
      assert.equal(file.bytes.toString('utf8'), 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi\n');
    });
  });
}
