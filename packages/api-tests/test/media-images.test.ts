import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { drivers, expectError, fetchBytes, filesUnder, Harness, imageSize, makeClip, makeImage, uploadByTus, type Fixture, putFile } from '../src/index';
import { createPage } from '../src/ondemand';

type Picture = { uri: string; link: string; active: boolean; sizes: { width: number; height: number; link: string }[] };

/** One kind of image-bearing resource: how to make one, and the path that shows it again. */
interface Kind {
  name: string;
  /** POST's success status (SPEC.md: 200 for portraits and backgrounds). */
  status: number;
  create(h: Harness, owner: Fixture): Promise<Picture>;
  /** Makes it the owner's active one (PATCH active, or nothing where POST did it). */
  activate?: (h: Harness, owner: Fixture, p: Picture) => Promise<void>;
  /** Deletes it (where an operation does), answering the status. */
  remove?: (h: Harness, owner: Fixture, p: Picture) => Promise<number>;
  /** Width × height of its sizes: squares for portraits. */
  square?: boolean;
}

const post = async (h: Harness, owner: Fixture, path: string, status: number, json: Record<string, unknown> = {}): Promise<Picture> => {
  const r = await h.call('POST', path, { token: owner.token, json });
  assert.equal(r.status, status, `POST ${path}: ${r.text}`);
  return r.body as Picture;
};
const patchActive = async (h: Harness, owner: Fixture, p: Picture) => {
  const r = await h.call('PATCH', p.uri, { token: owner.token, json: { active: true } });
  assert.equal(r.status, 200, r.text);
};
const del = async (h: Harness, owner: Fixture, p: Picture) => (await h.call('DELETE', p.uri, { token: owner.token })).status;

const kinds: Kind[] = [
  {
    name: 'video thumbnail',
    status: 201,
    create: async (h, o) => post(h, o, `/videos/${await h.video(o)}/pictures`, 201),
    activate: patchActive,
    remove: del,
  },
  { name: 'portrait', status: 200, square: true, create: (h, o) => post(h, o, '/me/pictures', 200), activate: patchActive, remove: del },
  {
    name: 'album logo',
    status: 201,
    create: async (h, o) => {
      const album = await h.call('POST', '/me/albums', { token: o.token, json: { name: 'Brand', description: '' } });
      return post(h, o, `${album.body.uri}/logos`, 201);
    },
    activate: patchActive,
    remove: del,
  },
  { name: 'custom logo', status: 201, create: (h, o) => post(h, o, '/me/customlogos', 201, { active: true }) },
  {
    name: 'On Demand poster',
    status: 201,
    create: async (h, o) => post(h, o, `/ondemand/pages/${await createPage(h, o)}/pictures`, 201),
    activate: patchActive,
  },
  {
    name: 'On Demand background',
    status: 200,
    create: async (h, o) => post(h, o, `/ondemand/pages/${await createPage(h, o)}/backgrounds`, 200),
    activate: patchActive,
    remove: del,
  },
  {
    name: 'timeline thumbnail',
    status: 201,
    create: async (h, o) => post(h, o, `/videos/${await h.video(o)}/timelinethumbnails`, 201),
  },
];

const put = putFile;

/** Every size answers an image of exactly the stated width and height, typed as it is. */
async function expectSizes(p: Picture, type: 'image/jpeg' | 'image/png'): Promise<void> {
  for (const s of p.sizes) {
    const r = await fetchBytes(s.link);
    assert.equal(r.status, 200, s.link);
    assert.equal(r.headers.get('content-type'), type, s.link);
    assert.deepEqual(await imageSize(r.bytes), { width: s.width, height: s.height, format: type === 'image/png' ? 'png' : 'jpeg' }, s.link);
  }
}

/** The one clip every upload of this file sends (made once, for both drivers): 640x360, 3 s. */
let made: Promise<Buffer> | undefined;
const sourceClip = () => (made ??= makeClip({ width: 640, height: 360, seconds: 3 }));

const mediaFiles = (h: Harness) => filesUnder(h.filesDir).filter((f) => f.startsWith('media/'));

for (const driver of drivers) {
  describe(`image links (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let jpeg: Buffer;
    before(async () => {
      h = await Harness.start(driver, { imageMaxBytes: 256 * 1024 });
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      jpeg = await makeImage('jpeg', 800, 600);
    });
    after(() => h.stop());

    for (const kind of kinds) {
      describe(kind.name, () => {
        it('create → PUT the image to `link` → activate: every size answers that image at its stated size', async () => {
          const created = await kind.create(h, alice);
          assert.equal(created.sizes.length, kind.square ? 9 : 7);
          // Before any upload the link shows the placeholder, at every size.
          await expectSizes(created, 'image/png');
          const r = await put(created.link, jpeg, alice.token, 'image/jpeg');
          assert.equal(r.status, 200, await r.text());
          await kind.activate?.(h, alice, created);
          const shown = (await h.call('GET', created.uri, { token: alice.token })).body as Picture;
          assert.notEqual(shown.link, created.link, 'a new image gets a new link');
          assert.match(shown.link, /\/u1-[0-9a-f]{32}$/);
          await expectSizes(shown, 'image/jpeg');
          const master = await fetchBytes(shown.link);
          assert.deepEqual(await imageSize(master.bytes), { width: 800, height: 600, format: 'jpeg' });
          if (kind.square) {
            for (const s of shown.sizes) assert.equal(s.width, s.height);
          }
          // The link it was uploaded to (the placeholder's) no longer answers: links never change meaning.
          assert.equal((await fetchBytes(created.sizes[0].link)).status, 404);
        });

        it('refuses a text file, an empty body, a truncated JPEG and an oversized image with 400 naming the file, storing nothing', async () => {
          const created = await kind.create(h, alice);
          const before = mediaFiles(h);
          const big = await sharp({ create: { width: 1500, height: 1500, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).jpeg({ quality: 100 }).toBuffer();
          assert.ok(big.length > 256 * 1024, 'the oversized image is over the configured limit');
          for (const body of ['just some text, not an image', '', jpeg.subarray(0, jpeg.length >> 1), big]) {
            const r = await put(created.link, body, alice.token, 'image/jpeg');
            const answer = { status: r.status, headers: r.headers, body: await r.json(), text: '' };
            expectError(answer, 400, 2204, 'file');
          }
          assert.deepEqual(mediaFiles(h), before);
          const again = (await h.call('GET', created.uri, { token: alice.token })).body as Picture;
          assert.equal(again.link, created.link, 'nothing changed');
        });

        it("refuses another user's PUT, and one without a token or the owner's upload capability; stores nothing", async () => {
          const created = await kind.create(h, alice);
          const before = mediaFiles(h);
          assert.equal((await put(created.link, jpeg, bob.token, 'image/jpeg')).status, 403);
          const bare = created.link.split('?')[0];
          assert.equal((await put(bare, jpeg, undefined, 'image/jpeg')).status, 401);
          assert.equal((await put(`${bare}?upload=${'0'.repeat(32)}`, jpeg, undefined, 'image/jpeg')).status, 401);
          assert.deepEqual(mediaFiles(h), before);
        });

        it('takes a PUT without a token at the link its owner was handed before the first upload (as vimeo.php sends it), once', async () => {
          const created = await kind.create(h, alice);
          assert.match(created.link, /\?upload=[0-9a-f]{32}$/, 'the owner’s link carries the upload capability');
          const r = await put(created.link, jpeg, undefined, 'image/jpeg');
          assert.equal(r.status, 200, await r.text());
          const shown = (await h.call('GET', created.uri, { token: alice.token })).body as Picture;
          assert.match(shown.link, /\/u1-[0-9a-f]{32}$/, 'an uploaded image’s link carries no capability');
          assert.equal((await put(created.link, jpeg, undefined, 'image/jpeg')).status, 401, 'spent by the upload');
        });

        if (kind.remove) {
          it('delete removes its files, and its links stop answering at once', async () => {
            const created = await kind.create(h, alice);
            assert.equal((await put(created.link, jpeg, alice.token)).status, 200);
            const shown = (await h.call('GET', created.uri, { token: alice.token })).body as Picture;
            assert.equal((await fetchBytes(shown.sizes[2].link)).status, 200);
            const id = created.uri.split('/').pop();
            assert.ok(mediaFiles(h).some((f) => f.includes(`/pictures/${id}/`)), 'the upload and a size are stored');
            assert.equal(await kind.remove!(h, alice, created), 204);
            assert.deepEqual(mediaFiles(h).filter((f) => f.includes(`/pictures/${id}/`)), []);
            assert.equal((await fetchBytes(shown.sizes[2].link)).status, 404);
            assert.equal((await fetchBytes(shown.link)).status, 404);
          });
        }
      });
    }

    describe('links', () => {
      it('answer ETag and Last-Modified, 304 to a conditional repeat, and a year of caching', async () => {
        const p = await kinds[0].create(h, alice);
        await put(p.link, jpeg, alice.token);
        const shown = (await h.call('GET', p.uri, { token: alice.token })).body as Picture;
        const first = await fetchBytes(shown.sizes[3].link);
        const etag = first.headers.get('etag')!;
        const lastModified = first.headers.get('last-modified')!;
        assert.match(etag, /^"u1-640x360"$/);
        assert.equal(lastModified, new Date(h.clock.now()).toUTCString());
        assert.equal(first.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        const byTag = await fetchBytes(shown.sizes[3].link, { 'if-none-match': etag });
        assert.equal(byTag.status, 304);
        assert.equal(byTag.bytes.length, 0);
        assert.equal((await fetchBytes(shown.sizes[3].link, { 'if-modified-since': lastModified })).status, 304);
        assert.equal((await fetchBytes(shown.sizes[3].link, { 'if-none-match': '"other"' })).status, 200);
      });

      it('are unguessable: a forged signature, another picture’s signature, an unlisted size and a wrong type answer 404', async () => {
        const [a, b] = [await kinds[0].create(h, alice), await kinds[0].create(h, alice)];
        const aid = a.uri.split('/').pop()!;
        const bid = b.uri.split('/').pop()!;
        const forged = a.sizes[0].link.replace(/-[0-9a-f]{32}\//, `-${'0'.repeat(32)}/`);
        const swapped = b.sizes[0].link.replace(`/pictures/${bid}/`, `/pictures/${aid}/`);
        const plain = a.link.split('?')[0];
        for (const link of [forged, swapped, plain.replace(/\/[^/]+$/, '/p-x'), `${plain}/123x45.png`, `${plain}/100x75.jpg`]) {
          const r = await fetchBytes(link);
          assert.equal(r.status, 404, link);
        }
      });

      it('a replaced image gets a new link and the old files go; PNG with transparency stays PNG; WebP and GIF are taken', async () => {
        const p = await kinds[0].create(h, alice);
        await put(p.link, jpeg, alice.token);
        const v1 = (await h.call('GET', p.uri, { token: alice.token })).body as Picture;
        await fetchBytes(v1.sizes[1].link);
        const id = p.uri.split('/').pop();
        const stored = () => mediaFiles(h).filter((f) => f.includes(`/pictures/${id}/`));
        const v1Files = stored();
        const transparent = await sharp({ create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 120, b: 200, alpha: 0.5 } } }).png().toBuffer();
        assert.equal((await put(v1.link, transparent, alice.token, 'image/png')).status, 200, 'the owner may PUT to an older link of the picture');
        const v2 = (await h.call('GET', p.uri, { token: alice.token })).body as Picture;
        assert.match(v2.link, /\/u2-[0-9a-f]{32}$/);
        assert.equal((await fetchBytes(v1.sizes[1].link)).status, 404);
        await expectSizes(v2, 'image/png');
        assert.deepEqual(stored().filter((f) => v1Files.includes(f)), [], 'the first image’s files are gone');
        for (const format of ['webp', 'gif'] as const) {
          assert.equal((await put(v2.link, await makeImage(format, 400, 300), alice.token)).status, 200, format);
        }
        const v4 = (await h.call('GET', p.uri, { token: alice.token })).body as Picture;
        assert.match(v4.link, /\/u4-/);
        await expectSizes(v4, 'image/jpeg');
      });

      it('orient a phone photo by its EXIF orientation', async () => {
        const p = await kinds[0].create(h, alice);
        const rotated = await sharp(await makeImage('jpeg', 400, 300)).withMetadata({ orientation: 6 }).jpeg().toBuffer();
        assert.equal((await put(p.link, rotated, alice.token, 'image/jpeg')).status, 200);
        const shown = (await h.call('GET', p.uri, { token: alice.token })).body as Picture;
        assert.deepEqual(await imageSize((await fetchBytes(shown.link)).bytes), { width: 300, height: 400, format: 'jpeg' });
      });

      it('of the placeholder answer a real image of every stated size', async () => {
        const carol = await h.user('Carol');
        const clip = (await h.call('GET', `/videos/${await h.video(carol)}`, { token: carol.token })).body;
        assert.equal(clip.pictures.type, 'default');
        await expectSizes(clip.pictures, 'image/png');
        await expectSizes(clip.user.pictures, 'image/png');
        const r = await fetchBytes(clip.pictures.sizes[0].link);
        assert.equal(r.headers.get('cache-control'), 'public, max-age=86400');
        assert.equal((await fetchBytes(clip.pictures.sizes[0].link, { 'if-none-match': r.headers.get('etag')! })).status, 304);
        assert.equal((await fetchBytes(clip.pictures.sizes[0].link.replace('100x75', '101x75'))).status, 404);
      });
    });

    describe('frames', () => {
      let videoId: string;
      /** The video as its owner read it right after the upload, before the transcode ran. */
      let queued: { status: string; transcode: { status: string }; pictures: Picture & { type: string } };
      before(async () => {
        videoId = await uploadByTus(h, alice.token, await sourceClip());
        queued = (await h.call('GET', `/videos/${videoId}`, { token: alice.token })).body;
        assert.equal(await h.settle(), 1);
      });

      it('a video shows the placeholder until it is transcoded, then (available, no chosen picture) a real frame of itself', async () => {
        assert.deepEqual([queued.status, queued.transcode.status, queued.pictures.type], ['transcode_starting', 'in_progress', 'default']);
        assert.match(queued.pictures.link, new RegExp(`^${h.server.url}/static/placeholders/thumbnail_\\d+x\\d+\\.png$`));
        await expectSizes(queued.pictures, 'image/png');
        const clip = (await h.call('GET', `/videos/${videoId}`, { token: alice.token })).body;
        assert.deepEqual([clip.status, clip.transcode.status], ['available', 'complete']);
        assert.equal(clip.pictures.type, 'default');
        assert.match(clip.pictures.link, new RegExp(`/media/videos/${videoId}/f[0-9a-f]{12}t1000-[0-9a-f]{32}$`));
        await expectSizes(clip.pictures, 'image/jpeg');
        // A frame of testsrc, not the placeholder's flat grey: many colours.
        const { channels } = await sharp((await fetchBytes(clip.pictures.sizes[3].link)).bytes).stats();
        assert.ok(channels.some((c) => c.stdev > 40), 'a real frame has contrast');
      });

      it('POST pictures with `time` makes a picture of the frame at that offset', async () => {
        const p = await post(h, alice, `/videos/${videoId}/pictures`, 201, { time: 2, active: true });
        // The owner's link of a picture without an upload also carries its one-time upload capability.
        assert.match(p.link, /\/f[0-9a-f]{12}t2000-[0-9a-f]{32}\?upload=[0-9a-f]{32}$/);
        await expectSizes(p, 'image/jpeg');
        const clip = (await h.call('GET', `/videos/${videoId}`, { token: bob.token })).body;
        assert.equal(clip.pictures.link, p.link.split('?')[0], 'another viewer gets the link without the capability');
        const frames = await Promise.all([1, 2].map(async (t) => (await fetchBytes((await post(h, alice, `/videos/${videoId}/pictures`, 201, { time: t })).sizes[0].link)).bytes));
        assert.notDeepEqual(frames[0], frames[1], 'different offsets, different frames');
      });

      it('deleting the video removes its file, renditions, frames and pictures', async () => {
        const id = await uploadByTus(h, alice.token, await sourceClip());
        assert.equal(await h.settle(), 1);
        const clip = (await h.call('GET', `/videos/${id}`, { token: alice.token })).body;
        await fetchBytes(clip.pictures.sizes[0].link);
        const p = await post(h, alice, `/videos/${id}/pictures`, 201);
        await put(p.link, jpeg, alice.token);
        const mine = () => filesUnder(h.filesDir).filter((f) => f.startsWith(`videos/${id}/`) || f.startsWith(`media/video/${id}/`));
        assert.ok(mine().length >= 3, mine().join());
        assert.ok(mine().some((f) => f.startsWith(`videos/${id}/renditions/`)), mine().join());
        assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
        assert.deepEqual(mine(), []);
        assert.equal((await fetchBytes(clip.pictures.sizes[0].link)).status, 404);
      });
    });
  });
}
