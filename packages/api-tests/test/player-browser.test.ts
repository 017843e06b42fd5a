import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { drivers, Harness, makeClip, uploadByTus, type Fixture, browserSkip, findChromium } from '../src/index';

/** The little of the DOM the page functions use (the tests compile without the DOM library). */
interface BrowserGlobals {
  document: {
    querySelector(selector: string): { readyState: number; duration: number; videoWidth: number; videoHeight: number; currentSrc: string; muted: boolean; play(): Promise<void> } | null;
  };
}

const executablePath = findChromium() ?? '';
const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('the player page in a real headless browser (Debian chromium)', { skip: browserSkip() }, () => {
  let h: Harness;
  let alice: Fixture;
  let profile: string;
  before(async () => {
    h = await Harness.start(drivers[0]);
    alice = await h.user('Alice');
    profile = mkdtempSync(join(tmpdir(), 'reelbase-chromium-'));
  });
  after(async () => {
    await h.stop();
    rmSync(profile, { recursive: true, force: true });
  });

  it('plays the transcoded video: hls.js streams it (duration and size as uploaded)', async () => {
    const id = await uploadByTus(h, alice.token, await makeClip({ width: 320, height: 240, seconds: 3 }), { name: 'In the browser' });
    assert.equal(await h.settle(), 1);
    const clip = await h.call('GET', `/videos/${id}`, { token: alice.token });
    assert.deepEqual([clip.body.status, clip.body.duration, clip.body.width, clip.body.height], ['available', 3, 320, 240]);
    const context = await chromium.launchPersistentContext(profile, { executablePath, args, headless: true, timeout: 30_000 });
    try {
      const page = await context.newPage();
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
        { timeout: 20_000 },
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
      await context.close();
    }
  });
});
