import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { hangGuardMs, makeClip, startPlayerFixture, uploadByTus, startTlsFront, type Answer, type Fixture, type Harness, type PlayerFixture, type TlsFront, browserSkip } from '../src/index';

/**
 * The player.js protocol in Debian's chromium: a page on another origin (`embed.localhost`, which
 * chromium sends to loopback) drives the player with the unmodified `@vimeo/player` from npm — its
 * iframe at `https://player.vimeo.com/…` (the package talks to nothing else, and chromium knows
 * vimeo.com as https-only), which `--host-resolver-rules` sends to a TLS front of this server — and
 * with @reelbase/player-api at the server's own address.
 * Both run one scenario (`scenario` below): the same calls, the same answers.
 */
const vimeoPlayer = readFileSync(createRequire(import.meta.url).resolve('@vimeo/player/dist/player.js'));
const playerApi = readFileSync(new URL('../../player-api/src/index.js', import.meta.url));

describe('the player speaks player.js to @vimeo/player and @reelbase/player-api (chromium, sqlite)', { skip: browserSkip() }, () => {
  let f: PlayerFixture;
  let h: Harness;
  let alice: Fixture;
  let id: string;
  let browser: Browser;
  let embedder: Server;
  let embedOrigin: string;
  let front: TlsFront | undefined;

  before(async () => {
    f = await startPlayerFixture({
      clip: { width: 640, height: 360, seconds: 6 },
      video: { name: 'Driven' },
      // trustProxy: behind the TLS front, the player's links are https ones (no mixed content).
      server: { trustProxy: true },
      args: async (started) => {
        front = await startTlsFront(Number(new URL(started.server.url).port), 'player.vimeo.com');
        return ['--autoplay-policy=no-user-gesture-required', `--host-resolver-rules=MAP player.vimeo.com:443 127.0.0.1:${front.port}`, '--ignore-certificate-errors'];
      },
    });
    ({ h, alice, id, browser } = f);
    const ok = (r: Answer, status: number) => (assert.equal(r.status, status, r.text), r.body);
    const track = ok(await h.call('POST', `/videos/${id}/texttracks`, { token: alice.token, json: { type: 'captions', language: 'fr', name: 'Français', active: true } }), 201);
    const put = await fetch(track.link, { method: 'PUT', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'text/plain' }, body: '1\n00:00:00,500 --> 00:00:05,500\nBonjour\n' });
    assert.ok(put.ok, `the captions: ${put.status}`);
    for (const [title, timecode] of [['Opening', 0], ['Middle', 3]] as const) ok(await h.call('POST', `/videos/${id}/chapters`, { token: alice.token, json: { title, timecode } }), 201);
    // The embedding site: a page per client, which makes its player and records the events it hears.
    embedder = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/vimeo-player.js' || url.pathname === '/player-api.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(url.pathname === '/vimeo-player.js' ? vimeoPlayer : playerApi);
        return;
      }
      const src = url.searchParams.get('src') ?? '';
      const make = url.pathname === '/vimeo'
        ? `<script src="/vimeo-player.js"></script><script>window.player = new Vimeo.Player(document.getElementById('f'));${listen}</script>`
        : `<script type="module">import Player from '/player-api.js'; window.player = new Player('f');${listen}</script>`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>embedder</title><iframe id="f" src="${src.replace(/"/g, '')}" width="640" height="360" allow="autoplay; fullscreen"></iframe>${make}`);
    });
    await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
    embedOrigin = `http://embed.localhost:${(embedder.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => embedder?.close(resolve));
    await f?.stop();
    await front?.close();
  });

  /** What the embedding page does once its player exists: keep each event it hears. */
  const listen = `window.heard = [];
['play', 'pause', 'seeked', 'ended', 'qualitychange', 'texttrackchange', 'timeupdate', 'chapterchange'].forEach(function (name) {
  player.on(name, function (data) { heard.push([name, data]); });
});`;

  /** Opens the embedding page of `client` (vimeo or api) on a player at `src` and waits for `ready`; `setup` runs before it loads. */
  async function embed(client: 'vimeo' | 'api', src: string, setup: (page: Page) => Promise<unknown> = async () => {}): Promise<Page> {
    const page = await browser.newPage();
    await setup(page);
    await page.goto(`${embedOrigin}/${client}?src=${encodeURIComponent(src)}`);
    await page.waitForFunction('window.player', undefined, { timeout: hangGuardMs });
    await page.waitForFunction('player.ready().then(() => true)', undefined, { timeout: hangGuardMs });
    return page;
  }

  /** Waits until the page has heard `name` (past the first `after` events) and answers its data. */
  async function heard(page: Page, name: string, after = 0): Promise<unknown> {
    const found = await page.waitForFunction(`heard.slice(${after}).filter((e) => e[0] === ${JSON.stringify(name)})[0]`, undefined, { timeout: hangGuardMs, polling: 50 });
    return ((await found.jsonValue()) as [string, unknown])[1];
  }
  const count = (page: Page) => page.evaluate('heard.length') as Promise<number>;

  /** The scenario both clients run, through the player.js protocol only. */
  async function scenario(page: Page) {
    const call = (js: string) => page.evaluate(js);
    assert.deepEqual(
      await call('Promise.all([player.getVideoId(), player.getVideoTitle(), player.getPaused(), player.getLoop(), player.getVideoWidth(), player.getVideoHeight()])'),
      [Number(id), 'Driven', true, false, 640, 360],
    );
    assert.deepEqual(await call('player.getChapters()'), [
      { startTime: 0, title: 'Opening', index: 1 },
      { startTime: 3, title: 'Middle', index: 2 },
    ]);
    assert.deepEqual(await call('player.getTextTracks()'), [{ label: 'Français', language: 'fr', kind: 'captions', mode: 'showing' }]);
    assert.deepEqual(await call('player.disableTextTrack().then(() => player.getTextTracks())'), [{ label: 'Français', language: 'fr', kind: 'captions', mode: 'disabled' }]);
    let mark = await count(page);
    assert.deepEqual(await call('player.enableTextTrack("fr")'), { label: 'Français', language: 'fr', kind: 'captions', mode: 'showing' });
    assert.deepEqual(await heard(page, 'texttrackchange', mark), { label: 'Français', language: 'fr', kind: 'captions' });
    assert.deepEqual(await call('player.enableTextTrack("de").catch((e) => [e.name, e.message])'), ['InvalidTrackLanguageError', 'There is no track of language de.']);
    assert.deepEqual(await call('player.setVolume(2).catch((e) => [e.name, e.message])'), ['RangeError', 'Volume must be between 0 and 1.']);

    await call('player.play()');
    const play = (await heard(page, 'play')) as { seconds: number; percent: number; duration: number };
    // The 6 s clip: the server's whole seconds before the stream's metadata arrives, the stream's after.
    assert.deepEqual([play.seconds, play.percent], [0, 0]);
    for (const d of [play.duration, (await call('player.getDuration()')) as number]) assert.ok(Math.abs(d - 6) < 0.1, `duration ${d}`);
    assert.equal(await call('player.getPaused()'), false);
    const first = (await call('player.getCurrentTime()')) as number;
    await page.waitForFunction(`player.getCurrentTime().then((t) => t > ${first} + 0.3)`, undefined, { timeout: hangGuardMs, polling: 100 });

    // Qualities: auto and each rung; a rung chosen plays at that rung's size.
    assert.deepEqual(await call('player.getQualities()'), [
      { label: 'Auto', id: 'auto', active: true },
      { label: '360p', id: '360p', active: false },
      { label: '240p', id: '240p', active: false },
    ]);
    mark = await count(page);
    assert.equal(await call('player.setQuality("240p")'), '240p');
    assert.deepEqual(await heard(page, 'qualitychange', mark), { quality: '240p' });
    assert.equal(await call('player.getQuality()'), '240p');
    assert.deepEqual(await call('player.setQuality("1080p").catch((e) => e.name)'), 'TypeError');

    // Paused, so the playhead stays where the seek put it (a loaded machine plays on for a while).
    await call('player.pause()');
    mark = await count(page);
    assert.equal(await call('player.setCurrentTime(4)'), 4);
    const seeked = (await heard(page, 'seeked', mark)) as { seconds: number; percent: number; duration: number };
    assert.deepEqual(seeked, { seconds: 4, percent: Math.round((4 / seeked.duration) * 1000) / 1000, duration: seeked.duration });
    assert.deepEqual(await heard(page, 'chapterchange', mark), { startTime: 3, title: 'Middle', index: 2 });
    assert.deepEqual(await call('player.getCurrentChapter()'), { startTime: 3, title: 'Middle', index: 2 });
    await call('player.play()');
    // The 240p rung is what plays now.
    await page.waitForFunction('player.getVideoHeight().then((h) => h === 240)', undefined, { timeout: hangGuardMs, polling: 100 });

    const ended = (await heard(page, 'ended', mark)) as { seconds: number; percent: number };
    assert.equal(ended.percent, 1);
    assert.equal(await call('player.getEnded()'), true);
    const time = (await heard(page, 'timeupdate')) as { seconds: number; percent: number; duration: number };
    assert.deepEqual(Object.keys(time), ['seconds', 'percent', 'duration']);
  }

  it('@vimeo/player, unmodified, drives the player at player.vimeo.com (mapped to this server) from another origin', async () => {
    const page = await embed('vimeo', `https://player.vimeo.com/videos/${id}/player?loop=0`);
    await scenario(page);
    await page.close();
  });

  it('@reelbase/player-api drives the player at this server’s own address from another origin', async () => {
    const page = await embed('api', `${h.server.url}/videos/${id}/player?loop=0`);
    await scenario(page);
    // off: the page hears no more of that event.
    await page.evaluate('player.off("timeupdate"); heard.length = 0; player.setCurrentTime(1).then(() => player.play())');
    await heard(page, 'play');
    await page.waitForFunction('player.getCurrentTime().then((t) => t > 1.6)', undefined, { timeout: hangGuardMs, polling: 100 });
    assert.equal(await page.evaluate('heard.filter((e) => e[0] === "timeupdate").length'), 0);
    // destroy: the iframe goes, a call still waiting fails.
    assert.equal(await page.evaluate('player.destroy().then(() => document.querySelectorAll("iframe").length)'), 0);
    await page.close();
  });

  /** Subscribes the page to `names` too; answers once the player has registered them (it answers in order). */
  const hear = (page: Page, names: string[]) =>
    page.evaluate(`${JSON.stringify(names)}.forEach(function (name) { player.on(name, function (data) { heard.push([name, data]); }); }); player.getPaused()`);

  it('@reelbase/player-api hears loaded, bufferstart/bufferend, progress, volumechange, playbackratechange (`>`/`<`) and fullscreenchange (`f`)', async () => {
    const page = await embed('api', `${h.server.url}/videos/${id}/player?loop=0`);
    await hear(page, ['loaded', 'bufferstart', 'bufferend', 'progress', 'volumechange', 'playbackratechange', 'fullscreenchange']);
    assert.equal(await page.evaluate('player.setVolume(0.5)'), 0.5);
    assert.deepEqual(await heard(page, 'volumechange'), { volume: 0.5, muted: false });
    // Nothing is loaded before the play (preload none): it waits for data, then plays.
    await page.evaluate('player.play()');
    assert.deepEqual(await heard(page, 'loaded'), { id: Number(id) });
    assert.deepEqual([await heard(page, 'bufferstart'), await heard(page, 'bufferend')], [{}, {}]);
    const progress = (await heard(page, 'progress')) as { seconds: number; percent: number; duration: number };
    assert.deepEqual(Object.keys(progress), ['seconds', 'percent', 'duration']);
    assert.ok(progress.seconds > 0 && progress.percent > 0 && progress.percent <= 1, JSON.stringify(progress));
    // The keys, pressed in the player (the page focuses it): speed up, down; fullscreen and back.
    const player = page.frames().find((f) => f !== page.mainFrame())!.locator('.player');
    let mark = await count(page);
    await player.press('>');
    assert.deepEqual(await heard(page, 'playbackratechange', mark), { playbackRate: 1.25 });
    mark = await count(page);
    await player.press('<');
    assert.deepEqual(await heard(page, 'playbackratechange', mark), { playbackRate: 1 });
    assert.equal(await page.evaluate('player.getPlaybackRate()'), 1);
    mark = await count(page);
    await player.press('f');
    assert.deepEqual(await heard(page, 'fullscreenchange', mark), { fullscreen: true });
    assert.equal(await page.evaluate('player.getFullscreen()'), true);
    mark = await count(page);
    await player.press('f');
    assert.deepEqual(await heard(page, 'fullscreenchange', mark), { fullscreen: false });
    await page.close();
  });

  it('a stream and file that fail to load: the page hears `error` (a MediaError)', async () => {
    const page = await embed('api', `${h.server.url}/videos/${id}/player`, (p) => p.route('**/media/play/**', (route) => route.abort()));
    await hear(page, ['error']);
    await page.evaluate('player.play().catch(() => {})');
    const found = await page.waitForFunction('heard.filter((e) => e[0] === "error" && e[1].name === "MediaError")[0]', undefined, { timeout: hangGuardMs, polling: 50 });
    const error = ((await found.jsonValue()) as [string, { name: string; message: string; method: unknown }])[1];
    assert.deepEqual([error.name, error.method, typeof error.message], ['MediaError', null, 'string']);
    await page.close();
  });

  it('a video being processed: ready, its id, title and URL, and every playback call an UnavailableError', async () => {
    const waiting = await uploadByTus(h, alice.token, await makeClip({ width: 320, height: 240, seconds: 1 }), { name: 'Waiting' });
    const page = await embed('api', `${h.server.url}/videos/${waiting}/player`);
    assert.deepEqual(await page.evaluate('Promise.all([player.getVideoId(), player.getVideoTitle(), player.getVideoUrl()])'), [
      Number(waiting),
      'Waiting',
      `${h.server.url}/videos/${waiting}/player`,
    ]);
    for (const call of ['player.play()', 'player.getDuration()', 'player.setCurrentTime(1)']) {
      assert.deepEqual(await page.evaluate(`${call}.catch((e) => [e.name, e.message])`), ['UnavailableError', 'This video is being processed'], call);
    }
    await page.close();
  });
});
