import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { drivers, Harness, tinyWebm, uploadByTus, type Fixture } from '../src/index';

/** The little of the DOM the page functions use (the tests compile without the DOM library). */
interface BrowserGlobals {
  document: { querySelector(selector: string): { readyState: number; duration: number; videoWidth: number; videoHeight: number } | null };
}

const executablePath = '/usr/bin/chromium';
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

describe('the player page in a real headless browser (Debian chromium)', () => {
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

  it('loads the video metadata (duration > 0) through the file endpoint', async () => {
    assert.ok(
      existsSync(executablePath),
      `${executablePath} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does this) to run the browser test`,
    );
    const webm = tinyWebm({ seconds: 3, width: 64, height: 48 });
    const id = await uploadByTus(h, alice.token, webm, { name: 'In the browser' });
    const clip = await h.call('GET', `/videos/${id}`, { token: alice.token });
    assert.deepEqual([clip.body.status, clip.body.duration, clip.body.width, clip.body.height], ['available', 3, 64, 48]);
    const context = await chromium.launchPersistentContext(profile, { executablePath, args, headless: true, timeout: 30_000 });
    try {
      const page = await context.newPage();
      const response = await page.goto(clip.body.player_embed_url);
      assert.equal(response?.status(), 200);
      assert.equal(await page.locator('h1.title').textContent(), 'In the browser');
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
      const size = await page.evaluate(() => {
        const v = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!;
        return [v.videoWidth, v.videoHeight];
      });
      assert.deepEqual(size, [64, 48]);
    } finally {
      await context.close();
    }
  });
});
