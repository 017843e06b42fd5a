import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, makeImage, putFile, uploadByTus, type Answer, type Fixture } from '../src/index';

/**
 * The album's player page (issue 22, item 3: the embed code's iframe must answer): the picked
 * video's player above the list of the album's videos that the caller may see and embed, with the
 * album's brand colour and custom logo, and none of the service's logo, sharing or downloads.
 */

const directive = (page: Answer, name: string): string | undefined =>
  page.headers
    .get('content-security-policy')
    ?.split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

/** The playlist's entries: the video each plays, and whether it is the one playing. */
const playlist = (page: Answer): [string, boolean][] =>
  [...page.text.matchAll(/<li><a href="[^"]*\?video=(\d+)[^"]*"( aria-current="true")?>/g)].map((m) => [m[1], m[2] !== undefined]);

for (const driver of drivers) {
  describe(`the album player page (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let album: string;
    let id: string;
    let open: string;
    let listed: string;
    let unembeddable: string;
    let hidden: string;
    const page = async (query = '', token?: string) => h.call('GET', `/albums/${id}/embed${query}`, { token });

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      open = await h.video(alice, { name: 'Open <one>', embed: { color: '123456' } });
      listed = await h.video(alice, { name: 'Listed', privacy: { embed: 'whitelist' } });
      unembeddable = await h.video(alice, { name: 'Not embeddable', privacy: { embed: 'private' } });
      hidden = await h.video(alice, { name: 'Hidden', privacy: { view: 'nobody' } });
      await h.call('PUT', `/videos/${listed}/privacy/domains/example.com`, { token: alice.token });
      const r = await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Reel <2026>', description: '' } });
      album = r.body.uri;
      id = album.split('/').pop()!;
      assert.equal((await h.call('PUT', `/me/albums/${id}/videos`, { token: alice.token, json: { videos: [open, listed, unembeddable, hidden].map((v) => `/videos/${v}`) } })).status, 201);
    });
    after(() => h.stop());

    it("answers the album's embed code and share_link: the first video playing above the videos one may embed", async () => {
      const seen = (await h.call('GET', album)).body;
      const r = await page();
      assert.equal(seen.share_link, `${h.server.url}/albums/${id}/embed`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(r.text, /<title>Reel &#60;2026&#62;<\/title>/);
      assert.match(r.text, new RegExp(`<body data-album-id="${id}" data-video-id="${open}" data-color="#123456">`), "without a brand colour, the video's own");
      assert.ok(r.text.includes(`<video id="player" src="${h.server.url}/videos/${open}/file" preload="metadata" playsinline controls controlslist="nodownload"`), r.text);
      assert.ok(r.text.includes('<h1 class="title">Open &#60;one&#62;</h1>'));
      assert.deepEqual(playlist(r), [[open, true], [listed, false]], 'neither the video that may not be embedded nor the hidden one');
      assert.ok(r.text.includes(`<h2>Reel &#60;2026&#62;</h2>`));
      assert.doesNotMatch(r.text, /class="wordmark|class="button share|class="more"/, "no service logo, no sharing, and the whole list");
      assert.doesNotMatch(r.text, /<script|\son\w+=/i, 'no script at all before the videos are transcoded');
      assert.equal(directive(r, 'frame-ancestors'), '*', "framed anywhere, as the playing video's privacy.embed allows");
      assert.equal(directive(r, 'img-src'), `'self' ${h.server.url}`);
      assert.equal(directive(r, 'media-src'), `'self' ${h.server.url}`);
      assert.match(directive(r, 'style-src') ?? '', /^'sha256-[A-Za-z0-9+/]+=*'$/);
      assert.equal(directive(r, 'script-src'), undefined);
    });

    it('plays the video a list entry picks, framed as that video allows; 404 for one it does not list', async () => {
      const r = await page(`?video=${listed}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(playlist(r), [[open, false], [listed, true]]);
      assert.ok(r.text.includes(`<video id="player" src="${h.server.url}/videos/${listed}/file"`));
      assert.equal(directive(r, 'frame-ancestors'), "'self' example.com:* *.example.com:*");
      for (const video of [unembeddable, hidden, '999999']) expectError(await page(`?video=${video}`), 404, 5000);
      expectError(await page('?video=first'), 400, 2204, 'video');
      expectError(await h.call('GET', '/albums/999999/embed'), 404, 5000);
    });

    it('lists for its owner the videos only they may see', async () => {
      assert.deepEqual(playlist(await page('', alice.token)), [[open, true], [listed, false], [hidden, false]]);
    });

    it("shows the album's brand colour instead of the video's, and its active custom logo once it has an image", async () => {
      assert.equal((await h.call('PATCH', album, { token: alice.token, json: { brand_color: 'FF00AA' } })).status, 200);
      let r = await page();
      assert.match(r.text, /video\{display:block;width:100%;height:100%;accent-color:#ff00aa\}/);
      assert.match(r.text, /\.title\{font-size:16px;margin:0;color:#ff00aa\}/);
      assert.doesNotMatch(r.text, /#123456/);
      const logo = (await h.call('POST', `${album}/logos`, { token: alice.token })).body;
      assert.equal((await h.call('PATCH', logo.uri, { token: alice.token, json: { active: true } })).status, 200);
      assert.doesNotMatch((await page()).text, /class="logo/, 'no image yet');
      assert.ok((await putFile(logo.link, await makeImage('png', 400, 225), alice.token, 'image/png')).status < 300);
      const image = (await h.call('GET', logo.uri, { token: alice.token })).body.sizes.find((s: { width: number }) => s.width === 295).link;
      r = await page();
      assert.ok(r.text.includes(`<span class="logo"><img src="${image}" alt=""></span>`), r.text);
      assert.equal((await h.call('GET', album)).body.embed_custom_logo, true);
    });

    it("a password album's page needs the password, which its entries carry along", async () => {
      const locked = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Locked', description: '', privacy: 'password', password: 'p&w' } })).body;
      const lockedId = locked.uri.split('/').pop();
      assert.equal((await h.call('PUT', `/me/albums/${lockedId}/videos/${open}`, { token: alice.token })).status, 204);
      expectError(await h.call('GET', `/albums/${lockedId}/embed`), 403, 3200);
      expectError(await h.call('GET', `/albums/${lockedId}/embed?password=wrong`), 403, 3200);
      const r = await h.call('GET', `/albums/${lockedId}/embed?password=${encodeURIComponent('p&w')}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.text.includes(`href="${h.server.url}/albums/${lockedId}/embed?video=${open}&#38;password=p%26w" aria-current="true"`), r.text);
      assert.equal((await h.call('GET', `/albums/${lockedId}/embed`, { token: alice.token })).status, 200, 'its owner needs none');
    });

    it("streams a transcoded video as its own player does, loading the player's scripts", async () => {
      const streamed = await uploadByTus(h, alice.token, await makeClip({ width: 320, height: 240, seconds: 1 }), { name: 'Streamed' });
      assert.equal(await h.settle(), 1);
      const reel = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Streams', description: '' } })).body.uri.split('/').pop();
      assert.equal((await h.call('PUT', `/me/albums/${reel}/videos/${streamed}`, { token: alice.token })).status, 204);
      const r = await h.call('GET', `/albums/${reel}/embed`);
      const own = await h.call('GET', `/videos/${streamed}/player`);
      const video = (page: Answer) => /<video id="player"[^>]*>/.exec(page.text)![0];
      const inAlbum = video(own)
        .replace(' controls ', ' controls controlslist="nodownload" ')
        .replace(/ data-download="[^"]+"/, '')
        .replace(`data-video-url="${h.server.url}/videos/${streamed}/player"`, `data-video-url="${h.server.url}/albums/${reel}/embed"`);
      assert.equal(video(r), inAlbum, 'the same, without downloads, its link the album’s');
      assert.match(video(r), / data-hls="[^"]+\/master\.m3u8"/);
      assert.ok(r.text.endsWith(`</div>\n<script src="${h.server.url}/static/player/hls.min.js" defer></script>\n<script src="${h.server.url}/static/player/player.js" defer></script>\n<script src="${h.server.url}/static/player/protocol.js" defer></script>\n</body></html>\n`));
      for (const name of ['script-src', 'media-src', 'connect-src', 'worker-src']) assert.equal(directive(r, name), directive(own, name), name);
    });

    it('an album with nothing to play says so, and may be framed anywhere', async () => {
      const empty = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Empty', description: '' } })).body.uri.split('/').pop();
      const r = await h.call('GET', `/albums/${empty}/embed`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.text.includes('<p>This album has no video to play here.</p>'));
      assert.doesNotMatch(r.text, /<video/);
      assert.equal(directive(r, 'frame-ancestors'), '*');
      assert.equal(directive(r, 'media-src'), undefined);
    });

    it('lists the first 100 videos and says how many more there are', async () => {
      const many: string[] = [];
      for (let i = 0; i < 102; i++) many.push(`/videos/${await h.video(alice, { name: `Part ${i}` })}`);
      const big = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Big', description: '' } })).body.uri.split('/').pop();
      assert.equal((await h.call('PUT', `/me/albums/${big}/videos`, { token: alice.token, json: { videos: many } })).status, 201);
      const r = await h.call('GET', `/albums/${big}/embed`);
      const entries = playlist(r);
      assert.equal(entries.length, 100);
      assert.deepEqual(entries[0], [many[0].split('/').pop(), true]);
      assert.ok(r.text.includes('<p class="more">2 more in the album</p>'));
      assert.equal((await h.call('GET', `/albums/${big}/embed?video=${many[101].split('/').pop()}`)).status, 200, 'one past the list plays all the same');
    });
  });
}
