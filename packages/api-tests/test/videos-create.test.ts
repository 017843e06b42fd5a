import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { invalidVideoFields } from '../src/video-fields';

for (const driver of drivers) {
  describe(`POST /me/videos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('creates a video from JSON metadata plus upload.* and answers a tus attempt 200 with a typed Clip', async () => {
      const r = await h.call('POST', '/me/videos', {
        token: alice.token,
        json: {
          name: 'Sunrise',
          description: 'Over the bay',
          content_rating: ['safe'],
          license: 'by-sa',
          locale: 'pt-BR',
          privacy: { view: 'unlisted', comments: 'contacts', embed: 'whitelist', download: false, add: false },
          embed: { buttons: { like: false }, color: 'ff0000', title: { name: 'hide' } },
          ratings: { mpaa: { reason: 'v' }, tv: { reason: 'l' } },
          review_page: { active: false },
          spatial: { projection: 'equirectangular', stereo_format: 'mono', field_of_view: 60 },
          upload: { approach: 'tus', size: 1234, redirect_url: 'https://example.com/done' },
        },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      const v = r.body;
      assert.match(v.uri, /^\/videos\/\d+$/);
      assert.equal(v.name, 'Sunrise');
      assert.equal(v.description, 'Over the bay');
      assert.deepEqual(v.content_rating, ['safe']);
      assert.equal(v.license, 'by-sa');
      assert.equal(v.language, 'pt-BR');
      assert.deepEqual(v.privacy, { view: 'unlisted', comments: 'contacts', embed: 'whitelist', download: false, add: false });
      assert.equal(v.embed.buttons.like, false);
      assert.equal(v.embed.buttons.share, true);
      assert.equal(v.embed.color, '#ff0000');
      assert.deepEqual(v.embed.title, { name: 'hide', owner: 'user', portrait: 'user' });
      assert.equal(v.ratings.mpaa.reason, 'v');
      assert.equal(v.ratings.tv.reason, 'l');
      assert.equal(v.review_page.active, false);
      assert.equal(v.spatial.field_of_view, 60);
      assert.deepEqual(
        { approach: v.upload.approach, size: v.upload.size, status: v.upload.status, redirect_url: v.upload.redirect_url },
        { approach: 'tus', size: 1234, status: 'in_progress', redirect_url: 'https://example.com/done' },
      );
      assert.equal(v.status, 'uploading');
      assert.equal(v.user.uri, `/users/${alice.user.id}`);
      assert.equal(v.created_time, '2026-01-02T03:04:05+00:00');
      const me = await h.call('GET', '/me', { token: alice.token });
      assert.equal(me.body.metadata.connections.videos.total, 1);
    });

    it('reads a urlencoded body with dot notation and comma lists', async () => {
      const r = await h.call('POST', `/users/${alice.user.id}/videos`, {
        token: alice.token,
        form: { name: 'Form', content_rating: 'drugs,language', 'privacy.view': 'nobody', 'privacy.download': 'true', 'upload.approach': 'post', 'upload.size': '99' },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.content_rating, ['drugs', 'language']);
      assert.equal(r.body.privacy.view, 'nobody');
      assert.equal(r.body.privacy.download, true);
      assert.equal(r.body.upload.approach, 'post');
      assert.equal(r.body.upload.size, 99);
    });

    it('starts from the owner\'s default upload privacy', async () => {
      await h.call('PATCH', '/me', { token: bob.token, json: { videos: { privacy: { view: 'nobody', embed: 'private', comments: 'nobody' } } } });
      const r = await h.call('POST', '/me/videos', { token: bob.token, json: { name: 'Default' } });
      assert.equal(r.status, 201);
      assert.equal(r.body.privacy.view, 'nobody');
      assert.equal(r.body.privacy.embed, 'private');
      assert.equal(r.body.privacy.comments, 'nobody');
    });

    it('answers 400 to a type parameter in place of upload.approach (3.4)', async () => {
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { type: 'streaming' } }), 400, 2204, 'type');
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { link: 'https://example.com/a.mp4' } }), 400, 2204, 'link');
    });

    it('takes type as the approach before 3.4', async () => {
      const r = await h.call('POST', '/me/videos', { token: alice.token, json: { type: 'pull', link: 'https://example.com/a.mp4' }, version: '3.2' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.upload.approach, 'pull');
      assert.equal(r.body.upload.link, 'https://example.com/a.mp4');
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.2');
    });

    it('answers a tus attempt 200 in every version and every other approach 201 (issue 22: what the SDKs check)', async () => {
      const link = 'https://example.com/a.mp4';
      const bodies: [string, Record<string, unknown>, number][] = [
        ['tus', { upload: { approach: 'tus', size: 10 } }, 200],
        ['post', { upload: { approach: 'post', size: 10 } }, 201],
        ['pull', { upload: { approach: 'pull', link } }, 201],
        ['streaming', { upload: { approach: 'streaming', size: 10 } }, 201],
        ['none', {}, 201],
      ];
      for (const version of ['3.1', '3.2', '3.3', '3.4']) {
        for (const [approach, body, status] of bodies) {
          const r = await h.call('POST', '/me/videos', { token: alice.token, json: { name: approach, ...body }, version });
          assert.equal(r.status, status, `${approach} at ${version}: ${r.text}`);
          assert.equal(r.body.upload.approach, approach === 'none' ? null : approach);
        }
      }
      for (const version of ['3.1', '3.2', '3.3']) {
        const tus = await h.call('POST', '/me/videos', { token: alice.token, json: { type: 'tus', upload: { size: 10 } }, version });
        assert.equal(tus.status, 200, `type tus at ${version}: ${tus.text}`);
        const post = await h.call('POST', '/me/videos', { token: alice.token, json: { type: 'post' }, version });
        assert.equal(post.status, 201, `type post at ${version}: ${post.text}`);
      }
    });

    it('needs upload.link for a pull upload', async () => {
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { upload: { approach: 'pull' } } }), 400, 2204, 'upload.link');
    });

    it('rejects bad upload parameters naming them', async () => {
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { upload: { approach: 'ftp' } } }), 400, 2204, 'upload.approach');
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { upload: { size: -1 } } }), 400, 2204, 'upload.size');
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { upload: { approach: 'pull', link: 'file:///etc/passwd' } } }), 400, 2204, 'upload.link');
    });

    it('creates nothing when any field is invalid', async () => {
      const before = (await h.call('GET', '/me', { token: alice.token })).body.metadata.connections.videos.total;
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'x', license: 'gpl' } }), 400, 2204, 'license');
      expectError(await h.call('POST', '/me/videos', { token: alice.token, json: { name: 'x', privacy: { view: 'password' } } }), 400, 2204, 'password');
      const after = (await h.call('GET', '/me', { token: alice.token })).body.metadata.connections.videos.total;
      assert.equal(after, before);
    });

    it('answers 400 naming the field for every bad value of the Video table, and creates nothing', async () => {
      const total = async () => (await h.call('GET', '/me', { token: bob.token })).body.metadata.connections.videos.total;
      const before = await total();
      for (const [field, body] of invalidVideoFields) {
        const r = await h.call('POST', '/me/videos', { token: bob.token, json: { name: 'Never made', ...body } });
        expectError(r, 400, 2204, field);
      }
      const scheduled = await h.call('POST', '/me/videos', { token: bob.token, json: { scheduled_start_time: 'next week' } });
      expectError(scheduled, 400, 2511, 'scheduled_start_time');
      assert.equal(await total(), before);
    });

    it('needs a token with the upload scope and the caller\'s own account', async () => {
      expectError(await h.call('POST', '/me/videos', { json: { name: 'x' } }), 401, 8003);
      const noUpload = await h.user('NoUpload', 'public,private,edit');
      expectError(await h.call('POST', '/me/videos', { token: noUpload.token, json: { name: 'x' } }), 403, 3200);
      expectError(await h.call('POST', `/users/${bob.user.id}/videos`, { token: alice.token, json: { name: 'x' } }), 403, 3200);
      expectError(await h.call('POST', '/users/424242/videos', { token: alice.token, json: { name: 'x' } }), 404, 5000);
    });
  });
}
