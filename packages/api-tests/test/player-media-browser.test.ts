import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { hangGuardMs, drivers, Harness, makeClip, makeImage, uploadByTus, type Answer, type Fixture, browserSkip, findChromium, putFile } from '../src/index';

/** The little of the DOM the page functions use (the tests compile without the DOM library). */
interface Cue {
  text: string;
}
interface Track {
  mode: string;
  cues: { length: number; [i: number]: Cue } | null;
  activeCues: { length: number } | null;
}
interface Video {
  poster: string;
  muted: boolean;
  currentTime: number;
  currentSrc: string;
  readyState: number;
  textTracks: { length: number; [i: number]: Track };
  play(): Promise<void>;
  pause(): void;
}
interface BrowserGlobals {
  document: { querySelector(selector: string): (Video & { complete: boolean; naturalWidth: number }) | null };
  getComputedStyle(element: object): { opacity: string };
}

const executablePath = findChromium() ?? '';
/** Not committed: the screenshot is for people to look at. */
const outputDir = process.env.REELBASE_TEST_OUTPUT ?? join(tmpdir(), 'reelbase-test-output');
const caption = 'Hello from the captions';
const srt = `1\n00:00:00,500 --> 00:00:02,500\n${caption}\n`;
const clip = makeClip({ width: 640, height: 360, seconds: 3 });

for (const driver of drivers) {
  describe(`the player’s poster, captions and logo in a real headless browser (${driver.name})`, { skip: browserSkip() }, () => {
    let h: Harness;
    let alice: Fixture;
    let browser: Browser;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
    });
    after(async () => {
      await browser?.close();
      await h.stop();
    });

    const ok = (r: Answer, status = 200) => {
      assert.equal(r.status, status, r.text);
      return r.body;
    };
    const put = async (link: string, body: Uint8Array | string, type: string) => {
      const r = await putFile(link, body, alice.token, type);
      assert.ok(r.status < 300, `PUT ${link}: ${r.status} ${await r.text()}`);
    };

    it('shows the poster, loads and shows the captions, the custom logo and no title, with no CSP violation', async () => {
      // Everything through the API, as an owner's app does it.
      const id = await uploadByTus(h, alice.token, await clip, { name: 'Captioned' });
      // The page plays the video's HLS stream once its transcode ran.
      assert.equal(await h.settle(), 1);
      const picture = ok(await h.call('POST', `/videos/${id}/pictures`, { token: alice.token, json: {} }), 201);
      await put(picture.link, await makeImage('jpeg', 1280, 720, '#2c3e50'), 'image/jpeg');
      ok(await h.call('PATCH', picture.uri, { token: alice.token, json: { active: true } }));
      const english = { type: 'captions', language: 'en', name: 'English' };
      const track = ok(await h.call('POST', `/videos/${id}/texttracks`, { token: alice.token, json: english }), 201);
      await put(track.link, srt, 'application/x-subrip');
      ok(await h.call('PATCH', track.uri, { token: alice.token, json: { active: true } }));
      const logo = ok(await h.call('POST', '/me/customlogos', { token: alice.token, json: { active: true } }), 201);
      await put(logo.link, await makeImage('png', 400, 225, '#8e44ad'), 'image/png');
      ok(
        await h.call('PATCH', `/videos/${id}`, {
          token: alice.token,
          json: { embed: { logos: { custom: { active: true, link: 'https://example.com' } }, title: { name: 'hide' } } },
        }),
      );
      const shown = ok(await h.call('GET', `/videos/${id}`));
      assert.equal(shown.status, 'available');
      const poster = shown.pictures.sizes.find((s: { width: number }) => s.width === 1280).link;

      browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox'], timeout: hangGuardMs });
      const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      const posterResponse = page.waitForResponse(poster);
      assert.equal((await page.goto(`${h.server.url}/videos/${id}/player`))?.status(), 200);
      assert.equal((await posterResponse).status(), 200);
      const state = await page.evaluate(() => {
        const d = (globalThis as unknown as BrowserGlobals).document;
        return { poster: d.querySelector('video')!.poster, tracks: d.querySelector('video')!.textTracks.length, title: d.querySelector('h1.title') !== null };
      });
      assert.deepEqual(state, { poster, tracks: 1, title: false }, 'the poster, one track, and no title (embed.title.name hide)');

      // The track loads through media-src once showing; its cue is the SRT's, converted to WebVTT.
      await page.evaluate(() => {
        (globalThis as unknown as BrowserGlobals).document.querySelector('video')!.textTracks[0].mode = 'showing';
      });
      const cues = await page.waitForFunction(
        () => {
          const t = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!.textTracks[0];
          return t.cues && t.cues.length > 0 ? Array.from({ length: t.cues.length }, (_, i) => t.cues![i].text) : null;
        },
        undefined,
        { timeout: hangGuardMs },
      );
      assert.deepEqual(await cues.jsonValue(), [caption]);

      const logoWidth = await page.waitForFunction(
        () => {
          const img = (globalThis as unknown as BrowserGlobals).document.querySelector('.logo img');
          return img?.complete ? img.naturalWidth : null;
        },
        undefined,
        { timeout: hangGuardMs },
      );
      assert.ok(((await logoWidth.jsonValue()) as number) > 0, 'the custom logo’s image loaded');
      assert.equal(await page.getAttribute('a.logo', 'href'), 'https://example.com/');

      // Play muted from inside the cue, and look at it with the controls (and the logo) shown.
      await page.evaluate(async () => {
        const v = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!;
        v.muted = true;
        v.currentTime = 1;
        await v.play();
      });
      await page.waitForFunction(
        () => {
          const v = (globalThis as unknown as BrowserGlobals).document.querySelector('video')!;
          return v.currentTime > 1.3 && (v.textTracks[0].activeCues?.length ?? 0) > 0;
        },
        undefined,
        { timeout: hangGuardMs },
      );
      await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.querySelector('video')!.pause());
      const playing = await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.querySelector('video')!.currentSrc);
      assert.match(playing, /^blob:/, 'Chromium plays the HLS stream through hls.js (a MediaSource), not the progressive fallback');
      await page.hover('video');
      // The logo is not sticky: it shows (fades in) with the controls, while the pointer is on the player.
      await page.waitForFunction(
        () => {
          const g = globalThis as unknown as BrowserGlobals;
          return g.getComputedStyle(g.document.querySelector('.logo')!).opacity === '1';
        },
        undefined,
        { timeout: hangGuardMs },
      );
      mkdirSync(outputDir, { recursive: true });
      const shot = join(outputDir, 'player-captions.png');
      await page.screenshot({ path: shot });
      copyFileSync(shot, '/tmp/player-captions.png');
      console.log(`player screenshot: ${shot}`);
      assert.deepEqual(violations, []);
    });
  });
}
