import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, uploadByTus, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`playback: the file endpoint and the player (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let id: string;
    /** A real 2 s 320x240 clip (~57 KB): one 240p rendition once transcoded. */
    let mp4: Buffer;
    const get = (path: string, headers: Record<string, string> = {}, token?: string) =>
      fetch(h.server.url + path, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      mp4 = await makeClip({ width: 320, height: 240, seconds: 2 });
      id = await uploadByTus(h, alice.token, mp4, { name: 'Played', embed: { color: '#ff0000' }, privacy: { download: false } });
      await h.settle();
    });
    after(() => h.stop());

    it('answers the whole file (200) with Accept-Ranges and the probed type', async () => {
      const r = await get(`/videos/${id}/file`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('accept-ranges'), 'bytes');
      assert.equal(r.headers.get('content-type'), 'video/mp4');
      assert.equal(r.headers.get('content-length'), String(mp4.length));
      assert.deepEqual(Buffer.from(await r.arrayBuffer()), mp4);
    });

    it('answers ranges (206) with the exact bytes, and 416 past the end', async () => {
      for (const [range, start, end] of [
        ['bytes=0-99', 0, 99],
        ['bytes=100-', 100, mp4.length - 1],
        ['bytes=-50', mp4.length - 50, mp4.length - 1],
        [`bytes=1000-${mp4.length + 500}`, 1000, mp4.length - 1],
      ] as const) {
        const r = await get(`/videos/${id}/file`, { range });
        assert.equal(r.status, 206, range);
        assert.equal(r.headers.get('content-range'), `bytes ${start}-${end}/${mp4.length}`);
        assert.deepEqual(Buffer.from(await r.arrayBuffer()), mp4.subarray(start, end + 1), range);
      }
      const past = await get(`/videos/${id}/file`, { range: `bytes=${mp4.length}-` });
      assert.equal(past.status, 416);
      assert.equal(past.headers.get('content-range'), `bytes */${mp4.length}`);
    });

    it('the Clip links its files (owner), download (owner, or privacy.download), play (everyone) and the player', async () => {
      const own = await h.call('GET', `/videos/${id}`, { token: alice.token });
      const shape = (f: { quality: string; rendition: string; type: string; width: number; height: number }) => [f.quality, f.rendition, f.type, f.width, f.height];
      // The source first, then the renditions.
      assert.deepEqual(own.body.files.map(shape), [
        ['source', 'source', 'video/mp4', 320, 240],
        ['sd', '240p', 'video/mp4', 320, 240],
      ]);
      assert.deepEqual([own.body.files[0].link, own.body.files[0].size], [`${h.server.url}/videos/${id}/file`, mp4.length]);
      assert.equal(own.body.files[1].link, own.body.play.progressive[0].link);
      assert.deepEqual(own.body.download.map(shape), own.body.files.map(shape));
      assert.equal(own.body.download[0].link, `${h.server.url}/videos/${id}/file?download=true`);
      assert.equal(own.body.player_embed_url, `${h.server.url}/videos/${id}/player`);
      assert.match(own.body.embed.html, new RegExp(`src="${h.server.url}/videos/${id}/player"`));
      const other = await h.call('GET', `/videos/${id}`, { token: bob.token });
      assert.deepEqual([other.body.files, other.body.download], [undefined, []]);
      assert.deepEqual(other.body.play, own.body.play, 'play is for every viewer');
      expectError(await h.call('GET', `/videos/${id}/file?download=true`, { token: bob.token }), 403, 3200);
      const dl = await get(`/videos/${id}/file?download=true`, {}, alice.token);
      assert.equal(dl.status, 200);
      assert.match(dl.headers.get('content-disposition') ?? '', /^attachment; filename="Played\.mp4"$/);
      await dl.arrayBuffer();
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { download: true } } })).status, 200);
      assert.deepEqual((await h.call('GET', `/videos/${id}`, { token: bob.token })).body.download.map(shape), own.body.files.map(shape));
      const ok = await get(`/videos/${id}/file?download=true`, {}, bob.token);
      assert.equal(ok.status, 200);
      await ok.arrayBuffer();
    });

    it('counts a download of each download link (the file, a rendition at its ?download=true link) in analytics; the play link and a playlist count none', async () => {
      const downloads = async (): Promise<number> => {
        h.clock.advance(60);
        await h.settle();
        const day = h.clock.now().toISOString().slice(0, 10);
        const r = await h.call('GET', `/me/analytics?from=${day}&to=${day}&dimension=total`, { token: alice.token });
        assert.equal(r.status, 200, r.text);
        return r.body.data[0]?.downloads ?? 0;
      };
      const before = await downloads();
      const own = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
      const [played, marked] = [own.play.progressive[0].link, own.download[1].link];
      assert.equal(marked, `${played}?download=true`);
      // The same bytes: as an attachment named for the video and its rendition.
      const dl = await fetch(marked);
      assert.deepEqual([dl.status, dl.headers.get('content-disposition')], [200, 'attachment; filename="Played-240p.mp4"']);
      const bytes = Buffer.from(await dl.arrayBuffer());
      const play = await fetch(played);
      assert.deepEqual([play.status, play.headers.get('content-disposition')], [200, null]);
      assert.deepEqual(Buffer.from(await play.arrayBuffer()), bytes);
      // A resumed download is the same one; a playlist asked as a download is no download.
      const resumed = await fetch(marked, { headers: { range: 'bytes=100-' } });
      assert.equal(resumed.status, 206);
      await resumed.arrayBuffer();
      const master = await fetch(`${own.play.hls.link}?download=true`);
      assert.deepEqual([master.status, master.headers.get('content-disposition')], [200, null]);
      await master.text();
      // The source file's download link counts too.
      await (await get(`/videos/${id}/file?download=true`, {}, alice.token)).arrayBuffer();
      assert.equal(await downloads(), before + 2);
    });

    it('applies privacy: a nobody video plays for its owner only', async () => {
      const hidden = await uploadByTus(h, alice.token, mp4, { privacy: { view: 'nobody' } });
      await h.settle();
      assert.equal((await get(`/videos/${hidden}/file`)).status, 404);
      assert.equal((await get(`/videos/${hidden}/file`, {}, bob.token)).status, 404);
      assert.equal((await get(`/videos/${hidden}/player`)).status, 404);
      const r = await get(`/videos/${hidden}/file`, { range: 'bytes=0-9' }, alice.token);
      assert.equal(r.status, 206);
      assert.deepEqual(Buffer.from(await r.arrayBuffer()), mp4.subarray(0, 10));
    });

    it('answers 404/5006 for a video whose file has not arrived', async () => {
      const empty = await h.video(alice);
      expectError(await h.call('GET', `/videos/${empty}/file`, { token: alice.token }), 404, 5006);
    });

    it('shows every viewer play: unavailable until the first transcode completes, then its renditions', async () => {
      const waiting = await uploadByTus(h, alice.token, mp4);
      const play = async () => (await h.call('GET', `/videos/${waiting}`, { token: bob.token })).body.play;
      assert.deepEqual(await play(), { status: 'unavailable', progressive: [], hls: null, storyboard: null });
      // Until its renditions are made, the upload plays as it was sent.
      const source = await h.call('GET', `/videos/${waiting}/file`, { token: alice.token });
      assert.deepEqual([source.status, source.headers.get('content-type'), source.headers.get('content-length')], [200, 'video/mp4', String(mp4.length)]);
      await h.settle();
      const ready = await play();
      assert.deepEqual([ready.status, ready.progressive.map((p: { rendition: string }) => p.rendition)], ['playable', ['240p']]);
      assert.match(ready.hls.link, /\/master\.m3u8$/);
    });

    it('adds the video to the viewer’s watch history, and counts no play (the player’s view beacons do)', async () => {
      const carol = await h.user('Carol');
      const before = (await h.call('GET', `/videos/${id}`)).body.stats.plays;
      const r = await get(`/videos/${id}/file`, {}, carol.token);
      await r.arrayBuffer();
      await (await get(`/videos/${id}/file`, { range: 'bytes=500-' }, carol.token)).arrayBuffer();
      assert.equal((await h.call('GET', `/videos/${id}`)).body.stats.plays, before);
      const history = await h.call('GET', '/me/watched/videos', { token: carol.token });
      assert.equal(history.status, 200, history.text);
      assert.deepEqual(history.body.data.map((v: { uri: string }) => v.uri), [`/videos/${id}`]);
      assert.equal((await h.call('GET', '/me', { token: carol.token })).body.metadata.connections.watched_videos?.total ?? 1, 1);
    });

    it('serves the player page: a <video> on the stream and a rendition, honouring the embed settings', async () => {
      const r = await get(`/videos/${id}/player`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      const page = await r.text();
      const { play } = (await h.call('GET', `/videos/${id}`)).body;
      const video = /<video [^>]*>/.exec(page)![0];
      assert.ok(video.startsWith(`<video id="player" src="${play.progressive[0].link}" preload="none" playsinline controls`), video);
      assert.ok(video.includes(` data-hls="${play.hls.link}"`), video);
      assert.match(page, /<h1 class="title">Played<\/h1>/);
      assert.match(page, /accent-color:#ff0000/);
      await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { embed: { title: { name: 'hide', portrait: 'hide' }, buttons: { fullscreen: false } } } });
      const hidden = await (await get(`/videos/${id}/player`)).text();
      assert.doesNotMatch(hidden, /class="title"/);
      assert.doesNotMatch(hidden, /class="portrait"/);
      assert.match(hidden, /controlslist="nofullscreen"/);
    });
  });
}
