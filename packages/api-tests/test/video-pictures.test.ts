import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

interface Picture {
  type: string;
  link: string;
  default?: boolean;
  sizes: { width: number; height: number; link: string }[];
}
type Clip = { pictures: Picture; user: { pictures: Picture } };

for (const driver of drivers) {
  describe(`/videos/{video_id}/pictures (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    /** A video of Alice's with a known duration (seconds; 0 = not transcoded yet). */
    const video = async (json: Record<string, unknown> = {}, duration = 60): Promise<string> => {
      const id = await h.video(alice, json);
      await h.service.store.update('videos', id, { duration });
      return `/videos/${id}`;
    };
    const add = async (uri: string, form: Record<string, string> = {}): Promise<string> => {
      h.clock.advance(1);
      const r = await h.call('POST', `${uri}/pictures`, { token: alice.token, form });
      assert.equal(r.status, 201, r.text);
      return r.body.uri as string;
    };
    const clip = async (uri: string) => (await h.call('GET', uri, { token: alice.token })).body;
    const total = async (uri: string): Promise<number> => (await clip(uri)).metadata.connections.pictures.total;
    const activeOf = async (uri: string): Promise<string[]> => {
      const r = await h.call('GET', `${uri}/pictures`, { token: alice.token });
      return r.body.data.filter((p: { active: boolean }) => p.active).map((p: { uri: string }) => p.uri);
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('the placeholder', () => {
      it('links to the origin each request came to, with the `default` field in 3.2 only', async () => {
        const uri = await video();
        const base = new URL(h.server.url);
        // fetch() keeps Host to the URL's; node:http sends the one given.
        const pictures = (host: string, version?: string) =>
          new Promise<Clip>((resolve, reject) => {
            const headers = { host, authorization: `Bearer ${alice.token}`, ...(version ? { accept: `application/vnd.vimeo.*+json;version=${version}` } : {}) };
            get(`${h.server.url}${uri}`, { headers }, (res) => {
              let text = '';
              res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve(JSON.parse(text) as Clip));
            }).on('error', reject);
          });
        for (const host of [base.host, 'videos.example.com', base.host]) {
          const c = await pictures(host);
          assert.deepEqual(
            { type: c.pictures.type, link: c.pictures.link, sizes: c.pictures.sizes.length, default: c.pictures.default },
            { type: 'default', link: `http://${host}/static/placeholders/thumbnail_1920x1080.png`, sizes: 7, default: undefined },
          );
          assert.deepEqual(c.pictures.sizes[0], { width: 100, height: 75, link: `http://${host}/static/placeholders/thumbnail_100x75.png` });
          assert.equal(c.user.pictures.link, `http://${host}/static/placeholders/portrait_360x360.png`);
          assert.equal(c.user.pictures.sizes.length, 9);
        }
        assert.equal((await pictures(base.host, '3.2')).pictures.default, true);
        assert.equal((await pictures(base.host, '3.2')).user.pictures.default, true);
        assert.equal((await pictures(base.host, '3.4')).pictures.default, undefined);
      });
    });

    describe('POST', () => {
      it('answers 201 with a typed Picture and counts it on the Clip', async () => {
        const uri = await video();
        const r = await h.call('POST', `${uri}/pictures`, { token: alice.token, json: { time: 12.5 } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        const id = r.body.uri.split('/').pop();
        assert.equal(r.body.uri, `${uri}/pictures/${id}`);
        assert.equal(r.body.active, false);
        assert.equal(r.body.type, 'custom');
        assert.equal(r.body.time, 12.5);
        assert.equal(r.body.default, undefined);
        assert.equal(r.body.sizes.length, 7);
        // No upload and no file to take a frame from yet: the placeholder, at the picture's signed address.
        assert.match(r.body.link, new RegExp(`^${h.server.url}/media/pictures/${id}/p-[0-9a-f]{32}\\?upload=[0-9a-f]{32}$`));
        assert.deepEqual(r.body.sizes[0], { width: 100, height: 75, link: `${r.body.link.split('?')[0]}/100x75.png` });
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
        const c = await clip(uri);
        assert.equal(c.metadata.connections.pictures.total, 1);
        assert.equal(c.pictures.type, 'default', 'an inactive picture leaves the placeholder');
      });

      it('with active makes it the only active picture and the Clip shows it', async () => {
        const uri = await video();
        const first = await add(uri, { active: 'true', time: '1' });
        assert.equal((await clip(uri)).pictures.uri, first);
        const second = await add(uri, { active: 'true', time: '2' });
        assert.deepEqual(await activeOf(uri), [second]);
        const c = await clip(uri);
        assert.equal(c.pictures.uri, second);
        assert.equal(c.pictures.active, true);
        assert.equal(c.pictures.time, 2);
        assert.equal(c.metadata.connections.pictures.total, 2);
        const inactive = await add(uri, { active: 'false' });
        assert.deepEqual(await activeOf(uri), [second]);
        assert.equal((await h.call('GET', inactive)).body.time, undefined, 'no time: not taken from a frame');
      });

      it('accepts a time up to the duration, and any time while the duration is unknown', async () => {
        const uri = await video({}, 30);
        assert.equal((await h.call('POST', `${uri}/pictures`, { token: alice.token, json: { time: 30 } })).status, 201);
        assert.equal((await h.call('POST', `${uri}/pictures`, { token: alice.token, json: { time: 0 } })).status, 201);
        const fresh = await video({}, 0);
        assert.equal((await h.call('POST', `${fresh}/pictures`, { token: alice.token, json: { time: 5000 } })).status, 201);
      });

      const invalid: [string, Record<string, unknown>][] = [
        ['time', { time: 30.5 }],
        ['time', { time: -1 }],
        ['time', { time: 'soon' }],
        ['active', { active: 'maybe' }],
        ['active', { active: 2 }],
      ];
      for (const [field, json] of invalid) {
        it(`rejects ${JSON.stringify(json)} with 400 naming ${field} and adds nothing`, async () => {
          const uri = await video({}, 30);
          expectError(await h.call('POST', `${uri}/pictures`, { token: alice.token, json: { active: true, ...json } }), 400, 2204, field);
          assert.equal(await total(uri), 0);
          assert.equal((await h.call('GET', `${uri}/pictures`)).body.total, 0);
          assert.equal((await clip(uri)).pictures.type, 'default');
        });
      }

      it('is 403 on a video someone else owns, 404 on a hidden or missing one, and adds nothing', async () => {
        const uri = await video();
        expectError(await h.call('POST', `${uri}/pictures`, { token: bob.token, json: { time: 1 } }), 403, 3200);
        const locked = await video({ privacy: { view: 'password' }, password: 'pw' });
        expectError(await h.call('POST', `${locked}/pictures`, { token: bob.token, json: { time: 1 } }), 403, 3200);
        for (const view of ['nobody', 'disable', 'contacts', 'users']) {
          const hidden = await video({ privacy: { view } });
          expectError(await h.call('POST', `${hidden}/pictures`, { token: bob.token, json: { time: 1 } }), 404, 5000);
          assert.equal(await total(hidden), 0);
        }
        expectError(await h.call('POST', '/videos/999999/pictures', { token: alice.token, json: {} }), 404, 5000);
        assert.equal(await total(uri), 0);
        assert.equal(await total(locked), 0);
      });

      it('needs a user (401) with the upload scope (403)', async () => {
        const uri = await video();
        expectError(await h.call('POST', `${uri}/pictures`, { json: {} }), 401, 8003);
        const noUpload = await h.user('NoUpload', 'public,edit');
        expectError(await h.call('POST', `${uri}/pictures`, { token: noUpload.token, json: {} }), 403, 3200);
        assert.equal(await total(uri), 0);
      });

      it('answers 200 in 3.1 and 201 with the default field in 3.2', async () => {
        const uri = await video();
        const v31 = await h.call('POST', `${uri}/pictures`, { token: alice.token, json: {}, version: '3.1' });
        assert.equal(v31.status, 200, v31.text);
        assert.equal(v31.headers.get('content-type'), 'application/json');
        assert.equal(v31.body.default, undefined);
        const v32 = await h.call('POST', `${uri}/pictures`, { token: alice.token, json: {}, version: '3.2' });
        assert.equal(v32.status, 201);
        assert.equal(v32.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.2');
        assert.equal(v32.body.default, false);
        const v33 = await h.call('POST', `${uri}/pictures`, { token: alice.token, json: {}, version: '3.3' });
        assert.equal(v33.status, 201);
        assert.equal(v33.body.default, undefined);
        assert.equal(await total(uri), 3);
      });
    });

    describe('GET list and one', () => {
      it('lists newest first in the list envelope, paged', async () => {
        const uri = await video();
        const a = await add(uri);
        const b = await add(uri, { active: 'true' });
        const c = await add(uri);
        const r = await h.call('GET', `${uri}/pictures`);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.equal(r.body.per_page, 25);
        assert.deepEqual(r.body.data.map((p: { uri: string }) => p.uri), [c, b, a]);
        assert.deepEqual(r.body.data.map((p: { active: boolean }) => p.active), [false, true, false]);
        const page2 = await h.call('GET', `${uri}/pictures?per_page=2&page=2`);
        assert.equal(page2.body.total, 3);
        assert.deepEqual(page2.body.data.map((p: { uri: string }) => p.uri), [a]);
        assert.equal(page2.body.paging.next, null);
        assert.equal(page2.body.paging.previous, `${uri}/pictures?per_page=2&page=1`);
        assert.equal(page2.body.paging.last, `${uri}/pictures?per_page=2&page=2`);
        expectError(await h.call('GET', `${uri}/pictures?per_page=101`), 400, 2204, 'per_page');
        expectError(await h.call('GET', `${uri}/pictures?page=0`), 400, 2204, 'page');
      });

      it('gets one picture; 404 for a missing one or one of another video', async () => {
        const uri = await video();
        const other = await video();
        const pic = await add(uri, { time: '3' });
        const r = await h.call('GET', pic);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        assert.equal(r.body.uri, pic);
        assert.equal(r.body.time, 3);
        const id = pic.split('/').pop();
        expectError(await h.call('GET', `${other}/pictures/${id}`), 404, 5000);
        expectError(await h.call('GET', `${uri}/pictures/999999`), 404, 5000);
        expectError(await h.call('GET', `${uri}/pictures/abc`), 404, 5000);
        expectError(await h.call('GET', `/videos/999999/pictures/${id}`), 404, 5000);
        expectError(await h.call('GET', '/videos/999999/pictures'), 404, 5000);
      });

      it('follows the video privacy: hidden videos 404, password videos need the password', async () => {
        for (const view of ['nobody', 'disable', 'contacts', 'users']) {
          const uri = await video({ privacy: { view } });
          const pic = await add(uri);
          assert.equal((await h.call('GET', `${uri}/pictures`, { token: alice.token })).body.total, 1);
          assert.equal((await h.call('GET', pic, { token: alice.token })).status, 200);
          for (const token of [bob.token, undefined]) {
            expectError(await h.call('GET', `${uri}/pictures`, { token }), 404, 5000);
            expectError(await h.call('GET', pic, { token }), 404, 5000);
          }
        }
        const contacts = await video({ privacy: { view: 'contacts' } });
        const pic = await add(contacts);
        const carol = await h.user('Carol');
        await h.follow(alice, carol);
        assert.equal((await h.call('GET', pic, { token: carol.token })).status, 200);
        const locked = await video({ privacy: { view: 'password' }, password: 'pw' });
        const lockedPic = await add(locked);
        expectError(await h.call('GET', `${locked}/pictures`), 403, 3200);
        expectError(await h.call('GET', `${lockedPic}?password=nope`), 403, 3200);
        assert.equal((await h.call('GET', `${locked}/pictures?password=pw`)).body.total, 1);
        assert.equal((await h.call('GET', `${lockedPic}?password=pw`)).status, 200);
        const unlisted = await video({ privacy: { view: 'unlisted' } });
        await add(unlisted);
        assert.equal((await h.call('GET', `${unlisted}/pictures`)).body.total, 1);
      });
    });

    describe('PATCH', () => {
      it('activates a picture, deactivating the other, and answers 200 with it', async () => {
        const uri = await video();
        const a = await add(uri, { active: 'true' });
        const b = await add(uri);
        h.clock.advance(10);
        const r = await h.call('PATCH', b, { token: alice.token, form: { active: 'true' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        assert.equal(r.body.uri, b);
        assert.equal(r.body.active, true);
        assert.deepEqual(await activeOf(uri), [b]);
        assert.equal((await h.call('GET', a)).body.active, false);
        assert.equal((await clip(uri)).pictures.uri, b);
        const again = await h.call('PATCH', b, { token: alice.token, json: { active: true } });
        assert.equal(again.body.active, true);
        assert.deepEqual(await activeOf(uri), [b]);
        assert.equal(await total(uri), 2);
      });

      it('deactivating the active picture brings back the placeholder; an empty body changes nothing', async () => {
        const uri = await video();
        const a = await add(uri, { active: 'true' });
        const same = await h.call('PATCH', a, { token: alice.token, json: {} });
        assert.equal(same.status, 200);
        assert.equal(same.body.active, true);
        const r = await h.call('PATCH', a, { token: alice.token, json: { active: false } });
        assert.equal(r.status, 200);
        assert.equal(r.body.active, false);
        assert.deepEqual(await activeOf(uri), []);
        const c = await clip(uri);
        assert.equal(c.pictures.type, 'default');
        assert.equal(c.pictures.uri, null);
      });

      it('answers 204 before 3.2', async () => {
        const uri = await video();
        const a = await add(uri);
        const r = await h.call('PATCH', a, { token: alice.token, json: { active: true }, version: '3.1' });
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        assert.equal((await clip(uri)).pictures.uri, a);
      });

      it('rejects a bad active with 400 and changes nothing', async () => {
        const uri = await video();
        const a = await add(uri);
        expectError(await h.call('PATCH', a, { token: alice.token, json: { active: 'yes please' } }), 400, 2204, 'active');
        assert.deepEqual(await activeOf(uri), []);
      });

      it('is 403 for another user, 404 for a hidden video or another video’s picture, 401/403 without user or scope', async () => {
        const uri = await video();
        const a = await add(uri);
        expectError(await h.call('PATCH', a, { token: bob.token, json: { active: true } }), 403, 3200);
        const hidden = await video({ privacy: { view: 'nobody' } });
        const hiddenPic = await add(hidden);
        expectError(await h.call('PATCH', hiddenPic, { token: bob.token, json: { active: true } }), 404, 5000);
        const other = await video();
        expectError(await h.call('PATCH', `${other}/pictures/${a.split('/').pop()}`, { token: alice.token, json: { active: true } }), 404, 5000);
        expectError(await h.call('PATCH', `${uri}/pictures/999999`, { token: alice.token, json: { active: true } }), 404, 5000);
        expectError(await h.call('PATCH', a, { json: { active: true } }), 401, 8003);
        const noEdit = await h.user('NoEdit', 'public,upload');
        expectError(await h.call('PATCH', a, { token: noEdit.token, json: { active: true } }), 403, 3200);
        assert.deepEqual(await activeOf(uri), []);
        assert.deepEqual(await activeOf(other), []);
        assert.equal((await clip(hidden)).pictures.type, 'default');
      });
    });

    describe('DELETE', () => {
      it('answers 204, uncounts the picture, and the picture is gone', async () => {
        const uri = await video();
        const a = await add(uri);
        const b = await add(uri, { active: 'true' });
        const r = await h.call('DELETE', a, { token: alice.token });
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        expectError(await h.call('GET', a), 404, 5000);
        expectError(await h.call('DELETE', a, { token: alice.token }), 404, 5000);
        const c = await clip(uri);
        assert.equal(c.metadata.connections.pictures.total, 1);
        assert.equal(c.pictures.uri, b);
        assert.equal((await h.call('GET', `${uri}/pictures`)).body.total, 1);
      });

      it('deleting the active picture brings back the placeholder, not another picture', async () => {
        const uri = await video();
        const a = await add(uri);
        const b = await add(uri, { active: 'true' });
        assert.equal((await h.call('DELETE', b, { token: alice.token })).status, 204);
        const c = await clip(uri);
        assert.equal(c.pictures.type, 'default');
        assert.equal(c.metadata.connections.pictures.total, 1);
        assert.equal((await h.call('GET', a)).body.active, false);
      });

      it('is 403 for another user, 404 for a hidden video or another video’s picture, 401/403 without user or scope; nothing is deleted', async () => {
        const uri = await video();
        const a = await add(uri, { active: 'true' });
        expectError(await h.call('DELETE', a, { token: bob.token }), 403, 3200);
        const hidden = await video({ privacy: { view: 'disable' } });
        const hiddenPic = await add(hidden);
        expectError(await h.call('DELETE', hiddenPic, { token: bob.token }), 404, 5000);
        const other = await video();
        expectError(await h.call('DELETE', `${other}/pictures/${a.split('/').pop()}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', a), 401, 8003);
        const noEdit = await h.user('NoEdit2', 'public,upload,delete');
        expectError(await h.call('DELETE', a, { token: noEdit.token }), 403, 3200);
        assert.equal(await total(uri), 1);
        assert.equal((await clip(uri)).pictures.uri, a);
        assert.equal(await total(hidden), 1);
      });
    });

    it('deleting the video deletes its pictures', async () => {
      const uri = await video();
      const a = await add(uri);
      assert.equal((await h.call('DELETE', uri, { token: alice.token })).status, 204);
      assert.equal(await h.service.store.get('pictures', a.split('/').pop()!), null);
    });
  });
}
