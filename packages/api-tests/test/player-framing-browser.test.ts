import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { startPlayerFixture, type Fixture, type Harness, type PlayerFixture, browserSkip } from '../src/index';

/**
 * The player's security headers as a real browser (Debian chromium) applies them: the CSP lets the
 * page's own inline style through and reports no violation, and frame-ancestors follows
 * privacy.embed. Pages on `*.localhost` origins (which chromium sends to 127.0.0.1) frame the player.
 */

/** The little of the DOM used here (the tests compile without the DOM library). */
interface BrowserGlobals {
  document: { querySelector(selector: string): object | null };
  getComputedStyle(element: object): { color: string };
}

describe('the player page’s CSP in a real headless browser', { skip: browserSkip() }, () => {
  let f: PlayerFixture;
  let h: Harness;
  let alice: Fixture;
  let id: string;
  let embedder: Server;
  let embedderPort: number;
  let context: BrowserContext;
  before(async () => {
    f = await startPlayerFixture({ video: { name: 'Framed', privacy: { view: 'anybody' } } });
    ({ h, alice, id } = f);
    // A site that embeds whatever player it is asked to.
    embedder = createServer((req, res) => {
      const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>embedder</title><iframe src="${src.replace(/"/g, '')}"></iframe>`);
    });
    await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
    embedderPort = (embedder.address() as AddressInfo).port;
    context = await f.browser.newContext();
  });
  after(async () => {
    await new Promise((resolve) => embedder?.close(resolve));
    await f?.stop();
  });

  const playerUrl = () => `${h.server.url}/videos/${id}/player`;
  /** One tab for every navigation: opening tabs is the slow part. */
  const tab = async () => context.pages()[0] ?? (await context.newPage());

  /** Loads an embedding page on `host` and tells whether the player inside rendered. */
  async function framed(host: string): Promise<boolean> {
    const page = await tab();
    await page.goto(`http://${host}:${embedderPort}/?src=${encodeURIComponent(playerUrl())}`, { waitUntil: 'load' });
    const frame = page.frames().find((f) => f !== page.mainFrame());
    assert.ok(frame, 'the embedding page has its iframe');
    // A frame its CSP refuses is replaced by the browser's error page.
    return frame.url() === playerUrl() && (await frame.locator('h1.title').count()) === 1;
  }

  const setEmbed = async (embed: string) =>
    assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { embed } } })).status, 200);

  it('applies the page’s own inline style (allowed by its hash) and reports no CSP violation', async () => {
    const page = await tab();
    const violations: string[] = [];
    const listen = (message: { text(): string }) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    };
    page.on('console', listen);
    try {
      assert.equal((await page.goto(playerUrl()))?.status(), 200);
      const color = await page.evaluate(() => {
        const g = globalThis as unknown as BrowserGlobals;
        return g.getComputedStyle(g.document.querySelector('h1.title')!).color;
      });
      assert.equal(color, 'rgb(0, 173, 239)', 'the title takes the embed color from the hashed style');
      assert.deepEqual(violations, []);
    } finally {
      page.off('console', listen);
    }
  });

  it('privacy.embed public: any site frames the player', async () => {
    await setEmbed('public');
    assert.equal(await framed('elsewhere.localhost'), true);
  });

  it('privacy.embed private: no site frames it', async () => {
    await setEmbed('private');
    assert.equal(await framed('elsewhere.localhost'), false);
  });

  it('privacy.embed whitelist: the listed domain and its subdomains frame it, other sites do not', async () => {
    await setEmbed('whitelist');
    assert.equal((await h.call('PUT', `/videos/${id}/privacy/domains/allowed.localhost`, { token: alice.token })).status, 204);
    assert.deepEqual(
      [await framed('allowed.localhost'), await framed('www.allowed.localhost'), await framed('elsewhere.localhost')],
      [true, true, false],
    );
  });
});
