import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  account, approve, authorizeUrl, basic, drivers, FormBrowser, Harness, makeClip, nginxSkip, nginxTemplatePath, registerApp, startNginx, tlsFetch,
  type Fixture, type Proxy,
} from '../src/index';

/**
 * reelbase behind nginx with TLS, configured by the server block docs/deployment.md shows
 * (deploy/nginx/reelbase.conf), in front of a real server started with --trust-proxy: links are
 * https on the proxy's origin, the client address comes from the entry nginx appends to
 * X-Forwarded-For, a 50 MB tus PATCH streams through, ranges of the file come back exact, and an
 * OAuth sign-in completes. Skips with one line where nginx or openssl is missing.
 */
const skip = nginxSkip();

/** A playable MP4 of exactly `size` bytes: a real clip, then a `free` box (which players skip) filling the rest. */
function paddedMp4(clip: Buffer, size: number): Buffer {
  const free = Buffer.alloc(size - clip.length);
  free.writeUInt32BE(free.length, 0);
  free.write('free', 4, 'latin1');
  return Buffer.concat([clip, free]);
}

/** Every absolute URL in a JSON value. */
const urlsIn = (value: unknown): string[] =>
  typeof value === 'string' ? (/^[a-z]+:\/\//.test(value) ? [value] : []) : value && typeof value === 'object' ? Object.values(value).flatMap(urlsIn) : [];

describe('the documented nginx configuration', { skip }, () => {
  it('is the text docs/deployment.md shows', () => {
    const docs = readFileSync(join(nginxTemplatePath, '..', '..', '..', 'docs', 'deployment.md'), 'utf8');
    assert.ok(docs.includes(`\`\`\`nginx\n${readFileSync(nginxTemplatePath, 'utf8')}\`\`\`\n`), 'docs/deployment.md holds deploy/nginx/reelbase.conf verbatim');
  });
});

for (const driver of drivers) {
  describe(`behind nginx with TLS (${driver.name})`, { skip }, () => {
    let h: Harness;
    let proxy: Proxy;
    let alice: Fixture;
    let send: typeof fetch;
    const size = 50 * 1024 * 1024;
    let mp4: Buffer;
    let video: string;
    /** A request through the proxy, as `alice` unless `token` is null. */
    const viaProxy = (path: string, init: RequestInit = {}, token: string | null = alice.token) =>
      send(proxy.url + path, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...Object.fromEntries(new Headers(init.headers)) } });

    before(async () => {
      h = await Harness.start(driver, { uploadMaxBytes: 64 * 1024 * 1024, rateLimit: { max: 1000, windowSeconds: 3600 } }, { trustProxy: true });
      proxy = await startNginx(Number(new URL(h.server.url).port));
      send = tlsFetch(proxy.ca);
      alice = await h.user('Alice');
      mp4 = paddedMp4(await makeClip({ width: 320, height: 240, seconds: 1 }), size);
    });
    after(async () => {
      await proxy?.stop();
      await h?.stop();
    });

    it('takes a 50 MB tus upload in one PATCH streamed through, and every link it hands out is https on the proxy’s origin', async (t) => {
      const created = await viaProxy('/me/videos', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Through the proxy', upload: { approach: 'tus', size } }) });
      assert.equal(created.status, 200, await created.clone().text());
      const body = (await created.json()) as { uri: string; upload: { upload_link: string } };
      video = String(body.uri).split('/').pop()!;
      const urls = urlsIn(body);
      assert.ok(urls.length >= 3, urls.join(' '));
      for (const url of urls) assert.ok(url.startsWith(`${proxy.url}/`), `${url} is on ${proxy.url}`);
      assert.match(body.upload.upload_link, new RegExp(`^${proxy.url}/uploads/tus/${video}-`));

      const started = Date.now();
      const patch = await send(body.upload.upload_link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: mp4,
      });
      assert.equal(patch.status, 204, await patch.text());
      assert.equal(patch.headers.get('upload-offset'), String(size));
      t.diagnostic(`50 MB tus PATCH through nginx: ${Date.now() - started} ms`);
      const shown = (await (await viaProxy(`/videos/${video}?fields=status,upload.status,link,user.link`)).json()) as { status: string; upload: { status: string } };
      assert.equal(shown.upload.status, 'complete');
      assert.notEqual(shown.status, 'uploading');
      for (const url of urlsIn(shown)) assert.ok(url.startsWith(`${proxy.url}/`), url);
    });

    it('passes ranges of the file through: 206 with the exact bytes, from the clip and from the far end', async () => {
      for (const [start, end] of [[0, 99], [1000, 4999], [size - 10, size - 1]]) {
        const r = await viaProxy(`/videos/${video}/file`, { headers: { range: `bytes=${start}-${end}` } });
        assert.equal(r.status, 206, `${start}-${end}`);
        assert.equal(r.headers.get('content-range'), `bytes ${start}-${end}/${size}`);
        assert.deepEqual(Buffer.from(await r.arrayBuffer()), mp4.subarray(start, end + 1));
      }
    });

    it('limits a client by the address nginx saw, whatever X-Forwarded-For the client sends', async () => {
      const remaining = (r: Response) => Number(r.headers.get('x-ratelimit-remaining'));
      const first = await viaProxy('/categories', { headers: { 'x-forwarded-for': '203.0.113.1' } }, null);
      assert.equal(first.status, 200);
      const spoofed = await viaProxy('/categories', { headers: { 'x-forwarded-for': '203.0.113.2' } }, null);
      assert.equal(remaining(spoofed), remaining(first) - 1, 'another forged address is the same client: nginx appended its own');
      // Another client, as the proxy would forward it, has an allowance of its own.
      const other = await fetch(`${h.server.url}/categories`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      assert.equal(remaining(other), 999);
    });

    it('signs in through the OAuth pages over https, and the token it makes works through the proxy', async () => {
      const owner = await h.user('Owner');
      const app = await registerApp(h, owner.user);
      await account(h, 'Carol', `carol-${driver.name}@example.com`, 'a long enough password');
      const browser = new FormBrowser(proxy.url, {}, send);
      const back = await approve(browser, authorizeUrl(app), { email: `carol-${driver.name}@example.com`, password: 'a long enough password' });
      assert.equal(`${back.origin}${back.pathname}`, app.redirectUri);
      const exchanged = await send(`${proxy.url}/oauth/access_token`, {
        method: 'POST',
        headers: { authorization: basic(app.clientId, app.secret!), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: app.redirectUri }).toString(),
      });
      assert.equal(exchanged.status, 200, await exchanged.clone().text());
      const { access_token: token, user } = (await exchanged.json()) as { access_token: string; user: { name: string; link: string } };
      assert.equal(user.name, 'Carol');
      assert.ok(user.link.startsWith(`${proxy.url}/`), user.link);
      const me = await viaProxy('/me?fields=name', {}, token);
      assert.deepEqual(await me.json(), { name: 'Carol' });
    });
  });
}
