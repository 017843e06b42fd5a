import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { hangGuardMs, browserSkip, drivers, findChromium, Harness, makeClip, uploadByTus, type Fixture } from '../src/index';

/** The little of the DOM the page functions use (the tests compile without the DOM library). */
interface PageGlobals {
  document: {
    body: { getAttribute(name: string): string | null };
    querySelector(selector: string): { muted: boolean; paused: boolean; currentTime: number; play(): Promise<void> } | null;
    addEventListener(type: string, listener: (e: { violatedDirective: string; blockedURI: string }) => void): void;
  };
  violations: string[];
}

/**
 * The album's player in a real headless browser (Debian chromium): it plays the first video of
 * the album and, at its end, goes on to the second, which plays at once.
 */
describe('the album player moves to the next video in a real headless browser (sqlite)', { skip: browserSkip() }, () => {
  let h: Harness;
  let alice: Fixture;
  let browser: Browser;
  let album: string;
  const videos: string[] = [];
  before(async () => {
    h = await Harness.start(drivers[0]);
    alice = await h.user('Alice');
    const [first, second, launched] = await Promise.all([
      makeClip({ width: 320, height: 240, seconds: 1 }),
      makeClip({ width: 320, height: 240, seconds: 2 }),
      // Autoplay of the next video's sound is the embedding page's to allow (`allow="autoplay"`); here, the browser's.
      chromium.launch({ executablePath: findChromium() ?? '', args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'], timeout: hangGuardMs }),
    ]);
    browser = launched;
    videos.push(await uploadByTus(h, alice.token, first, { name: 'First' }), await uploadByTus(h, alice.token, second, { name: 'Second' }));
    await h.settle();
    const r = await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Two in a row', description: '' } });
    album = r.body.uri.split('/').pop();
    const added = await h.call('PUT', `/me/albums/${album}/videos`, { token: alice.token, json: { videos: videos.map((v) => `/videos/${v}`) } });
    assert.equal(added.status, 201, added.text);
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('plays the first video, and at its end the second, with no CSP violation', async () => {
    const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
    try {
      await page.addInitScript(() => {
        const w = globalThis as unknown as PageGlobals;
        w.violations = [];
        w.document.addEventListener('securitypolicyviolation', (e) => void w.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const response = await page.goto(`${h.server.url}/albums/${album}/embed`);
      assert.equal(response?.status(), 200);
      assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.getAttribute('data-video-id')), videos[0]);
      const next = await page.getAttribute('video', 'data-next');
      assert.equal(next, `${h.server.url}/albums/${album}/embed?video=${videos[1]}#play`);
      await page.evaluate(() => {
        const v = (globalThis as unknown as PageGlobals).document.querySelector('video')!;
        v.muted = true;
        void v.play().catch(() => {});
      });
      await page.waitForURL(next!, { timeout: hangGuardMs });
      assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.getAttribute('data-video-id')), videos[1]);
      await page.waitForFunction(() => {
        const v = (globalThis as unknown as PageGlobals).document.querySelector('video')!;
        return !v.paused && v.currentTime > 0.5;
      }, undefined, { timeout: hangGuardMs });
      assert.equal(await page.getAttribute('video', 'data-next'), null, 'the last video has no next');
      assert.deepEqual(await page.evaluate(() => (globalThis as unknown as PageGlobals).violations), []);
    } finally {
      await page.close();
    }
  });
});
