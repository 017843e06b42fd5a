import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, fetchBytes, Harness, makeClip, makeImage, wire, type Fixture, type Received } from '../src/index';

/**
 * The official Python and PHP SDKs' uploads replayed request by request (issue 22): vimeo.py 1.1
 * `upload()` and `replace()` (vimeo/upload.py, tus through tuspy) and vimeo.php 4.0 `upload()`,
 * `replace()`, `uploadImage()` and `uploadTexttrack()` (src/Vimeo/Vimeo.php, tus through
 * src/Vimeo/Upload/TusClient.php). Each step sends the SDK's method, path and query string, its
 * headers and its body byte for byte, and checks exactly what the SDK checks before going on; each
 * test ends with what the SDK hands its caller. vimeo.py's `upload_picture` and `upload_texttrack`
 * are in vimeo-py-media.test.ts.
 */

const json = (r: Received) => JSON.parse(r.text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const length = (body: string | Uint8Array) => String(Buffer.byteLength(body));

/** vimeo.py: VimeoClient's requests calls (client.py) — its Accept and User-Agent, the bearer token, dicts as json.dumps writes them. */
const vimeoPy = (base: string, token: string) => (method: string, path: string, data?: string) => {
  const headers: Record<string, string> = {
    'User-Agent': 'pyvimeo 1.0.11; (http://developer.vimeo.com/api/docs)',
    'Accept-Encoding': 'gzip, deflate',
    Accept: 'application/vnd.vimeo.*;version=3.4',
    Connection: 'keep-alive',
  };
  if (data !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': length(data) });
  headers.Authorization = `Bearer ${token}`;
  return wire(method, base + path, headers, data === undefined ? undefined : Buffer.from(data));
};

/**
 * tuspy's `Uploader(url=upload_link, chunk_size=…, retries=3).upload()` as vimeo.py's
 * `__perform_tus_upload` makes it: `TusClient('https://files.tus.vimeo.com')` has no headers, so
 * no token goes to the link. A HEAD for the offset (only its `upload-offset` header counts), then
 * PATCHes of `chunkSize` bytes until the offset the server answers reaches the size; any 2xx is success.
 */
async function tuspy(link: string, bytes: Buffer, chunkSize: number): Promise<number> {
  const requests = { 'User-Agent': 'python-requests/2.32.3', 'Accept-Encoding': 'gzip, deflate', Accept: '*/*', Connection: 'keep-alive' };
  const head = await wire('HEAD', link, { ...requests, 'Tus-Resumable': '1.0.0' });
  assert.notEqual(head.headers['upload-offset'], undefined, `tuspy get_offset: no upload-offset (${head.status})`);
  let offset = Number(head.headers['upload-offset']);
  let patches = 0;
  while (offset < bytes.length) {
    const chunk = bytes.subarray(offset, offset + chunkSize);
    const headers = { ...requests, 'upload-offset': String(offset), 'Content-Type': 'application/offset+octet-stream', 'Tus-Resumable': '1.0.0', 'Content-Length': length(chunk) };
    const r = await wire('PATCH', link, headers, chunk);
    assert.ok(r.status >= 200 && r.status < 300, `tuspy _verify_upload: ${r.status} ${r.text}`);
    const next = Number(r.headers['upload-offset']);
    assert.ok(next > offset, `the offset moves on from ${offset} (answered ${r.headers['upload-offset']})`);
    offset = next;
    patches++;
  }
  return patches;
}

/** vimeo.php: `Vimeo::request()` through curl — its Accept and User-Agent, the bearer token; non-empty params as json_encode writes them, empty ones as an empty form. */
const vimeoPhp = (base: string, token: string) => (method: string, path: string, params?: string) => {
  const headers: Record<string, string> = {
    Accept: 'application/vnd.vimeo.*+json; version=3.4',
    'User-Agent': 'vimeo.php 4.0.1; (http://developer.vimeo.com/api/docs)',
    Authorization: `Bearer ${token}`,
  };
  if (params !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': length(params) });
  // http_build_query(array()) is '', which curl posts labelled as a form.
  else if (method !== 'GET') Object.assign(headers, { 'Content-Length': '0', 'Content-Type': 'application/x-www-form-urlencoded' });
  return wire(method, base + path, headers, params === undefined ? undefined : Buffer.from(params));
};

/**
 * vimeo.php's `perform_upload_tus`: per round, `TusClient::upload($chunk_size)` sends a HEAD for
 * the offset and one PATCH from it (Guzzle, no token; the HEAD also carries the `http_errors`
 * option as an empty header), each needing 200 or 204; rounds go on until the PATCH's answered
 * offset reaches the file size.
 */
async function phpTus(link: string, bytes: Buffer, chunkSize: number): Promise<number> {
  const guzzle = { 'User-Agent': 'GuzzleHttp/7' };
  let uploaded = 0;
  let rounds = 0;
  do {
    const head = await wire('HEAD', link, { 'Tus-Resumable': '1.0.0', http_errors: '', ...guzzle });
    assert.ok([200, 204].includes(head.status), `TusClient HEAD: ${head.status}`);
    const offset = Number(head.headers['upload-offset'] ?? 0);
    const data = bytes.subarray(offset, offset + chunkSize);
    const patch = await wire(
      'PATCH',
      link,
      { 'Tus-Resumable': '1.0.0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': length(data), 'Upload-Offset': String(offset), ...guzzle },
      data,
    );
    assert.ok([200, 204].includes(patch.status), `TusClient PATCH: ${patch.status} ${patch.text}`);
    uploaded = Number(patch.headers['upload-offset'] ?? 0);
    rounds++;
  } while (uploaded < bytes.length);
  return rounds;
}

/** The PUTs vimeo.php makes with a bare curl handle (CURL_DEFAULTS only): no Accept of its own, no token. */
const curlPut = {
  /** `uploadImage`: CURLOPT_UPLOAD with CURLOPT_READDATA, a file of unknown length, so chunked after 100 Continue. */
  upload: (link: string, bytes: Uint8Array) => wire('PUT', link, { Accept: '*/*', 'Transfer-Encoding': 'chunked', Expect: '100-continue' }, bytes),
  /** `uploadTexttrack`: CURLOPT_POSTFIELDS, which curl labels as a form. */
  fields: (link: string, bytes: Uint8Array) =>
    wire('PUT', link, { Accept: '*/*', 'Content-Length': length(bytes), 'Content-Type': 'application/x-www-form-urlencoded' }, bytes),
};

const clips = Promise.all([makeClip({ width: 320, height: 240, seconds: 1 }), makeClip({ width: 426, height: 240, seconds: 1 })]);
/** A chunk size that splits the clips into several PATCHes (vimeo.py's `data['chunk_size']`, vimeo.php's `$override_chunk_size`). */
const chunk = 8192;

for (const driver of drivers) {
  describe(`the official Python and PHP SDKs' uploads, replayed (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let first: Buffer;
    let second: Buffer;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      [first, second] = await clips;
      assert.ok(first.length > 2 * chunk && second.length > 2 * chunk, 'the clips take several chunks');
    });
    after(() => h.stop());

    /** The video as its owner reads it, once the transcodes queued so far have run. */
    const settled = async (uri: string) => {
      await h.settle();
      const r = await h.call('GET', uri, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const file = async (uri: string) => (await fetchBytes(`${h.server.url}${uri}/file`)).bytes;

    it('vimeo.py upload(filename, data={name, chunk_size}) then replace(video_uri, filename)', async () => {
      const api = vimeoPy(h.server.url, alice.token);
      // upload(): data gains upload.approach and .size (chunk_size stays in it: the API ignores it);
      // requests encodes params={'fields': 'uri,upload'} with the comma escaped.
      const body = `{"name": "From vimeo.py", "chunk_size": ${chunk}, "upload": {"approach": "tus", "size": ${first.length}}}`;
      const attempt = await api('POST', '/me/videos?fields=uri%2Cupload', body);
      assert.equal(attempt.status, 200, `upload.py: attempt.status_code != 200 raises UploadAttemptCreationFailure: ${attempt.text}`);
      const created = json(attempt);
      assert.deepEqual(Object.keys(created).sort(), ['upload', 'uri']);
      assert.ok((await tuspy(created.upload.upload_link, first, chunk)) > 1);
      const uri: string = created.uri; // upload() returns attempt.get('uri')
      assert.match(uri, /^\/videos\/\d+$/);
      const uploaded = await settled(uri);
      assert.deepEqual([uploaded.name, uploaded.status, uploaded.width, uploaded.upload.size], ['From vimeo.py', 'available', 320, first.length]);
      assert.deepEqual(await file(uri), first);

      // replace(): data is {file_name, upload}; it needs 201 and sets the uri itself.
      const version = await api('POST', `${uri}/versions?fields=upload`, `{"file_name": "second.mp4", "upload": {"approach": "tus", "size": ${second.length}}}`);
      assert.equal(version.status, 201, `replace: attempt.status_code != 201 raises UploadAttemptCreationFailure: ${version.text}`);
      const replacing = json(version);
      assert.deepEqual(Object.keys(replacing), ['upload']);
      await tuspy(replacing.upload.upload_link, second, 200 * 1024 * 1024);
      const replaced = await settled(uri);
      assert.deepEqual([replaced.status, replaced.width, replaced.height], ['available', 426, 240]);
      assert.deepEqual(await file(uri), second);
    });

    it('vimeo.php upload($file, [name], $override_chunk_size) then replace($video_uri, $file)', async () => {
      const api = vimeoPhp(h.server.url, alice.token);
      const attempt = await api('POST', '/me/videos?fields=uri,upload', `{"name":"From vimeo.php","upload":{"approach":"tus","size":${first.length}}}`);
      assert.equal(attempt.status, 200, `Vimeo::upload: $attempt['status'] !== 200 throws VimeoUploadException: ${attempt.text}`);
      const created = json(attempt);
      assert.ok((await phpTus(created.upload.upload_link, first, chunk)) > 1);
      const uri: string = created.uri; // upload() returns $attempt['body']['uri']
      assert.match(uri, /^\/videos\/\d+$/);
      const uploaded = await settled(uri);
      assert.deepEqual([uploaded.name, uploaded.status, uploaded.width], ['From vimeo.php', 'available', 320]);
      assert.deepEqual(await file(uri), first);

      const version = await api('POST', `${uri}/versions?fields=upload`, `{"file_name":"second.mp4","upload":{"approach":"tus","size":${second.length}}}`);
      assert.equal(version.status, 201, `Vimeo::replace: $attempt['status'] !== 201 throws VimeoUploadException: ${version.text}`);
      assert.equal(await phpTus(json(version).upload.upload_link, second, 100 * 1024 * 1024), 1);
      const replaced = await settled(uri); // replace() returns the $video_uri it was given
      assert.deepEqual([replaced.status, replaced.width], ['available', 426]);
      assert.deepEqual(await file(uri), second);
    });

    // vimeo.php PUTs to picture and text-track links without the bearer token (a bare curl handle):
    // the link the owner is handed before the first upload carries a one-time upload capability.
    it('vimeo.php uploadImage($pictures_uri, $file, true)', async () => {
      const api = vimeoPhp(h.server.url, alice.token);
      const video = `/videos/${await h.video(alice)}`;
      const picture = await api('POST', `${video}/pictures`);
      assert.equal(picture.status, 201, `uploadImage: status !== 201 throws: ${picture.text}`);
      const { uri, link } = json(picture);
      const put = await curlPut.upload(link, await makeImage('jpeg', 1280, 720));
      assert.equal(put.status, 200, `uploadImage: http_code !== 200 throws: ${put.text}`);
      await api('PATCH', uri, '{"active":true}'); // its status is not checked
      const clip = await settled(video); // uploadImage() returns $pictures_response['body']['uri']
      assert.equal(clip.pictures.uri, uri);
    });

    it('vimeo.php uploadTexttrack($texttracks_uri, $file, "captions", "en")', async () => {
      const api = vimeoPhp(h.server.url, alice.token);
      const video = `/videos/${await h.video(alice)}`;
      const track = await api('POST', `${video}/texttracks`, '{"type":"captions","language":"en","name":"captions.srt"}');
      assert.equal(track.status, 201, `uploadTexttrack: status !== 201 throws: ${track.text}`);
      const { uri, link } = json(track);
      const put = await curlPut.fields(link, Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nHi\n'));
      assert.equal(put.status, 200, `uploadTexttrack: http_code !== 200 throws: ${put.text}`);
      assert.match(uri, new RegExp(`^${video}/texttracks/\\d+$`)); // uploadTexttrack() returns $texttrack_response['body']['uri']
      const list = await h.call('GET', `${video}/texttracks`, { token: alice.token });
      assert.equal((await fetchBytes(list.body.data[0].link)).bytes.toString('utf8'), 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi\n');
    });
  });
}
