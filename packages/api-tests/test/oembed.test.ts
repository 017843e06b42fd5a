import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, fetchBytes, Harness, type Fixture } from '../src/index';

const fields = ['type', 'version', 'provider_name', 'provider_url', 'title', 'author_name', 'author_url', 'html', 'width', 'height', 'duration', 'description', 'thumbnail_url', 'thumbnail_width', 'thumbnail_height', 'upload_date', 'video_id', 'uri'];

for (const driver of drivers) {
  describe(`/api/oembed (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    /** A public 1280×720, 60-second video of Alice's and its player link. */
    let id: string;
    let link: string;
    const video = async (json: Record<string, unknown> = {}): Promise<{ id: string; link: string }> => {
      const vid = await h.video(alice, { name: 'A <talk> & "more"', description: 'What it is about', ...json });
      await h.service.store.update('videos', vid, { duration: 59.6, width: 1280, height: 720 });
      return { id: vid, link: (await h.call('GET', `/videos/${vid}`, { token: alice.token })).body.link };
    };
    const oembed = (url: string, query = '', o: { token?: string; referer?: string; format?: string } = {}) =>
      h.call('GET', `/api/oembed.${o.format ?? 'json'}?url=${encodeURIComponent(url)}${query}`, { token: o.token, headers: o.referer ? { referer: o.referer } : {} });
    const src = (html: string): string => /src="([^"]*)"/.exec(html)![1].replaceAll('&#38;', '&');
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      ({ id, link } = await video());
    });
    after(() => h.stop());

    it('answers the hosted fields for a video’s link, its player URL and its page, and every link in them answers', async () => {
      assert.equal(link, `${h.server.url}/videos/${id}/player`);
      const r = await oembed(link);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/json');
      assert.deepEqual(Object.keys(r.body), fields);
      const b = r.body;
      assert.deepEqual(
        { ...b, html: undefined, thumbnail_url: undefined },
        {
          type: 'video',
          version: '1.0',
          provider_name: 'reelbase',
          provider_url: `${h.server.url}/`,
          title: 'A <talk> & "more"',
          author_name: 'Alice',
          author_url: `${h.server.url}/users/${alice.user.id}`,
          html: undefined,
          width: 1280,
          height: 720,
          duration: 60,
          description: 'What it is about',
          thumbnail_url: undefined,
          thumbnail_width: 1280,
          thumbnail_height: 720,
          upload_date: '2026-01-02 03:04:05',
          video_id: Number(id),
          uri: `/videos/${id}`,
        },
      );
      assert.equal(
        b.html,
        `<iframe src="${link}" width="1280" height="720" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="A &#60;talk&#62; &#38; &#34;more&#34;"></iframe>`,
      );
      const thumb = await fetchBytes(b.thumbnail_url);
      assert.equal(thumb.status, 200);
      assert.match(thumb.headers.get('content-type')!, /^image\//);
      assert.equal((await h.call('GET', b.uri)).status, 200);
      assert.equal((await fetchBytes(b.author_url)).status, 200);
      assert.equal((await fetchBytes(src(b.html))).status, 200);
      assert.deepEqual((await oembed(`${h.server.url}/videos/${id}`)).body, b);
      assert.deepEqual((await h.call('GET', `/api/oembed?url=${encodeURIComponent(link)}`)).body, b);
    });

    const sizes: [string, number, number, number][] = [
      ['&maxwidth=640', 640, 360, 640],
      ['&maxwidth=2000', 1280, 720, 1280],
      ['&width=320', 320, 180, 640],
      ['&height=1080', 1920, 1080, 1920],
      ['&width=1000&height=300', 533, 300, 640],
      ['&width=1920&maxwidth=960', 960, 540, 960],
      ['&maxwidth=640&maxheight=100', 178, 100, 200],
    ];
    for (const [query, width, height, thumbWidth] of sizes) {
      it(`sizes the embed for ${query.slice(1)}: ${width}×${height}, the aspect ratio kept`, async () => {
        const r = await oembed(link, query);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual([r.body.width, r.body.height, r.body.thumbnail_width], [width, height, thumbWidth]);
        assert.match(r.body.html, new RegExp(` width="${width}" height="${height}" `));
      });
    }

    it('passes the embed parameters into the iframe’s src, with the #t= of the url; 400 naming a bad one', async () => {
      const r = await oembed(`${link}#t=1m30s`, '&color=%2300adef&title=0&autoplay=1&muted=true&loop=1&background=1&texttrack=en&quality=720p&dnt=1&unknown=x');
      assert.equal(r.status, 200, r.text);
      assert.equal(src(r.body.html), `${link}?autoplay=1&muted=true&loop=1&title=0&color=00adef&texttrack=en&quality=720p&dnt=1&background=1#t=1m30s`);
      assert.equal(src((await oembed(link, '&t=90')).body.html), `${link}?t=90`);
      for (const [name, value] of [['color', 'red'], ['autoplay', 'yes'], ['t', 'soon'], ['quality', 'best'], ['maxwidth', '0'], ['width', 'wide']]) {
        expectError(await oembed(link, `&${name}=${value}`), 400, 2204, name);
      }
      expectError(await h.call('GET', '/api/oembed.json'), 400, 2204, 'url');
    });

    it('answers 404 for a video anybody may not see (whoever asks), or a url that names none', async () => {
      for (const view of ['nobody', 'contacts', 'password', 'disable']) {
        const v = await video({ privacy: { view }, ...(view === 'password' ? { password: 'pw' } : {}) });
        expectError(await oembed(v.link), 404, 5000);
        expectError(await oembed(v.link, '', { token: alice.token }), 404, 5000);
        assert.equal((await h.call('GET', `/videos/${v.id}/player`)).text.includes('+oembed'), false, `no discovery on a ${view} video's page`);
      }
      assert.equal((await oembed((await video({ privacy: { view: 'unlisted' } })).link)).status, 200);
      for (const url of [`${h.server.url}/videos/999999/player`, `http://elsewhere.example/videos/${id}/player`, `${h.server.url}/users/${alice.user.id}`, 'not a url']) {
        expectError(await oembed(url), 404, 5000);
      }
    });

    it('answers 403 where the embed privacy forbids the asking page: private always, whitelist unless the Referer is listed', async () => {
      const closed = await video({ privacy: { embed: 'private' } });
      expectError(await oembed(closed.link), 403, 3200);
      assert.equal((await h.call('GET', `/videos/${closed.id}/player`)).text.includes('+oembed'), false);
      const listed = await video({ privacy: { embed: 'whitelist' } });
      assert.equal((await h.call('PUT', `/videos/${listed.id}/privacy/domains/example.com`, { token: alice.token })).status, 204);
      assert.equal((await oembed(listed.link, '', { referer: 'https://blog.example.com/post/1' })).status, 200);
      assert.equal((await oembed(listed.link, '', { referer: 'https://example.com/' })).status, 200);
      expectError(await oembed(listed.link, '', { referer: 'https://notexample.com/' }), 403, 3200);
      expectError(await oembed(listed.link), 403, 3200);
    });

    it('answers XML at .xml (and ?format=xml), 501 for another format', async () => {
      const r = await oembed(link, '&maxwidth=640', { format: 'xml' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'text/xml; charset=utf-8');
      const json = (await oembed(link, '&maxwidth=640')).body;
      const esc = (v: unknown) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      assert.equal(r.text, `<?xml version="1.0" encoding="utf-8"?>\n<oembed>\n${fields.map((f) => `  <${f}>${esc(json[f])}</${f}>`).join('\n')}\n</oembed>\n`);
      assert.equal((await h.call('GET', `/api/oembed?format=xml&url=${encodeURIComponent(link)}&maxwidth=640`)).text, r.text);
      for (const path of ['/api/oembed.json?format=xml&', '/api/oembed.xml?format=json&', '/api/oembed?format=yaml&']) {
        expectError(await h.call('GET', `${path}url=${encodeURIComponent(link)}`), 501, 2204);
      }
    });

    it('the player page carries the JSON and XML discovery links, and they answer', async () => {
      const page = (await h.call('GET', `/videos/${id}/player`)).text;
      const hrefs = [...page.matchAll(/<link rel="alternate" type="(application\/json\+oembed|text\/xml\+oembed)" href="([^"]+)" title="([^"]+)">/g)];
      assert.deepEqual(hrefs.map((m) => m[1]), ['application/json+oembed', 'text/xml+oembed']);
      const query = `?url=${encodeURIComponent(link)}`.replaceAll('&', '&#38;');
      assert.deepEqual(hrefs.map((m) => m[2]), [`${h.server.url}/api/oembed.json${query}`, `${h.server.url}/api/oembed.xml${query}`]);
      const [json, xml] = await Promise.all(hrefs.map((m) => fetchBytes(m[2].replaceAll('&#38;', '&'))));
      assert.equal(json.status, 200);
      assert.equal(JSON.parse(json.bytes.toString()).uri, `/videos/${id}`);
      assert.equal(xml.status, 200);
      assert.match(xml.bytes.toString(), /<type>video<\/type>/);
    });
  });
}
