import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { hangGuardMs, startPlayerFixture, type Answer, type Fixture, type Harness, type PlayerFixture, browserSkip } from '../src/index';

/**
 * Adaptive playback in a real headless browser (Debian chromium): the player plays the HLS stream
 * through hls.js, served by this server, under its CSP; without hls.js, or when the stream fails,
 * it plays the progressive rendition. Chromium answers "maybe" to the HLS type, but the player
 * keeps native HLS for Safari (ManagedMediaSource): a stand-in for it here takes that path.
 */

/** The little of the DOM the page functions use (the tests compile without the DOM library). */
interface Cue {
  text: string;
}
interface Video {
  muted: boolean;
  currentTime: number;
  currentSrc: string;
  textTracks: { length: number; [i: number]: { label: string; mode: string; cues: { length: number; [i: number]: Cue } | null } };
  play(): Promise<void>;
}
interface BrowserGlobals {
  document: { querySelector(selector: string): Video | null; addEventListener(type: string, listener: (e: { violatedDirective: string; blockedURI: string }) => void): void };
  Hls?: unknown;
  MediaSource: unknown;
  ManagedMediaSource?: unknown;
  violations: string[];
}

const caption = 'Hello from the captions';
const hlsFile = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js');

describe('the player plays HLS in a real headless browser (sqlite)', { skip: browserSkip() }, () => {
  let f: PlayerFixture;
  let h: Harness;
  let alice: Fixture;
  let id: string;
  let browser: Browser;
  before(async () => {
    f = await startPlayerFixture({ clip: { width: 1280, height: 720, seconds: 8 }, video: { name: 'Adaptive' } });
    ({ h, alice, id, browser } = f);
    const english = { type: 'captions', language: 'en', name: 'English', active: true };
    const track = ok(await h.call('POST', `/videos/${id}/texttracks`, { token: alice.token, json: english }), 201);
    const srt = `1\n00:00:00,500 --> 00:00:07,500\n${caption}\n`;
    const put = await fetch(track.link, { method: 'PUT', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'text/plain' }, body: srt });
    assert.ok(put.ok, `the captions: ${put.status}`);
  });
  after(() => f?.stop());

  function ok(r: Answer, status = 200) {
    assert.equal(r.status, status, r.text);
    return r.body;
  }

  /** A new page on the player that records every request and every CSP violation (events and console). */
  async function openPlayer(setup: (page: Page) => Promise<unknown> = async () => {}) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const requests: string[] = [];
    // What the <video> element itself loads (not hls.js's fetches): the progressive file.
    const mediaRequests: string[] = [];
    page.on('request', (r) => {
      requests.push(r.url());
      if (r.resourceType() === 'media') mediaRequests.push(r.url());
    });
    const logged: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) logged.push(m.text());
    });
    await page.addInitScript(() => {
      const w = globalThis as unknown as BrowserGlobals;
      w.violations = [];
      w.document.addEventListener('securitypolicyviolation', (e) => void w.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await setup(page);
    const response = await page.goto(`${h.server.url}/videos/${id}/player`);
    assert.equal(response?.status(), 200);
    const violations = async () => [...logged, ...(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).violations))];
    const html = await response!.text();
    // The page's own <video src>, before any script replaced it.
    const src = /<video id="player" src="([^"]+)"/.exec(html)![1];
    return { page, requests, mediaRequests, violations, src, csp: (await response!.allHeaders())['content-security-policy'] };
  }

  /** Plays muted (a play() that a fallback interrupts is started again by the player) and waits until 1.5 s have played. */
  async function playPast(page: Page, seconds = 1.5): Promise<string> {
    await page.evaluate(() => {
      const v = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!;
      v.muted = true;
      void v.play().catch(() => {});
    });
    await page.waitForFunction((s) => (globalThis as unknown as BrowserGlobals).document.querySelector('video')!.currentTime > s, seconds, { timeout: hangGuardMs });
    return page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.querySelector('video')!.currentSrc);
  }

  it('serves hls.js and the player script from this server: JavaScript, cacheable for a day, 304 when unchanged', async () => {
    for (const [path, expected] of [
      ['/static/player/hls.min.js', readFileSync(hlsFile)],
      ['/static/player/player.js', null],
    ] as const) {
      const r = await fetch(h.server.url + path);
      const body = Buffer.from(await r.arrayBuffer());
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(r.headers.get('cache-control'), 'public, max-age=86400');
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(Number(r.headers.get('content-length')), body.length);
      if (expected) assert.ok(body.equals(expected), 'node_modules’ hls.js build, as it is');
      else assert.match(body.toString(), /new Hls\(\{ capLevelToPlayerSize: true, /);
      const etag = r.headers.get('etag')!;
      const modified = r.headers.get('last-modified')!;
      assert.match(etag, /^"[\w-]{27}"$/);
      assert.ok(Date.parse(modified) <= Date.now());
      const conditionals: Record<string, string>[] = [{ 'if-none-match': etag }, { 'if-none-match': `"other", W/${etag}` }, { 'if-modified-since': modified }];
      for (const conditional of conditionals) {
        const again = await fetch(h.server.url + path, { headers: conditional });
        assert.deepEqual([again.status, again.headers.get('etag'), await again.text()], [304, etag, ''], JSON.stringify(conditional));
      }
      assert.equal((await fetch(h.server.url + path, { headers: { 'if-none-match': '"other"', 'if-modified-since': modified } })).status, 200, 'If-None-Match decides');
      const head = await fetch(h.server.url + path, { method: 'HEAD' });
      assert.deepEqual([head.status, head.headers.get('content-length'), await head.text()], [200, String(body.length), '']);
    }
    assert.equal((await fetch(`${h.server.url}/static/player/other.js`)).status, 404);
  });

  it('plays the stream through hls.js: the master, rendition playlists and segments load, MediaSource plays, captions show, no CSP violation', async () => {
    const { page, requests, mediaRequests, violations, src, csp } = await openPlayer();
    const origin = new URL(h.server.url).origin;
    assert.equal(
      csp.split('; ').filter((d) => /^(script|media|connect|worker)-src /.test(d)).join('; '),
      `script-src 'self' ${origin}; media-src 'self' ${origin} blob:; connect-src 'self' ${origin}; worker-src blob:`,
    );
    assert.equal(await page.evaluate(() => typeof (globalThis as unknown as BrowserGlobals).Hls), 'function', 'hls.js loaded from this server');
    assert.deepEqual(requests.filter((u) => /\.(m3u8|ts|mp4)$/.test(u)), [], 'nothing of the video loads before it plays');

    assert.match(src, /\/720p\.mp4$/, 'the progressive fallback is the 720p rendition');
    assert.match(await playPast(page), /^blob:/, 'hls.js plays through MediaSource');
    const path = (u: string) => new URL(u).pathname;
    assert.equal(requests.filter((u) => path(u).endsWith('/master.m3u8')).length, 1);
    assert.ok(requests.some((u) => /\/\d+p\.m3u8$/.test(path(u))), `a rendition playlist: ${requests.join('\n')}`);
    // Its segments are byte ranges of the rendition's one fragmented MP4: its map, then two segments or more.
    assert.ok(requests.filter((u) => /\/\d+p\.mp4$/.test(path(u))).length >= 3, `the map and two segments or more: ${requests.join('\n')}`);
    assert.deepEqual(mediaRequests.filter((u) => path(u).endsWith('.mp4')), [], 'the <video> does not fetch the progressive file');
    assert.ok(requests.every((u) => u.startsWith(`${origin}/`) || u.startsWith('blob:')), 'everything from this server');

    // The page's <track> is left alone by hls.js: the default captions show and their cue loads.
    const cues = await page.waitForFunction(
      () => {
        const t = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!.textTracks[0];
        return t.mode === 'showing' && t.cues?.length ? [t.label, t.cues[0].text] : null;
      },
      undefined,
      { timeout: hangGuardMs },
    );
    assert.deepEqual(await cues.jsonValue(), ['English', caption]);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('shows the storyboard tile of the time under the pointer over the seek bar, before anything plays, with no CSP violation', async () => {
    const { page, requests, violations } = await openPlayer();
    const board = (await page.getAttribute('video', 'data-storyboard'))!;
    assert.match(board, /\/storyboard\.vtt$/);
    assert.equal(await page.isHidden('.storyboard'), true);
    // Along the bottom of an 8 s video, at 6.5 s: the tile of second 6.
    const at = { x: (1280 * 6.5) / 8, y: 720 - 20 };
    await page.mouse.move(at.x, at.y);
    const tile = await page.waitForFunction(
      () => {
        const box = (globalThis as unknown as { document: { querySelector(s: string): { hidden: boolean; style: Record<string, string> } } }).document.querySelector('.storyboard')!;
        if (box.hidden) return null;
        return [box.style.backgroundImage, box.style.backgroundPosition, box.style.width, box.style.height];
      },
      undefined,
      { timeout: hangGuardMs, polling: 100 },
    );
    const [image, position, width, height] = (await tile.jsonValue()) as string[];
    const vtt = await (await fetch(board)).text();
    const sixth = /00:00:06\.000 --> [^\n]+\n(storyboard-\d+\.jpg)#xywh=(\d+),(\d+),(\d+),(\d+)/.exec(vtt)!;
    assert.equal(image, `url("${new URL(sixth[1], board).href}")`);
    assert.deepEqual([position, width, height], [`-${sixth[2]}px ${sixth[3] === '0' ? '0px' : `-${sixth[3]}px`}`, `${sixth[4]}px`, `${sixth[5]}px`]);
    assert.ok(requests.some((u) => u.endsWith('/storyboard-0.jpg')), 'the sheet loaded');
    assert.deepEqual(requests.filter((u) => /\.(m3u8|mp4)$/.test(u)), [], 'hovering plays nothing');
    await page.mouse.move(at.x, 100);
    assert.equal(await page.isHidden('.storyboard'), true, 'away from the seek bar, no tile');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('hls.js blocked: the progressive 720p MP4 plays, with no CSP violation', async () => {
    const { page, requests, violations, src } = await openPlayer((p) => p.route('**/hls.min.js', (route) => route.abort()));
    assert.equal(await page.evaluate(() => typeof (globalThis as unknown as BrowserGlobals).Hls), 'undefined');
    assert.equal(await playPast(page), src);
    assert.match(src, /\/720p\.mp4$/);
    assert.deepEqual(requests.filter((u) => u.includes('.m3u8')), [], 'Chromium’s own HLS is not used');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('the stream fails (its master playlist does not load): hls.js gives up and the progressive MP4 plays', async () => {
    const { page, requests, violations, src } = await openPlayer((p) => p.route('**/master.m3u8', (route) => route.abort()));
    assert.equal(await playPast(page), src);
    assert.ok(requests.some((u) => u.endsWith('/master.m3u8')), 'hls.js tried the stream first');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('native HLS where the browser plays it well (Safari, known by ManagedMediaSource): the video plays the master playlist itself', async () => {
    const { page, violations } = await openPlayer((p) =>
      // Chromium's own MediaSource under Safari's name (a named function would not survive tsx's __name).
      p.addInitScript(() => {
        const w = globalThis as unknown as BrowserGlobals;
        w.ManagedMediaSource = w.MediaSource;
      }),
    );
    assert.equal(await playPast(page, 1), await page.getAttribute('video', 'data-hls'));
    assert.deepEqual(await violations(), []);
    await page.close();
  });
});
