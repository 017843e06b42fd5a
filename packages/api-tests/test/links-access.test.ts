import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, makeClip, uploadByTus, type Fixture } from '../src/index';

/**
 * Media links die with access (issue 46, finding 8): a video's signed playback, storyboard,
 * picture and text-track links carry its access version, which every change that lets fewer watch it bumps, so
 * each link handed out before answers as a forged one does, at once. Pictures of a video that is
 * not public are bound to it and expire; a public video's stay long-lived and cacheable.
 */

interface Links {
  master: string;
  rendition: string;
  storyboard: string;
  picture: string;
  size: string;
  captions: string;
}

/** Status and body of a GET, the body read whole. */
async function open(link: string): Promise<{ status: number; body: string; cache: string | null }> {
  const r = await fetch(link);
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()).toString('latin1'), cache: r.headers.get('cache-control') };
}

/** A link with its signature's last hex digit changed: what a forged link gets. */
const forged = (link: string): string => link.replace(/([0-9a-f])([0-9a-f]{31})(?=[/.]|$)/, (_, d: string, rest: string) => `${d === '0' ? '1' : '0'}${rest}`);

for (const driver of drivers) {
  describe(`media links die with access (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let id: string;
    /** Every kind of media link the Clip (and its text track) hands `viewer` now. */
    const linksOf = async (viewer: Fixture): Promise<Links> => {
      const clip = (await h.call('GET', `/videos/${id}`, { token: viewer.token })).body;
      assert.equal(clip.play.status, 'playable');
      const track = (await h.call('GET', `/videos/${id}/texttracks`, { token: viewer.token })).body.data[0];
      return {
        master: clip.play.hls.link,
        rendition: clip.play.progressive[0].link,
        storyboard: clip.play.storyboard.link,
        picture: clip.pictures.link,
        size: clip.pictures.sizes[0].link,
        captions: track.link,
      };
    };
    const expectLive = async (links: Links, what: string) => {
      for (const [name, link] of Object.entries(links)) assert.equal((await open(link)).status, 200, `${what}: ${name} ${link}`);
    };
    /** Each link is refused exactly as its forgery is. */
    const expectDead = async (links: Links, what: string) => {
      for (const [name, link] of Object.entries(links)) {
        const [dead, fake] = [await open(link), await open(forged(link))];
        assert.equal(dead.status, 404, `${what}: ${name} ${link}`);
        assert.deepEqual(dead, fake, `${what}: ${name} answers as a forged link`);
        assert.equal(JSON.parse(dead.body).error_code, 5000);
      }
    };

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      id = await uploadByTus(h, alice.token, await makeClip({ width: 320, height: 240, seconds: 2 }), { name: 'Guarded' });
      await h.settle();
      const track = await h.call('POST', `/videos/${id}/texttracks`, { token: alice.token, json: { type: 'captions', language: 'en', name: 'English' } });
      assert.equal(track.status, 201, track.text);
    });
    after(() => h.stop());

    it('a public video’s pictures are long-lived and cacheable by anybody', async () => {
      const links = await linksOf(bob);
      await expectLive(links, 'public');
      assert.doesNotMatch(links.picture, /\.a\d+\.e\d+-/);
      assert.equal((await open(links.size)).cache, 'public, max-age=31536000, immutable');
    });

    it('privacy.view nobody kills every link handed out before, at once; the owner’s new ones are bound and expire', async () => {
      const handed = await linksOf(bob);
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      await expectDead(handed, 'after privacy.view=nobody');
      const own = await linksOf(alice);
      await expectLive(own, 'the owner’s new links');
      assert.match(own.picture, /\/media\/videos\/\d+\/f[0-9a-f]+t\d+\.a1\.e\d+-[0-9a-f]{32}$/);
      assert.equal((await open(own.size)).cache, 'private, max-age=86400');
      // Bound picture links expire with the playback links: at the end of the next UTC day.
      h.clock.advance(2 * 86_400);
      await expectDead(own, 'past their expiry');
    });

    it('a new password, and a user taken off the access list, kill the links handed out under the old access', async () => {
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { view: 'password' }, password: 'first secret' } })).status, 200);
      const withFirst = await linksOf(alice);
      await expectLive(withFirst, 'under the first password');
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { password: 'second secret' } })).status, 200);
      await expectDead(withFirst, 'after the password changed');
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { view: 'users' } } })).status, 200);
      assert.equal((await h.call('PUT', `/videos/${id}/privacy/users/${bob.user.id}`, { token: alice.token })).status, 200);
      const bobs = await linksOf(bob);
      await expectLive(bobs, 'shared with Bob');
      assert.equal((await h.call('DELETE', `/videos/${id}/privacy/users/${bob.user.id}`, { token: alice.token })).status, 204);
      await expectDead(bobs, 'after Bob left the access list');
    });

    it('a delete kills every link', async () => {
      const own = await linksOf(alice);
      await expectLive(own, 'before the delete');
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      await expectDead(own, 'after the delete');
    });
  });
}
