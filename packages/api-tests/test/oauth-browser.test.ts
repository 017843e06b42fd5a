import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { hangGuardMs, account, authorizeUrl, browserSkip, drivers, findChromium, Harness, registerApp, type TestApp } from '../src/index';

/**
 * The sign-in and consent pages in Debian's chromium (issue 35): no script of ours runs (the CSP
 * allows none); the forms alone sign in, allow and deny. The app's redirect URI is a loopback
 * server of the test's own (the browser never leaves the machine).
 */

interface BrowserGlobals {
  document: { querySelector(selector: string): { remove(): void } | null };
}

const executablePath = findChromium() ?? '';
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Not committed: the screenshot is for people to look at. */
const outputDir = process.env.REELBASE_TEST_OUTPUT ?? join(tmpdir(), 'reelbase-test-output');
const person = { email: 'mae@example.com', password: 'the password of mae' };

describe('the sign-in and consent pages in a real headless browser (Debian chromium)', { skip: browserSkip() }, () => {
  let h: Harness;
  let app: TestApp;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  let appServer: Server;
  let appOrigin: string;
  const errors: string[] = [];

  before(async () => {
    h = await Harness.start(drivers[0]);
    appServer = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('the app'));
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
    appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
    app = await registerApp(h, (await h.user('Studio')).user, { name: 'Clip Organiser', redirectUris: [`${appOrigin}/callback`] });
    await account(h, 'Mae', person.email, person.password);
    profile = mkdtempSync(join(tmpdir(), 'reelbase-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath, args, headless: true, timeout: hangGuardMs });
    page = await context.newPage();
    // What a CSP refusal prints (a 400 or 403 page the tests ask for prints its own line).
    page.on('console', (m) => (/Content Security Policy/.test(m.text()) ? errors.push(m.text()) : undefined));
  });
  after(async () => {
    await context?.close();
    await h?.stop();
    appServer?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  const open = (state: string) => page.goto(h.server.url + authorizeUrl(app, { scope: 'public private upload', state }));

  it('a wrong password shows the sign-in page again, saying so', async () => {
    await open('one');
    await page.fill('input[name=email]', person.email);
    await page.fill('input[name=password]', 'not the password');
    const answer = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    assert.equal(answer[0]?.status(), 400);
    assert.equal(await page.locator('[role=alert]').textContent(), 'Wrong email or password.');
  });

  it('signs in, shows what the app asks, and Allow lands on the redirect URI with a code and the state', async () => {
    await open('two');
    await page.fill('input[name=email]', person.email);
    await page.fill('input[name=password]', person.password);
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
    assert.equal(await page.locator('h1').textContent(), 'Allow Clip Organiser?');
    const asks = await page.locator('li strong').allTextContents();
    assert.deepEqual(asks, ['public', 'private', 'upload']);
    mkdirSync(outputDir, { recursive: true });
    const shot = join(outputDir, 'oauth-consent.png');
    await page.screenshot({ path: shot });
    console.log(`consent page screenshot: ${shot}`);
    await Promise.all([page.waitForURL((url) => url.origin === appOrigin), page.click('button[value=allow]')]);
    const at = new URL(page.url());
    assert.equal(`${at.origin}${at.pathname}`, app.redirectUri);
    assert.match(at.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(at.searchParams.get('state'), 'two');
  });

  it('asks again next time; Deny lands on the redirect URI with access_denied', async () => {
    await open('three');
    await Promise.all([page.waitForURL((url) => url.origin === appOrigin), page.click('button[value=deny]')]);
    const at = new URL(page.url());
    assert.equal(at.searchParams.get('error'), 'access_denied');
    assert.equal(at.searchParams.get('state'), 'three');
    assert.equal(at.searchParams.get('code'), null);
  });

  it('a form whose CSRF token was removed is refused with 403', async () => {
    await open('four');
    await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.querySelector('form[action="/oauth/authorize"] input[name=csrf_token]')!.remove());
    const [answer] = await Promise.all([page.waitForNavigation(), page.click('button[value=allow]')]);
    assert.equal(answer?.status(), 403);
    assert.equal(new URL(page.url()).origin, h.server.url);
  });

  it('loaded nothing the CSP refused', () => {
    assert.deepEqual(errors, []);
  });
});
