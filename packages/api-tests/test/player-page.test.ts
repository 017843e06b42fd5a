import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, fetchBytes, Harness, imageSize, makeClip, makeImage, uploadByTus, type Answer, type Fixture, putFile } from '../src/index';

/**
 * The player page as an embed: the Clip's HLS stream (its progressive rendition as fallback)
 * once transcoded, the Clip's picture as poster, the active text tracks that have a file as
 * <track>s, the custom logo, and the embed settings (and the embed preset) honoured; its CSP
 * allows exactly the origins the page loads from.
 */
const clip = makeClip({ width: 640, height: 360, seconds: 3 });
const srt = (text: string) => `1\n00:00:00,500 --> 00:00:02,500\n${text}\n`;

/** The value of a directive of a page's CSP. */
const directive = (page: Answer, name: string): string | undefined =>
  page.headers
    .get('content-security-policy')
    ?.split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

for (const driver of drivers) {
  describe(`the player page as an embed (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let id: string;
    /** The Clip's picture, the tracks' links by name, the logo: what the page must show. */
    let picture: { sizes: { width: number; link: string }[] };
    const tracks: Record<string, string> = {};
    let logo: { sizes: { width: number; link: string }[] };

    const ok = (r: Answer, status = 200) => {
      assert.equal(r.status, status, r.text);
      return r.body;
    };
    /** PUT bytes to a media link with the owner's token, as the owner's app uploads them. */
    const put = async (link: string, body: Uint8Array | string, type: string) => {
      const r = await putFile(link, body, alice.token, type);
      assert.ok(r.status < 300, `PUT ${link}: ${r.status} ${await r.text()}`);
    };
    const track = async (json: Record<string, unknown>, file: string | null) => {
      h.clock.advance(1);
      const t = ok(await h.call('POST', `/videos/${id}/texttracks`, { token: alice.token, json }), 201);
      if (file !== null) await put(t.link, file, 'text/plain');
      const now = ok(await h.call('GET', t.uri, { token: alice.token }));
      tracks[json.name as string] = now.link;
    };
    const player = async (video = id) => {
      const r = await h.call('GET', `/videos/${video}/player`);
      assert.equal(r.status, 200, r.text);
      return r;
    };
    const patch = async (json: Record<string, unknown>, video = id) => ok(await h.call('PATCH', `/videos/${video}`, { token: alice.token, json }));

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      id = await uploadByTus(h, alice.token, await clip, { name: 'Embedded <film>' });
      // Transcoded, so the page's <video> source plays (the file answers once the video is available).
      assert.equal(await h.settle(), 1);
      const pic = ok(await h.call('POST', `/videos/${id}/pictures`, { token: alice.token, json: {} }), 201);
      await put(pic.link, await makeImage('jpeg', 1280, 720), 'image/jpeg');
      ok(await h.call('PATCH', pic.uri, { token: alice.token, json: { active: true } }));
      await track({ language: 'en', name: 'English', type: 'captions', active: true }, srt('Hello from the captions'));
      await track({ language: 'fr', name: 'Français "CC"', type: 'subtitles', active: true }, srt('Bonjour'));
      await track({ language: 'de', name: 'Kapitel', type: 'chapters', active: true }, null);
      await track({ language: 'es', name: 'Datos', type: 'metadata', active: true }, srt('{"x":1}'));
      await track({ language: 'it', name: 'Italiano', type: 'subtitles', active: false }, srt('Ciao'));
      const l = ok(await h.call('POST', '/me/customlogos', { token: alice.token, json: { active: true } }), 201);
      await put(l.link, await makeImage('png', 400, 225), 'image/png');
      logo = ok(await h.call('GET', l.uri, { token: alice.token }));
      picture = ok(await h.call('GET', `/videos/${id}`, { token: alice.token })).pictures;
    });
    after(() => h.stop());

    it('shows the Clip’s picture as the poster, at 1280x720, and the poster loads', async () => {
      const page = await player();
      const poster = picture.sizes.find((s) => s.width === 1280)!.link;
      assert.match(poster, new RegExp(`^${h.server.url}/media/pictures/\\d+/u1-[^/]+/1280x720\\.jpg$`));
      assert.ok(page.text.includes(` poster="${poster}"`), page.text);
      const image = await fetchBytes(poster);
      assert.equal(image.status, 200);
      assert.deepEqual(await imageSize(image.bytes), { width: 1280, height: 720, format: 'jpeg' });
    });

    it('has a <track> for each active track with a file, kind from its type, the first captions default', async () => {
      const page = await player();
      const found = page.text.match(/<track [^>]*>/g);
      assert.deepEqual(found, [
        `<track kind="captions" srclang="en" label="English" src="${tracks.English}" default>`,
        `<track kind="subtitles" srclang="fr" label="Français &#34;CC&#34;" src="${tracks['Français "CC"']}">`,
        `<track kind="metadata" srclang="es" label="Datos" src="${tracks.Datos}">`,
      ]);
      const vtt = await fetchBytes(tracks.English);
      assert.equal(vtt.status, 200);
      assert.equal(vtt.headers.get('content-type'), 'text/vtt; charset=utf-8');
      assert.match(vtt.bytes.toString(), /^WEBVTT[\s\S]*00:00:00\.500 --> 00:00:02\.500\nHello from the captions/);
    });

    it('hides the title when embed.title.name is hide, and escapes it when shown', async () => {
      assert.ok((await player()).text.includes('<h1 class="title">Embedded &#60;film&#62;</h1>'));
      await patch({ embed: { title: { name: 'hide' } } });
      const page = await player();
      assert.doesNotMatch(page.text, /class="title"/);
      assert.match(page.text, /<p class="owner">Alice<\/p>/, 'the owner still shows');
    });

    it('shows the owner’s active custom logo when embed.logos.custom.active, linked when a link is set', async () => {
      const image = logo.sizes.find((s) => s.width === 295)!.link;
      assert.doesNotMatch((await player()).text, /class="logo/, 'custom logos are off by default');
      await patch({ embed: { logos: { custom: { active: true } } } });
      assert.ok((await player()).text.includes(`<span class="logo fades"><img src="${image}" alt=""></span>`));
      await patch({ embed: { logos: { custom: { link: 'https://example.com/?a=1&b=2', sticky: true } } } });
      const page = await player();
      const linked = `<a class="logo" href="https://example.com/?a=1&#38;b=2" target="_blank" rel="noopener"><img src="${image}" alt=""></a>`;
      assert.ok(page.text.includes(linked), page.text);
      const bytes = await fetchBytes(image);
      assert.equal(bytes.status, 200);
      // An opaque PNG is served as JPEG (only an alpha channel keeps PNG).
      assert.deepEqual(await imageSize(bytes.bytes), { width: 295, height: 166, format: image.endsWith('.png') ? 'png' : 'jpeg' });
    });

    it('plays the Clip’s HLS stream, with its largest rendition up to 720p as the fallback source, by the player’s three scripts', async () => {
      const page = await player();
      const { play } = ok(await h.call('GET', `/videos/${id}`));
      const [, src, hls, storyboard] = /<video id="player" src="([^"]+)"[^>]* data-hls="([^"]+)" data-storyboard="([^"]+)"[^>]*>/.exec(page.text)!;
      assert.equal(hls, play.hls.link, 'the stream is the Clip’s master playlist');
      assert.equal(storyboard, play.storyboard.link, 'the seek bar’s tiles are the Clip’s storyboard');
      assert.match(page.text, /<\/video>\n<div class="storyboard" hidden><\/div>/);
      assert.equal(src, play.progressive.find((p: { rendition: string }) => p.rendition === '360p').link, 'the fallback is its 360p MP4');
      const master = await fetchBytes(hls);
      assert.deepEqual([master.status, master.headers.get('content-type')], [200, 'application/vnd.apple.mpegurl']);
      const file = await fetchBytes(src, { range: 'bytes=0-99' });
      assert.deepEqual([file.status, file.headers.get('content-type')], [206, 'video/mp4'], 'the <video> source plays');
      const scripts = [...page.text.matchAll(/<script src="([^"]+)" defer><\/script>/g)].map((m) => m[1]);
      // The last sends the analytics beacons (issue 49) to the endpoint the body names.
      assert.deepEqual(scripts, ['hls.min.js', 'player.js', 'protocol.js', 'beacons.js'].map((name) => `${h.server.url}/static/player/${name}`));
      assert.match(page.text, new RegExp(`<body[^>]* data-beacons="${h.server.url}/videos/\\d+/beacons">`));
      for (const script of scripts) {
        const r = await fetchBytes(script);
        assert.deepEqual([r.status, r.headers.get('content-type')], [200, 'text/javascript; charset=utf-8'], script);
      }
      // A viewer who asked not to be tracked gets no beacons (issue 49): the page's dnt=1, DNT: 1, Sec-GPC: 1.
      for (const [query, headers] of [['?dnt=1', {}], ['', { dnt: '1' }], ['', { 'sec-gpc': '1' }]] as const) {
        const quiet = await h.call('GET', `/videos/${id}/player${query}`, { headers });
        assert.equal(quiet.status, 200);
        assert.ok(!quiet.text.includes('beacons'), `${query} ${JSON.stringify(headers)}`);
      }
      assert.match(page.text, /<video id="player" src="[^"]+" preload="none" /, 'nothing loads (and no play counts) before the viewer plays');
    });

    it('takes the hosted player’s URL parameters over the embed settings, and ignores values it does not understand', async () => {
      const tag = async (query: string) => {
        const r = await h.call('GET', `/videos/${id}/player${query}`);
        assert.equal(r.status, 200, r.text);
        return { page: r.text, video: /<video [^>]*>/.exec(r.text)![0] };
      };
      const given = await tag('?autoplay=1&loop=1&title=0&byline=0&color=ff0000&t=1m30s&texttrack=en&quality=360p&speed=0&keyboard=0&autopause=0');
      // With a stream the script autoplays (the attribute would start the progressive file first), muted.
      assert.match(given.video, / preload="none" playsinline controls muted loop poster=/, 'autoplay plays muted');
      assert.match(given.video, / data-autoplay="1" data-start="90" data-texttrack="en" data-quality="360p" data-speed="0" data-keyboard="0" data-autopause="0">$/);
      assert.doesNotMatch(given.page, /class="title"|class="owner"/);
      assert.match(given.page, /\.title\{font-size:16px;margin:0;color:#ff0000\}/);
      const bare = await tag('?controls=0&playsinline=0');
      assert.match(bare.video, / preload="none" poster=/);
      assert.match(bare.video, / data-controls="0">$/);
      assert.doesNotMatch(bare.page, /<header><[^/]|class="corner"/, 'controls=0 shows nothing over the picture');
      const plain = await tag('');
      assert.equal((await tag('?autoplay=maybe&color=red&t=soon&quality=best&controls=2&texttrack=%3Cx%3E&background=no')).video, plain.video);
    });

    it('its CSP allows exactly the origins of the poster, logo and portrait (img), the stream, its fallback and the tracks (media), and the player’s scripts', async () => {
      const page = await player();
      const origin = new URL(h.server.url).origin;
      for (const link of [...page.text.matchAll(/ (?:src|poster|data-hls|data-storyboard)="([^"]+)"/g)].map((m) => m[1])) {
        assert.equal(new URL(link.replace(/&#38;/g, '&')).origin, origin, link);
      }
      assert.equal(directive(page, 'img-src'), `'self' ${origin}`);
      // hls.js plays through a MediaSource at a blob: URL, fetching the stream itself, from a worker it starts from a blob: URL.
      assert.equal(directive(page, 'media-src'), `'self' ${origin} blob:`);
      assert.equal(directive(page, 'connect-src'), `'self' ${origin}`);
      assert.equal(directive(page, 'worker-src'), 'blob:');
      assert.equal(directive(page, 'script-src'), `'self' ${origin}`, 'the player’s scripts, from this server only');
      assert.match(directive(page, 'style-src') ?? '', /^'sha256-[A-Za-z0-9+/]+=*'$/);
      assert.doesNotMatch(page.text.replace(/<script src="[^"]+" defer><\/script>/g, ''), /<script|\son\w+=/i, 'no inline script, no handler attribute');
    });

    it('while its transcode is queued or runs, the page says the video is being processed (with the protocol alone); once transcoded, it plays the stream', async () => {
      const origin = new URL(h.server.url).origin;
      const fresh = await uploadByTus(h, alice.token, await clip, { name: 'Fresh' });
      assert.equal((await h.call('GET', `/videos/${fresh}`)).body.status, 'transcode_starting', 'what a server without workers leaves it in');
      const waiting = await player(fresh);
      assert.match(waiting.text, new RegExp(`<img class="poster" src="[^"]+" alt=""><p class="state" data-video-url="${h.server.url}/videos/${fresh}/player">This video is being processed</p>`));
      assert.doesNotMatch(waiting.text, /<video|data-hls/);
      assert.deepEqual([...waiting.text.matchAll(/<script src="([^"]+)" defer><\/script>/g)].map((m) => m[1]), [`${h.server.url}/static/player/protocol.js`]);
      assert.equal(directive(waiting, 'script-src'), `'self' ${origin}`, 'the protocol, from this server');
      assert.equal(await h.settle(), 1);
      const ready = await player(fresh);
      assert.match(ready.text, /<video id="player" src="[^"]+\/360p\.mp4" preload="none" playsinline controls poster="[^"]+"[^>]* data-hls="[^"]+\/master\.m3u8" data-storyboard="[^"]+\/storyboard\.vtt"[^>]*>/);
      assert.equal(directive(ready, 'script-src'), `'self' ${origin}`);
    });

    it('honours the buttons, playbar, volume, color and service logo settings', async () => {
      const before = (await player()).text;
      assert.match(before, / playsinline controls poster=/);
      assert.ok(before.includes(`<a class="button share fades" href="${h.server.url}/videos/${id}/player" target="_blank" rel="noopener">Share</a>`));
      assert.ok(before.includes(`<a class="wordmark fades" href="${h.server.url}/videos/${id}/player" target="_blank" rel="noopener">reelbase</a>`));
      assert.doesNotMatch(before, /-webkit-media-controls-volume/);
      await patch({ embed: { color: '123abc', volume: false, logos: { service: false }, buttons: { fullscreen: false, share: false, like: true } } });
      await patch({ privacy: { download: false } });
      const after = (await player()).text;
      assert.match(after, / playsinline controls controlslist="nofullscreen nodownload" poster=/);
      assert.match(after, /\.title\{font-size:16px;margin:0;color:#123abc\}/);
      assert.match(after, /video::-webkit-media-controls-mute-button,video::-webkit-media-controls-volume-slider\{display:none\}/);
      assert.doesNotMatch(after, /class="wordmark|class="button/);
      await patch({ embed: { playbar: false } });
      assert.match((await player()).text, /<video id="player" src="[^"]+" preload="none" playsinline poster=/);
    });

    it('an embed preset decides the title fields the video leaves to the user', async () => {
      const json = { name: 'No names', title: { name: 'hide', owner: 'hide', portrait: 'show' } };
      const preset = ok(await h.call('POST', '/me/presets', { token: alice.token, json }), 201);
      const other = await uploadByTus(h, alice.token, await clip, { name: 'Preset film', embed: { title: { name: 'user', owner: 'show' } } });
      assert.match((await player(other)).text, /<h1 class="title">Preset film<\/h1><p class="owner">Alice<\/p>/, 'user: shown without a preset');
      assert.equal((await h.call('PUT', `/videos/${other}/presets/${preset.uri.split('/').pop()}`, { token: alice.token })).status, 204);
      const page = (await player(other)).text;
      assert.doesNotMatch(page, /class="title"/, 'the preset hides the name the video leaves to the user');
      assert.match(page, /<p class="owner">Alice<\/p>/, 'the video’s own show wins over the preset');
    });
  });
}
