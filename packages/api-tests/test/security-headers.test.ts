import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, uploadByTus, type Answer, type Fixture } from '../src/index';

/**
 * Security headers: the HTML pages (the player, the post upload form) carry a Content-Security-Policy
 * that allows only what the page uses (its one inline style by hash; no inline script, and only the
 * player loads scripts: this server's hls.js and player once transcoded, the protocol alone before), nosniff and
 * Referrer-Policy no-referrer; the player's frame-ancestors follow the video's privacy.embed. Every
 * JSON answer, error and file carries X-Content-Type-Options: nosniff.
 */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const inlineStyle = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)![1];
const csp = (r: Answer | Response) => r.headers.get('content-security-policy');
/** Every `<script>` of a page: its attributes and its inline text. */
const scripts = (html: string) => [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({ src: /\bsrc="([^"]*)"/.exec(m[1])?.[1], text: m[2] }));

for (const driver of drivers) {
  describe(`security headers (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let id: string;
    let clip: Buffer;
    before(async () => {
      clip = await makeClip({ width: 320, height: 240, seconds: 1 });
      h = await Harness.start(driver, { uploadMaxBytes: 64 * 1024 });
      alice = await h.user('Alice');
      id = await uploadByTus(h, alice.token, clip, { name: 'Framed' });
      // Transcoded: the file endpoint answers, and the player streams it.
      await h.settle();
    });
    after(() => h.stop());

    const player = async (video = id) => {
      const r = await h.call('GET', `/videos/${video}/player`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      return r;
    };
    /** A transcoded video's player: this server's scripts, its stream (hls.js fetches it, plays it from a blob: URL, in a blob: worker). */
    const policy = (page: Answer, frameAncestors: string) =>
      `default-src 'none'; base-uri 'none'; form-action 'none'; style-src ${sha256(inlineStyle(page.text))}; script-src 'self' ${h.server.url}; media-src 'self' ${h.server.url} blob:; connect-src 'self' ${h.server.url}; worker-src blob:; img-src 'self' ${h.server.url}; frame-ancestors ${frameAncestors}`;

    it('the player of a video embeddable anywhere (privacy.embed public): any page may frame it', async () => {
      const page = await player();
      assert.equal(csp(page), policy(page, '*'));
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      const { play } = (await h.call('GET', `/videos/${id}`)).body;
      assert.ok(page.text.includes(`src="${play.progressive[0].link}"`), 'the media the CSP allows is the page’s video');
      assert.ok(page.text.includes(`data-hls="${play.hls.link}"`), 'and its stream');
      assert.deepEqual(
        scripts(page.text),
        ['hls.min.js', 'player.js', 'protocol.js', 'beacons.js'].map((name) => ({ src: `${h.server.url}/static/player/${name}`, text: '' })),
        'no inline script: only this server’s files, which its CSP allows',
      );
    });

    it('before its first transcode the player loads the protocol script alone, and its CSP allows that', async () => {
      const waiting = await uploadByTus(h, alice.token, clip, { name: 'Waiting' });
      const page = await player(waiting);
      assert.equal(
        csp(page),
        `default-src 'none'; base-uri 'none'; form-action 'none'; style-src ${sha256(inlineStyle(page.text))}; script-src 'self' ${h.server.url}; media-src 'self' ${h.server.url}; img-src 'self' ${h.server.url}; frame-ancestors *`,
      );
      assert.deepEqual(scripts(page.text), [{ src: `${h.server.url}/static/player/protocol.js`, text: '' }]);
    });

    it('privacy.embed private: no page may frame the player', async () => {
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { embed: 'private' } } })).status, 200);
      const page = await player();
      assert.equal(csp(page), policy(page, "'none'"));
    });

    it('privacy.embed whitelist: this server and each listed domain with its subdomains, on any port', async () => {
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { embed: 'whitelist' } } })).status, 200);
      assert.equal(csp(await player())?.endsWith("frame-ancestors 'self'"), true, 'an empty whitelist: only this server');
      for (const domain of ['example.com', 'Videos.Example.ORG']) {
        assert.equal((await h.call('PUT', `/videos/${id}/privacy/domains/${domain}`, { token: alice.token })).status, 204);
      }
      const page = await player();
      assert.equal(csp(page), policy(page, "'self' example.com:* *.example.com:* videos.example.org:* *.videos.example.org:*"));
      assert.equal((await h.call('DELETE', `/videos/${id}/privacy/domains/example.com`, { token: alice.token })).status, 204);
      assert.equal(csp(await player())?.endsWith("frame-ancestors 'self' videos.example.org:* *.videos.example.org:*"), true);
    });

    it('the style hash follows the page: a new embed color gives a new hash', async () => {
      const before = await player();
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { embed: { color: '#ff0066' } } })).status, 200);
      const after = await player();
      assert.ok(inlineStyle(after.text).includes('#ff0066'));
      assert.notEqual(csp(after), csp(before));
      assert.equal(csp(after), policy(after, "'self' videos.example.org:* *.videos.example.org:*"));
    });

    it('nosniff on JSON answers, lists, errors and the video file (whole and ranged)', async () => {
      const answers = [
        await h.call('GET', `/videos/${id}`, { token: alice.token }),
        await h.call('GET', '/me/videos', { token: alice.token }),
        await h.call('GET', '/'),
        await h.call('GET', '/videos/999999'),
      ];
      assert.deepEqual(
        answers.map((r) => [r.status, r.headers.get('x-content-type-options')]),
        [
          [200, 'nosniff'],
          [200, 'nosniff'],
          [200, 'nosniff'],
          [404, 'nosniff'],
        ],
      );
      const whole = await fetch(`${h.server.url}/videos/${id}/file`);
      const ranged = await fetch(`${h.server.url}/videos/${id}/file`, { headers: { range: 'bytes=0-9' } });
      assert.deepEqual(
        [whole.status, whole.headers.get('content-type'), whole.headers.get('x-content-type-options'), ranged.status, ranged.headers.get('x-content-type-options')],
        [200, 'video/mp4', 'nosniff', 206, 'nosniff'],
      );
      await whole.arrayBuffer();
      await ranged.arrayBuffer();
    });

    it('nosniff on the stream, its renditions and the player’s scripts', async () => {
      const { play } = (await h.call('GET', `/videos/${id}`)).body;
      const links = [play.hls.link, play.progressive[0].link, `${h.server.url}/static/player/hls.min.js`, `${h.server.url}/static/player/player.js`];
      const answers = await Promise.all(
        links.map(async (link) => {
          const r = await fetch(link);
          await r.arrayBuffer();
          return [r.status, r.headers.get('content-type'), r.headers.get('x-content-type-options')];
        }),
      );
      assert.deepEqual(answers, [
        [200, 'application/vnd.apple.mpegurl', 'nosniff'],
        [200, 'video/mp4', 'nosniff'],
        [200, 'text/javascript; charset=utf-8', 'nosniff'],
        [200, 'text/javascript; charset=utf-8', 'nosniff'],
      ]);
    });

    it('the post upload link shows its form as a page: posting only here, the redirect allowed, never framed', async () => {
      const created = await h.call('POST', '/me/videos', {
        token: alice.token,
        json: { name: 'By form', upload: { approach: 'post', redirect_url: 'https://app.example.net/done?step=2' } },
      });
      assert.equal(created.status, 201, created.text);
      const link: string = created.body.upload.upload_link;
      const page = await fetch(link);
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(
        csp(page),
        `default-src 'none'; base-uri 'none'; form-action 'self' ${h.server.url} https://app.example.net; style-src ${sha256(inlineStyle(html))}; frame-ancestors 'none'`,
      );
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(page.headers.get('cache-control'), 'private, no-store');
      assert.ok(html.includes(created.body.upload.form), 'the page holds the form the API answered');
      assert.ok(!/<script/i.test(html));
    });

    it('the form page exists only for a post upload in progress', async () => {
      const tus = await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'By tus', upload: { approach: 'tus', size: 100 } } });
      const secretPart = String(tus.body.upload.upload_link).split('/uploads/tus/')[1];
      const asPost = await fetch(`${h.server.url}/uploads/post/${secretPart}`);
      const body = (await asPost.json()) as { error_code: number };
      assert.deepEqual([asPost.status, body.error_code, asPost.headers.get('x-content-type-options')], [404, 5011, 'nosniff']);
      const unknown = await fetch(`${h.server.url}/uploads/post/1-${'0'.repeat(48)}`);
      assert.equal(unknown.status, 404);
      await unknown.arrayBuffer();
      const tusHead = await fetch(tus.body.upload.upload_link, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
      assert.deepEqual([tusHead.status, tusHead.headers.get('x-content-type-options')], [200, 'nosniff']);
      expectError(await h.call('PUT', `/uploads/post/${secretPart}`), 405, 2204);
    });
  });
}
