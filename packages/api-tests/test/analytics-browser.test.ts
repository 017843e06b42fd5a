import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame } from 'playwright-core';
import { hangGuardMs, until, startPlayerFixture, type Fixture, type Harness, type PlayerFixture, browserSkip } from '../src/index';

/**
 * Analytics from real plays (issue 49) in Debian's chromium: the player embedded by pages on two
 * `*.localhost` sites (chromium sends them to 127.0.0.1) and once with `dnt=1`, each played to its
 * end; the beacons its script sends, folded by the rollup job, give the report's exact counts.
 */
/** The little of the DOM used here (the tests compile without the DOM library). */
interface Video {
  muted: boolean;
  ended: boolean;
  play(): Promise<void>;
}
type Globals = { document: { querySelector(s: string): Video } };

type Event = { type: string; seconds: number };

describe('analytics from plays in a real headless browser', { skip: browserSkip() }, () => {
  let f: PlayerFixture;
  let h: Harness;
  let alice: Fixture;
  let id: string;
  let duration: number;
  let browser: Browser;
  let embedder: Server;
  let port: number;
  before(async () => {
    f = await startPlayerFixture({ clip: { width: 320, height: 240, seconds: 2 }, video: { name: 'Watched' }, args: () => ['--autoplay-policy=no-user-gesture-required'] });
    ({ h, alice, id, browser } = f);
    duration = (await h.call('GET', `/videos/${id}`)).body.duration;
    // A site that embeds whatever player it is asked to.
    embedder = createServer((req, res) => {
      const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>embedder</title><iframe src="${src.replace(/"/g, '')}" allow="autoplay"></iframe>`);
    });
    await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
    port = (embedder.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => embedder?.close(resolve));
    await f?.stop();
  });

  const events = async (): Promise<Event[]> => (await h.service.store.find<Event & { id: string }>('analytics_events', { where: { field: 'video_id', op: 'eq', value: id } })).items;

  /** Plays the player embedded on `host`'s page to its end, and waits for its last beacon when one is expected. */
  async function playEmbedded(host: string, query = '', expectBeacons = true): Promise<void> {
    const before = (await events()).filter((e) => e.type === 'finish').length;
    const page = await browser.newPage();
    const player = `${h.server.url}/videos/${id}/player${query}`;
    await page.goto(`http://${host}:${port}/?src=${encodeURIComponent(player)}`);
    const frame: Frame = await (await page.waitForSelector('iframe')).contentFrame().then((f) => f!);
    await frame.waitForLoadState('load');
    // Functions run in the page: each names the element itself.
    await frame.evaluate(() => {
      const v = (globalThis as unknown as Globals).document.querySelector('#player');
      v.muted = true;
      void v.play().catch(() => {});
    });
    await frame.waitForFunction(() => (globalThis as unknown as Globals).document.querySelector('#player').ended, undefined, { timeout: hangGuardMs });
    if (expectBeacons) {
      await until(async () => (await events()).filter((e) => e.type === 'finish').length > before, 'the finish beacon');
    }
    await page.close();
  }

  it('two embedding sites and a dnt=1 play: the report counts the two, per dimension and day', async () => {
    await playEmbedded('a.localhost');
    // Another half hour: the same viewer's next view counts again.
    h.clock.advance(31 * 60);
    await playEmbedded('b.localhost');
    const counted = (await events()).length;
    await playEmbedded('a.localhost', '?dnt=1', false);
    assert.equal((await events()).length, counted, 'dnt=1 sends nothing');
    h.clock.advance(60);
    // A fold was asked for a minute after each play's first event: both are due now.
    assert.equal(await h.settle(), 2);

    const report = async (query: string) => {
      const r = await h.call('GET', `/me/analytics?from=2026-01-01&to=2026-01-31&${query}`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      return r.body.data as Record<string, unknown>[];
    };
    const [total] = await report('dimension=total');
    assert.deepEqual([total.views, total.impressions, total.finishes, total.unique_viewers], [2, 2, 2, 1]);
    const watched = total.total_time_watched as number;
    assert.ok(Math.abs(watched - 2 * duration) <= 1, `time watched ${watched} s, two plays of ${duration} s`);
    assert.deepEqual((await report('dimension=video')).map((r) => [r.video, r.views, r.finishes]), [[{ uri: `/videos/${id}`, name: 'Watched' }, 2, 2]]);
    const domains = await report('dimension=embed_domain');
    assert.deepEqual(domains.map((r) => [r.embed_domain, r.views, r.impressions, r.finishes]), [['a.localhost', 1, 1, 1], ['b.localhost', 1, 1, 1]]);
    for (const r of domains) assert.ok(Math.abs((r.total_time_watched as number) - duration) <= 1, `${r.embed_domain}: ${r.total_time_watched} s`);
    assert.deepEqual((await report('dimension=device_type')).map((r) => [r.device_type, r.views]), [['desktop', 2]]);
    assert.deepEqual((await report('dimension=total&time_interval=day')).map((r) => [r.start_date, r.views, r.finishes]), [['2026-01-02', 2, 2]]);
    const stranger = await h.user('Bob');
    assert.equal((await h.call('GET', `/users/${alice.user.id}/analytics?from=2026-01-01&to=2026-01-31&dimension=total`, { token: stranger.token })).status, 403);
  });
});
