import { chromium, type Browser } from 'playwright-core';
import { findChromium } from './browser';
import { hangGuardMs } from './hang-guard';
import { makeClip, type ClipOptions } from './clips';
import { drivers } from './drivers';
import { Harness, type Fixture } from './harness';
import { uploadByTus } from './media';

/** What a player test in chromium starts from: a server, its owner, one transcoded video and a browser. */
export interface PlayerFixture {
  h: Harness;
  alice: Fixture;
  /** The uploaded video, transcoded (without `clip`, a video without a file). */
  id: string;
  browser: Browser;
  /** Closes the browser and stops the server (what was started, when `startPlayerFixture` failed half-way). */
  stop(): Promise<void>;
}

export interface PlayerFixtureOptions {
  /** The clip to upload; without one the video has no file (a page that tests only the page). */
  clip?: ClipOptions;
  /** The video's fields on creation (its name, privacy…). */
  video: Record<string, unknown>;
  /** The server's options (Harness.start's third argument), e.g. `trustProxy`. */
  server?: Parameters<typeof Harness.start>[2];
  /** More chromium flags, given the started server (a flag may name a port of something in front of it). */
  args?: (h: Harness) => Promise<string[]> | string[];
}

/**
 * The preamble the chromium player tests share, done once per file: a SQLite server and Alice,
 * the clip made while Debian's chromium (headless) starts, uploaded by tus and transcoded.
 */
export async function startPlayerFixture(o: PlayerFixtureOptions): Promise<PlayerFixture> {
  const h = await Harness.start(drivers[0], {}, o.server);
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await h.stop();
  };
  let launching: Promise<Browser> | undefined;
  try {
    const args = ['--headless', '--no-sandbox', '--disable-gpu', ...((await o.args?.(h)) ?? [])];
    // The browser starts while the clip is made, uploaded and transcoded.
    launching = chromium.launch({ executablePath: findChromium() ?? '', args, timeout: hangGuardMs });
    const alice = await h.user('Alice');
    const id = o.clip ? await uploadByTus(h, alice.token, await makeClip(o.clip), o.video) : await h.video(alice, o.video);
    await h.settle();
    browser = await launching;
    return { h, alice, id, browser, stop };
  } catch (e) {
    browser = await launching?.catch(() => undefined);
    await stop();
    throw e;
  }
}
