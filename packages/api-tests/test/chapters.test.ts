import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, fetchBytes, Harness, imageSize, makeClip, putFile, uploadByTus, type Fixture } from '../src/index';

type Chapter = { uri: string; title: string; timecode: number; active_thumbnail_uri: string; thumbnails: { uri: string; link: string; sizes: { width: number; height: number; link: string }[] }[] };

for (const driver of drivers) {
  describe(`/videos/{video_id}/chapters (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    /** Alice's transcoded 4-second clip: chapters on it show real frames. */
    let clip: string;
    let duration: number;
    /** A video of Alice's without a file, its duration set: for the rules that need no frames. */
    const video = async (json: Record<string, unknown> = {}, seconds = 60): Promise<string> => {
      const id = await h.video(alice, json);
      await h.service.store.update('videos', id, { duration: seconds });
      return `/videos/${id}`;
    };
    const add = async (uri: string, timecode: number, title = `At ${timecode}`): Promise<Chapter> => {
      const r = await h.call('POST', `${uri}/chapters`, { token: alice.token, json: { title, timecode } });
      assert.equal(r.status, 201, r.text);
      return r.body as Chapter;
    };
    const listed = async (uri: string, token = alice.token): Promise<[number, string][]> =>
      (await h.call('GET', `${uri}/chapters`, { token })).body.data.map((c: Chapter) => [c.timecode, c.title]);
    const chaptersTrack = async (uri: string): Promise<{ uri: string; link: string }> => {
      const r = await h.call('POST', `${uri}/texttracks`, { token: alice.token, json: { name: 'Chapters', language: 'en', type: 'chapters' } });
      assert.equal(r.status, 201, r.text);
      return r.body;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      clip = `/videos/${await uploadByTus(h, alice.token, await makeClip({ seconds: 4 }))}`;
      assert.equal(await h.settle(), 1);
      duration = (await h.call('GET', clip, { token: alice.token })).body.duration;
      assert.ok(duration >= 4, `duration ${duration}`);
    });
    after(() => h.stop());

    it('POST answers 201 with a typed Chapter whose thumbnail is the frame at its timecode, and every uri and link answers', async () => {
      const r = await h.call('POST', `${clip}/chapters`, { token: alice.token, json: { title: '  Opening ', timecode: 0 } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video.chapter+json;version=3.4');
      const c = r.body as Chapter;
      const id = c.uri.split('/').pop();
      assert.equal(c.uri, `${clip}/chapters/${id}`);
      assert.deepEqual(Object.keys(c).sort(), ['active_thumbnail_uri', 'resource_key', 'thumbnails', 'timecode', 'title', 'uri']);
      assert.equal(c.title, 'Opening');
      assert.equal(c.timecode, 0);
      assert.equal(c.active_thumbnail_uri, `${c.uri}/thumbnail`);
      assert.equal(c.thumbnails.length, 1);
      assert.equal(c.thumbnails[0].uri, c.active_thumbnail_uri);
      assert.match(c.thumbnails[0].link, new RegExp(`^${h.server.url}/media/chapters/${id}/f[0-9a-f]{12}t0-[0-9a-f]{32}$`));
      const thumb = await h.call('GET', c.active_thumbnail_uri);
      assert.equal(thumb.status, 200, thumb.text);
      assert.equal(thumb.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      assert.deepEqual(thumb.body, c.thumbnails[0]);
      assert.equal((await h.call('GET', c.uri)).status, 200);

      const later = await add(clip, 3, 'Ending');
      const size = (x: Chapter) => x.thumbnails[0].sizes.find((s) => s.width === 640)!.link;
      const [first, last] = await Promise.all([fetchBytes(size(c)), fetchBytes(size(later))]);
      for (const f of [first, last]) {
        assert.equal(f.status, 200);
        assert.equal(f.headers.get('content-type'), 'image/jpeg');
        assert.deepEqual(await imageSize(f.bytes), { width: 640, height: 360, format: 'jpeg' });
      }
      assert.notDeepEqual(first.bytes, last.bytes, 'each chapter shows the frame at its own timecode');
      assert.equal((await fetchBytes(later.thumbnails[0].link)).status, 200);
      assert.equal((await h.call('DELETE', c.uri, { token: alice.token })).status, 204);
      assert.equal((await h.call('DELETE', later.uri, { token: alice.token })).status, 204);
      assert.equal((await fetchBytes(size(later))).status, 404, 'a deleted chapter leaves no live link');
    });

    it('GET lists in timecode order whatever the order they came in, pages, and reads to anybody who may watch', async () => {
      const uri = await video();
      for (const t of [30, 0, 12.5]) await add(uri, t);
      assert.deepEqual(await listed(uri), [[0, 'At 0'], [12.5, 'At 12.5'], [30, 'At 30']]);
      const page = await h.call('GET', `${uri}/chapters?per_page=2&page=2`);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.headers.get('content-type'), 'application/vnd.reelbase.video.chapter+json;version=3.4');
      assert.equal(page.body.total, 3);
      assert.deepEqual(page.body.data.map((c: Chapter) => c.timecode), [30]);
      assert.equal(page.body.paging.previous, `${uri}/chapters?per_page=2&page=1`);
      assert.deepEqual(await listed(uri, bob.token), await listed(uri));
      expectError(await h.call('GET', `${uri}/chapters?per_page=101`), 400, 2204, 'per_page');
    });

    it('GET hides the chapters of a hidden video (404) and needs the password of a password video (403)', async () => {
      const hidden = await video({ privacy: { view: 'nobody' } });
      const hc = await add(hidden, 1);
      for (const path of [`${hidden}/chapters`, hc.uri, hc.active_thumbnail_uri]) {
        expectError(await h.call('GET', path, { token: bob.token }), 404, 5000);
        expectError(await h.call('GET', path), 404, 5000);
        assert.equal((await h.call('GET', path, { token: alice.token })).status, 200);
      }
      const locked = await video({ privacy: { view: 'password' }, password: 'pw' });
      const lc = await add(locked, 1);
      for (const path of [`${locked}/chapters`, lc.uri, lc.active_thumbnail_uri]) {
        expectError(await h.call('GET', path, { token: bob.token }), 403, 3200);
        assert.equal((await h.call('GET', `${path}?password=pw`, { token: bob.token })).status, 200);
      }
    });

    it('GET is 404 for a missing chapter, one of another video, or a missing video', async () => {
      const uri = await video();
      const other = await add(await video(), 5);
      const id = other.uri.split('/').pop();
      expectError(await h.call('GET', `${uri}/chapters/${id}`), 404, 5000);
      expectError(await h.call('GET', `${uri}/chapters/${id}/thumbnail`), 404, 5000);
      expectError(await h.call('GET', `${uri}/chapters/999999`), 404, 5000);
      expectError(await h.call('GET', `/videos/999999/chapters`), 404, 5000);
      expectError(await h.call('PATCH', `${uri}/chapters/${id}`, { token: alice.token, json: { title: 'x' } }), 404, 5000);
      expectError(await h.call('DELETE', `${uri}/chapters/${id}`, { token: alice.token }), 404, 5000);
      assert.equal((await h.call('GET', other.uri)).body.title, 'At 5');
    });

    const invalid: [string, Record<string, unknown>][] = [
      ['title', { timecode: 1 }],
      ['title', { title: '   ', timecode: 1 }],
      ['title', { title: 'x'.repeat(257), timecode: 1 }],
      ['title', { title: 7, timecode: 1 }],
      ['timecode', { title: 'No time' }],
      ['timecode', { title: 'Negative', timecode: -1 }],
      ['timecode', { title: 'Text', timecode: 'soon' }],
      ['timecode', { title: 'At the end', timecode: 60 }],
      ['timecode', { title: 'Beyond', timecode: 61 }],
      ['timecode', { title: 'Taken', timecode: 10 }],
    ];
    for (const [field, json] of invalid) {
      it(`POST answers 400 naming ${field} for ${JSON.stringify(json).slice(0, 60)} and adds nothing`, async () => {
        const uri = await video();
        await add(uri, 10, 'First');
        expectError(await h.call('POST', `${uri}/chapters`, { token: alice.token, json }), 400, 2204, field);
        assert.deepEqual(await listed(uri), [[10, 'First']]);
      });
    }

    it('POST takes any timecode while the duration is unknown (not transcoded yet)', async () => {
      const uri = await video({}, 0);
      await add(uri, 5000);
      assert.deepEqual(await listed(uri), [[5000, 'At 5000']]);
    });

    it('PATCH edits the title and the timecode (re-ordering the list); 400 naming timecode for a taken or too late one', async () => {
      const uri = await video();
      const a = await add(uri, 1);
      await add(uri, 20);
      const r = await h.call('PATCH', a.uri, { token: alice.token, json: { title: 'Moved', timecode: 40 } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video.chapter+json;version=3.4');
      assert.equal(r.body.title, 'Moved');
      assert.equal(r.body.timecode, 40);
      assert.equal(r.body.thumbnails[0].time, 40);
      assert.deepEqual(await listed(uri), [[20, 'At 20'], [40, 'Moved']]);
      assert.equal((await h.call('PATCH', a.uri, { token: alice.token, json: { timecode: 40 } })).status, 200, 'its own timecode is not taken');
      expectError(await h.call('PATCH', a.uri, { token: alice.token, json: { timecode: 20 } }), 400, 2204, 'timecode');
      expectError(await h.call('PATCH', a.uri, { token: alice.token, json: { timecode: 60 } }), 400, 2204, 'timecode');
      expectError(await h.call('PATCH', a.uri, { token: alice.token, json: { title: '' } }), 400, 2204, 'title');
      assert.deepEqual(await listed(uri), [[20, 'At 20'], [40, 'Moved']]);
    });

    it('DELETE answers 204 and the chapter is gone', async () => {
      const uri = await video();
      const a = await add(uri, 1);
      await add(uri, 2);
      assert.equal((await h.call('DELETE', a.uri, { token: alice.token })).status, 204);
      expectError(await h.call('GET', a.uri), 404, 5000);
      expectError(await h.call('GET', a.active_thumbnail_uri), 404, 5000);
      assert.deepEqual(await listed(uri), [[2, 'At 2']]);
    });

    it('changes need the owner (403), scope edit (403), a token (401), and a video the caller can see (404)', async () => {
      const uri = await video();
      const a = await add(uri, 1);
      const viewer = await h.user('Viewer', 'public,private,interact,upload,delete');
      const writes = (who?: string) => [
        h.call('POST', `${uri}/chapters`, { token: who, json: { title: 'x', timecode: 2 } }),
        h.call('PATCH', a.uri, { token: who, json: { title: 'x' } }),
        h.call('DELETE', a.uri, { token: who }),
      ];
      for (const r of await Promise.all(writes(bob.token))) expectError(r, 403, 3200);
      for (const r of await Promise.all(writes(viewer.token))) expectError(r, 403, 3200);
      for (const r of await Promise.all(writes())) expectError(r, 401, 8003);
      const hidden = await video({ privacy: { view: 'nobody' } });
      expectError(await h.call('POST', `${hidden}/chapters`, { token: bob.token, json: { title: 'x', timecode: 2 } }), 404, 5000);
      assert.deepEqual(await listed(uri), [[1, 'At 1']]);
      assert.deepEqual(await listed(hidden, alice.token), []);
    });

    it('a chapters text track serves the chapters as WebVTT as they change, and a WebVTT PUT to it replaces them', async () => {
      const uri = await video({}, 100);
      const kept = await add(uri, 0, 'Intro & <welcome>');
      await add(uri, 65.25, 'Credits');
      const track = await chaptersTrack(uri);
      const vtt = async () => (await fetchBytes(track.link.split('?')[0])).bytes.toString('utf8');
      const first = await fetchBytes(track.link.split('?')[0]);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('content-type'), 'text/vtt; charset=utf-8');
      assert.equal(first.headers.get('cache-control'), 'public, no-cache');
      const [, keptId] = kept.uri.split('/chapters/');
      assert.equal(
        first.bytes.toString('utf8'),
        `WEBVTT\n\n${keptId}\n00:00:00.000 --> 00:01:05.250\nIntro &amp; &lt;welcome&gt;\n\n${Number(keptId) + 1}\n00:01:05.250 --> 00:01:40.000\nCredits\n`,
      );
      assert.equal((await fetchBytes(track.link.split('?')[0], { 'if-none-match': first.headers.get('etag')! })).status, 304);
      await add(uri, 30, 'Middle');
      assert.match(await vtt(), /00:00:30\.000 --> 00:01:05\.250\nMiddle\n/);
      assert.equal((await fetchBytes(track.link.split('?')[0], { 'if-none-match': first.headers.get('etag')! })).status, 200);

      const put = await putFile(track.link, 'WEBVTT\n\n00:00.000 --> 00:10.000\n<b>Intro</b> &amp; hello\n\n00:00:42.500 --> 00:01:00.000\nNew part\n', alice.token, 'text/vtt');
      assert.equal(put.status, 200, await put.text());
      assert.deepEqual(await listed(uri), [[0, 'Intro & hello'], [42.5, 'New part']]);
      assert.equal((await h.call('GET', kept.uri)).body.title, 'Intro & hello', 'the chapter at a kept timecode keeps its uri');

      const link = (await h.call('GET', track.uri, { token: alice.token })).body.link;
      for (const bad of ['WEBVTT\n\n00:01:40.000 --> 00:01:50.000\nToo late\n', 'WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\n00:01.000 --> 00:03.000\nB\n', 'WEBVTT\n\n00:01.000 --> 00:02.000\n<i></i>\n']) {
        const r = await putFile(link, bad, alice.token, 'text/vtt');
        assert.equal(r.status, 400, bad);
        assert.deepEqual(((await r.json()) as { invalid_parameters: { field: string }[] }).invalid_parameters.map((p) => p.field), ['file']);
      }
      assert.deepEqual(await listed(uri), [[0, 'Intro & hello'], [42.5, 'New part']]);
    });

    it('a video takes its chapters with it when deleted', async () => {
      const uri = await video();
      await add(uri, 1);
      assert.equal((await h.call('DELETE', uri, { token: alice.token })).status, 204);
      assert.equal(await h.service.store.count('chapters', { field: 'video_id', op: 'eq', value: uri.split('/').pop()! }), 0);
    });
  });
}
