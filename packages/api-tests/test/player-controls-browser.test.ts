import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { hangGuardMs, startPlayerFixture, uploadByTus, type Answer, type Fixture, type Harness, type PlayerFixture, browserSkip } from '../src/index';

/**
 * The player as a viewer meets it, in Debian's chromium: the embed URL's parameters (autoplay,
 * muted, `#t=`, controls=0), the keyboard without tabbing in, a click on the picture, the player's
 * own menu (quality, captions, speed, chapters, download) and what a video that cannot play says.
 * Page functions are strings (the tests compile without the DOM library), so the pages bypass the
 * player's CSP, which forbids evaluating strings; player-hls-browser.test.ts checks the CSP.
 */
describe('the player’s parameters, keyboard and controls in a real headless browser (sqlite)', { skip: browserSkip() }, () => {
  let f: PlayerFixture;
  let h: Harness;
  let alice: Fixture;
  let id: string;
  let browser: Browser;
  before(async () => {
    f = await startPlayerFixture({ clip: { width: 640, height: 360, seconds: 6 }, video: { name: 'Keys', privacy: { view: 'anybody', download: true } } });
    ({ h, alice, id, browser } = f);
    const ok = (r: Answer, status: number) => (assert.equal(r.status, status, r.text), r.body);
    const track = ok(await h.call('POST', `/videos/${id}/texttracks`, { token: alice.token, json: { type: 'captions', language: 'en', name: 'English', active: true } }), 201);
    const put = await fetch(track.link, { method: 'PUT', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'text/plain' }, body: '1\n00:00:00,500 --> 00:00:05,500\nHello\n' });
    assert.ok(put.ok, `the captions: ${put.status}`);
    for (const [title, timecode] of [['Opening', 0], ['Middle', 3]] as const) ok(await h.call('POST', `/videos/${id}/chapters`, { token: alice.token, json: { title, timecode } }), 201);
  });
  after(() => f?.stop());

  /** The rendition playlists each page asked for, in order. */
  const renditions = new WeakMap<Page, string[]>();

  /** Opens the player with `query` and `hash`, and waits until its script ran. */
  async function open(query = '', hash = ''): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 640, height: 360 }, bypassCSP: true });
    const asked: string[] = [];
    renditions.set(page, asked);
    page.on('request', (r) => {
      const name = /\/(\d+p)\.m3u8$/.exec(new URL(r.url()).pathname)?.[1];
      if (name) asked.push(name);
    });
    const response = await page.goto(`${h.server.url}/videos/${id}/player${query}${hash}`);
    assert.equal(response?.status(), 200);
    await page.waitForFunction('window.reelbasePlayer', undefined, { timeout: hangGuardMs });
    return page;
  }
  const time = (page: Page) => page.evaluate('document.querySelector("video").currentTime') as Promise<number>;
  const playingPast = (page: Page, seconds: number) =>
    page.waitForFunction(`!document.querySelector("video").paused && document.querySelector("video").currentTime > ${seconds}`, undefined, { timeout: hangGuardMs, polling: 50 });

  it('autoplay=1&muted=1 plays without a click, from #t=3 (the hash the server never sees), at the rung that fits', async () => {
    const page = await open('?autoplay=1&muted=1', '#t=3');
    await playingPast(page, 3);
    assert.equal(await page.evaluate('document.querySelector("video").muted'), true);
    assert.ok((await time(page)) < 5, 'started at 3 s, not played through from 0');
    // A 640×360 player on a fast link starts at the 360p rung, not at hls.js's cautious lowest one.
    assert.equal(renditions.get(page)![0], '360p');
    await page.close();
  });

  it('space plays and pauses without tabbing in, → moves 5 s, and a click on the picture plays', async () => {
    const page = await open('?muted=1');
    await page.keyboard.press('Space');
    await playingPast(page, 0.2);
    await page.keyboard.press('k');
    await page.waitForFunction('document.querySelector("video").paused', undefined, { timeout: hangGuardMs });
    const before = await time(page);
    await page.keyboard.press('ArrowRight');
    assert.ok(Math.abs((await time(page)) - before - 5) < 0.01, `→ moves 5 s from ${before}`);
    await page.keyboard.press('0');
    assert.equal(await time(page), 0);
    // A click on the middle of the picture plays (no spinner that never ends).
    await page.mouse.click(320, 150);
    await playingPast(page, 0.3);
    await page.close();
  });

  it('controls=0 shows none: no browser controls, no menu, no title; keyboard=0 takes no keys', async () => {
    const page = await open('?controls=0&keyboard=0&muted=1');
    assert.deepEqual(
      await page.evaluate('[document.querySelector("video").controls, !!document.querySelector(".settings"), !!document.querySelector(".title"), !!document.querySelector(".corner")]'),
      [false, false, false, false],
    );
    await page.keyboard.press('Space');
    assert.equal(await page.evaluate('document.querySelector("video").paused'), true);
    await page.close();
  });

  it('the menu offers auto and each rung, off and each caption track, speeds 0.5–2, the chapters (also marked on the seek bar) and the download', async () => {
    const page = await open('?quality=240p');
    await page.click('.settings > button');
    const sections = await page.evaluate(
      '[...document.querySelectorAll(".menu section")].map((s) => [s.getAttribute("aria-label"), [...s.querySelectorAll("button, a")].map((b) => b.textContent + (b.getAttribute("aria-checked") === "true" ? " ✓" : ""))])',
    );
    assert.deepEqual(sections, [
      ['Quality', ['Auto', '360p', '240p ✓']],
      ['Captions', ['Off', 'English ✓']],
      ['Speed', ['0.5×', '0.75×', 'Normal ✓', '1.25×', '1.5×', '2×']],
      ['Chapters', ['Opening ✓', 'Middle']],
      ['Download', ['Download']],
    ]);
    assert.equal(await page.getAttribute('.menu a', 'href'), `${h.server.url}/videos/${id}/file?download=true`);
    await page.click('.menu button:text("1.5×")');
    await page.click('.menu button:text("Off")');
    await page.click('.menu button:text("Middle")');
    assert.deepEqual(
      await page.evaluate('const v = document.querySelector("video"); [v.playbackRate, v.textTracks[0].mode, v.currentTime]'),
      [1.5, 'disabled', 3],
    );
    // The second chapter's mark, halfway along the 6 s clip (the first starts at 0: no mark).
    assert.equal(await page.evaluate('document.querySelectorAll(".marks span").length'), 1);
    const left = (await page.evaluate('document.querySelector(".marks span").style.left')) as string;
    assert.ok(Math.abs(parseFloat(left) - 50) < 0.5, left);
    await page.close();
  });

  it('autopause: a player that starts pauses the others on the page, except one that says autopause=0', async () => {
    const page = await browser.newPage({ bypassCSP: true });
    const src = (query: string) => `${h.server.url}/videos/${id}/player?muted=1${query}`;
    // A page of this server's origin (its root, whatever it answers) holds the three: an
    // about:blank page has no origin frame-ancestors admits.
    await page.goto(`${h.server.url}/`);
    await page.setContent(`<iframe src="${src('')}"></iframe><iframe src="${src('')}"></iframe><iframe src="${src('&autopause=0')}"></iframe>`);
    const [a, b, c] = page.frames().slice(1);
    for (const frame of [a, b, c]) await frame.waitForFunction('window.reelbasePlayer', undefined, { timeout: hangGuardMs });
    const paused = 'document.querySelector("video").paused';
    const playing = `!${paused}`;
    const start = async (frame: typeof a) => {
      await frame.evaluate('document.querySelector("video").play()');
      await frame.waitForFunction(playing, undefined, { timeout: hangGuardMs });
    };
    await start(a);
    await start(b);
    await a.waitForFunction(paused, undefined, { timeout: hangGuardMs });
    await start(c);
    await b.waitForFunction(paused, undefined, { timeout: hangGuardMs });
    await start(a);
    await b.waitForFunction(paused, undefined, { timeout: hangGuardMs });
    assert.equal(await c.evaluate(paused), false, 'autopause=0 plays on');
    await page.close();
  });

  it('the storyboard tile shows over the seek bar only, above the row of buttons, never over them', async () => {
    const page = await open();
    const shown = 'document.querySelector(".storyboard").hidden === false';
    // Over the seek bar: the tile, wholly above the row of buttons (35–60 px from the bottom).
    await page.mouse.move(320, 360 - 20);
    await page.waitForFunction(shown, undefined, { timeout: hangGuardMs, polling: 100 });
    const bottom = (await page.evaluate('document.querySelector(".storyboard").getBoundingClientRect().bottom')) as number;
    assert.ok(bottom <= 360 - 64, `the tile ends ${360 - bottom} px from the bottom`);
    // Over the mute button's row: no tile.
    await page.mouse.move(560, 360 - 45);
    assert.equal(await page.evaluate(shown), false);
    await page.close();
  });

  it('a video whose transcode failed says so, with no play button', async () => {
    const broken = await uploadByTus(h, alice.token, Buffer.from('not a video at all'), { name: 'Broken', privacy: { view: 'anybody' } });
    await h.settle();
    const page = await browser.newPage({ bypassCSP: true });
    await page.goto(`${h.server.url}/videos/${broken}/player`);
    // No player: only the protocol, which answers an embedding page that nothing plays.
    assert.deepEqual(
      await page.evaluate('[document.querySelector(".state").textContent, document.querySelectorAll("video").length, [...document.scripts].map((s) => new URL(s.src).pathname)]'),
      ['This video couldn’t be processed', 0, ['/static/player/protocol.js']],
    );
    await page.close();
  });
});
