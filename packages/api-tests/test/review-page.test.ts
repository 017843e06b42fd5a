import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, uploadByTus, type Fixture } from '../src/index';

/**
 * GET /videos/{video_id}/review/{token} (issue 22): the page a Clip's `review_page.link` names.
 * The link is the owner's to hand to reviewers and a capability, signed like a media link: it
 * answers the video's player whatever the video's privacy, while `review_page.active`; a forged
 * token, another video's, or a page turned off answer 404.
 */

for (const driver of drivers) {
  describe(`the review page (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    /** A private, transcoded video, and its review link as its owner's Clip gives it. */
    let video: string;
    let link: string;
    const clipOf = async (who?: Fixture, version?: string) => (await h.call('GET', `/videos/${video}`, { token: who?.token, version })).body;
    const page = (url: string) => fetch(url);

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      video = await uploadByTus(h, alice.token, await makeClip({ width: 320, height: 240, seconds: 1 }), { name: 'Rough <cut>', privacy: { view: 'nobody' } });
      assert.equal(await h.settle(), 1);
      link = (await clipOf(alice)).review_page.link;
    });
    after(() => h.stop());

    it('the owner’s Clip names a signed link; nobody else is handed one', async () => {
      assert.match(link, new RegExp(`^${h.server.url}/videos/${video}/review/[0-9a-f]{32}$`));
      assert.deepEqual((await clipOf(alice)).review_page, { active: true, link });
      assert.equal((await clipOf(alice, '3.2')).review_link, link, 'review_link before 3.3.6');
      await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'anybody' } } });
      assert.deepEqual((await clipOf(bob)).review_page, { active: true, link: null });
      assert.deepEqual((await clipOf()).review_page, { active: true, link: null });
      await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'nobody' } } });
    });

    it('answers the player of a private video to whoever holds the link, not to be framed, nor cached by others', async () => {
      expectError(await h.call('GET', `/videos/${video}/player`), 404, 5000);
      const r = await page(link);
      const html = await r.text();
      assert.equal(r.status, 200, html);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(r.headers.get('cache-control'), 'private, max-age=0');
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/);
      assert.match(csp, /(^|; )default-src 'none'(;|$)/);
      assert.match(html, /<h1 class="title">Rough &#60;cut&#62;<\/h1>/);
      // It plays the renditions through their signed links, which answer without a token.
      const player = /<video id="player" src="([^"]+)"[^>]* data-hls="([^"]+)"/.exec(html);
      assert.ok(player, 'a <video> with its progressive source and HLS stream');
      for (const url of player.slice(1)) {
        assert.match(url, /\/media\/play\//);
        assert.equal((await fetch(url.replace(/&#38;|&amp;/g, '&'))).status, 200, url);
      }
    });

    it('404 for a forged token, another video’s, a missing video, or a page turned off; the same link again once back on', async () => {
      const token = link.split('/').pop()!;
      const forged = token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      expectError(await h.call('GET', `/videos/${video}/review/${forged}`), 404, 5000);
      expectError(await h.call('GET', `/videos/${video}/review/${token.slice(0, 10)}`), 404, 5000);
      const other = await h.video(alice, { name: 'Other' });
      expectError(await h.call('GET', `/videos/${other}/review/${token}`), 404, 5000);
      expectError(await h.call('GET', `/videos/999999/review/${token}`), 404, 5000);
      const off = await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { review_page: { active: false } } });
      assert.deepEqual(off.body.review_page, { active: false, link: null }, 'no link while the page is off');
      assert.equal((await clipOf(alice, '3.2')).review_link, null);
      expectError(await h.call('GET', new URL(link).pathname), 404, 5000);
      await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { review_page: { active: true } } });
      assert.equal((await clipOf(alice)).review_page.link, link);
      assert.equal((await page(link)).status, 200);
    });
  });
}
