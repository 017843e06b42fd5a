import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hangGuardMs, startPlayerFixture, type PlayerFixture, browserSkip } from '../src/index';

/** The little of the DOM the page functions use (the tests compile without the DOM library). */
interface BrowserGlobals {
  document: {
    querySelector(selector: string): { readyState: number; duration: number; videoWidth: number; videoHeight: number; currentSrc: string; muted: boolean; play(): Promise<void> } | null;
  };
}

describe('the player page in a real headless browser (Debian chromium)', { skip: browserSkip() }, () => {
  let f: PlayerFixture;
  before(async () => {
    f = await startPlayerFixture({ clip: { width: 320, height: 240, seconds: 3 }, video: { name: 'In the browser' } });
  });
  after(() => f?.stop());

  it('plays the transcoded video: hls.js streams it (duration and size as uploaded)', async () => {
    const { h, alice, id } = f;
    const clip = await h.call('GET', `/videos/${id}`, { token: alice.token });
    assert.deepEqual([clip.body.status, clip.body.duration, clip.body.width, clip.body.height], ['available', 3, 320, 240]);
    const page = await f.browser.newPage();
    try {
      const fetched: string[] = [];
      const logged: string[] = [];
      page.on('requestfinished', (r) => fetched.push(r.url()));
      page.on('console', (m) => logged.push(m.text()));
      const response = await page.goto(clip.body.player_embed_url);
      assert.equal(response?.status(), 200);
      assert.equal(await page.locator('h1.title').textContent(), 'In the browser');
      // Nothing loads before the viewer plays (preload none); muted, a page may start it.
      const started = await page.evaluate(() => {
        const v = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!;
        v.muted = true;
        return v.play().then(
          () => 'playing',
          (e: Error) => `${e.name}: ${e.message}`,
        );
      });
      assert.equal(started, 'playing', `the page's console: ${logged.join(' | ')}`);
      const duration = await page.waitForFunction(
        () => {
          const v = (globalThis as unknown as BrowserGlobals).document.querySelector('video');
          return v && v.readyState >= 1 && v.duration > 0 ? v.duration : null;
        },
        undefined,
        { timeout: hangGuardMs },
      );
      const seconds = (await duration.jsonValue()) as number;
      assert.ok(Math.abs(seconds - 3) < 0.5, `duration ${seconds}`);
      const played = await page.evaluate(() => {
        const v = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!;
        return { size: [v.videoWidth, v.videoHeight], source: v.currentSrc.split(':')[0] };
      });
      assert.deepEqual(played, { size: [320, 240], source: 'blob' }, 'played through MediaSource, as hls.js does');
      assert.ok(fetched.includes(clip.body.play.hls.link), 'the master playlist was fetched');
      // The rendition's playlist, then its map and segments: byte ranges of its one fragmented MP4.
      assert.ok(fetched.some((u) => u.endsWith('/240p.m3u8')), `a rendition playlist was fetched: ${fetched.join(' ')}`);
      assert.ok(fetched.filter((u) => u.endsWith('/240p.mp4')).length >= 2, `its map and a segment were fetched: ${fetched.join(' ')}`);
    } finally {
      await page.close();
    }
  });
});
