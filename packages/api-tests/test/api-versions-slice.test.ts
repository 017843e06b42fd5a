import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

/**
 * The users and videos slice at 3.1 and at 3.4, side by side (issue 2): every difference the
 * Versioning table names for these operations, operation by operation.
 */
for (const driver of drivers) {
  describe(`the slice at 3.1 and 3.4 (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let video: string;
    const at = (version: '3.1' | '3.4', method: string, path: string, json?: unknown) => h.call(method, path, { token: alice.token, version, json });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      video = await h.video(alice, { name: 'Versioned' });
    });
    after(() => h.stop());

    it('GET /me: plain JSON without connections at 3.1; typed, with connections and without quota hd/sd at 3.4', async () => {
      const [old, now] = [await at('3.1', 'GET', '/me'), await at('3.4', 'GET', '/me')];
      assert.equal(old.headers.get('content-type'), 'application/json');
      assert.equal(now.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
      assert.equal(old.body.metadata, undefined);
      assert.deepEqual(old.body.upload_quota.quota, { hd: true, sd: true });
      assert.equal(now.body.upload_quota.quota, undefined);
      assert.ok(now.body.metadata.connections.folders);
      assert.equal(now.body.metadata.connections.activities, undefined);
    });

    it('PATCH /me and PATCH /videos/{id}: 204 at 3.1, 200 with the resource at 3.4', async () => {
      for (const [path, json] of [['/me', { bio: 'old' }], [`/videos/${video}`, { description: 'old' }]] as const) {
        const old = await at('3.1', 'PATCH', path, json);
        assert.equal(old.status, 204, old.text);
        assert.equal(old.text, '');
        const now = await at('3.4', 'PATCH', path, json);
        assert.equal(now.status, 200, now.text);
        assert.match(now.headers.get('content-type') ?? '', /^application\/vnd\.reelbase\.(user|video)\+json;version=3\.4$/);
      }
    });

    it('GET /users, /me/videos, /users/{id}/videos: plain JSON at 3.1, typed lists at 3.4', async () => {
      for (const [path, kind] of [['/users', 'user'], ['/me/videos', 'video'], [`/users/${alice.user.id}/videos`, 'video']]) {
        const [old, now] = [await at('3.1', 'GET', path), await at('3.4', 'GET', path)];
        assert.equal(old.status, 200, old.text);
        assert.equal(old.headers.get('content-type'), 'application/json');
        assert.equal(now.headers.get('content-type'), `application/vnd.reelbase.${kind}+json;version=3.4`);
        assert.equal(old.body.data[0].metadata, undefined, path);
        assert.ok(now.body.data[0].metadata, path);
      }
    });

    it('GET /videos/{id} and /me/videos/{id}: the Clip of each version', async () => {
      for (const path of [`/videos/${video}`, `/me/videos/${video}`]) {
        const [old, now] = [(await at('3.1', 'GET', path)).body, (await at('3.4', 'GET', path)).body];
        // 3.3.6: review_page replaces review_link.
        assert.match(old.review_link, /^http/);
        assert.equal(old.review_page, undefined);
        assert.equal(now.review_link, undefined);
        assert.equal(now.review_page.active, true);
        // 3.3: categories and recommendations added, embed_presets removed; 3.3.9: parent_folder.
        assert.equal(old.categories, undefined);
        assert.deepEqual(now.categories, []);
        assert.equal(old.embed_presets, null);
        assert.equal('embed_presets' in now, false);
        assert.equal('parent_folder' in old, false);
        assert.equal(now.parent_folder, null);
        assert.deepEqual(now.metadata.connections.recommendations, { uri: `/videos/${video}/recommendations`, options: ['GET'] });
        // 3.2: connections; the picture default field lives in 3.2 only.
        assert.equal(old.metadata, undefined);
        assert.equal('default' in old.pictures, false);
        assert.equal('default' in now.pictures, false);
      }
    });

    it('POST /me/videos: `type` and `link` name the upload at 3.1; at 3.4 they are 400s and upload.* replaces them', async () => {
      const old = await at('3.1', 'POST', '/me/videos', { name: 'Pulled', type: 'pull', link: 'https://example.com/a.mp4' });
      assert.equal(old.status, 201, old.text);
      assert.equal(old.headers.get('content-type'), 'application/json');
      assert.deepEqual([old.body.upload.approach, old.body.upload.link], ['pull', 'https://example.com/a.mp4']);
      expectError(await at('3.4', 'POST', '/me/videos', { name: 'Pulled', type: 'pull' }), 400, 2204, 'type');
      expectError(await at('3.4', 'POST', '/me/videos', { name: 'Pulled', redirect_url: 'https://example.com/done' }), 400, 2204, 'redirect_url');
      const now = await at('3.4', 'POST', '/me/videos', { name: 'Pulled', upload: { approach: 'pull', link: 'https://example.com/a.mp4' } });
      assert.equal(now.status, 201, now.text);
      assert.equal(now.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(now.body.upload.approach, 'pull');
    });

    it('errors: plain JSON at 3.1, the typed error at 3.4, the same shape and code', async () => {
      const [old, now] = [await at('3.1', 'GET', '/videos/999999'), await at('3.4', 'GET', '/videos/999999')];
      expectError(old, 404, 5000);
      expectError(now, 404, 5000);
      assert.equal(old.headers.get('content-type'), 'application/json');
      assert.equal(now.headers.get('content-type'), 'application/vnd.reelbase.error+json;version=3.4');
    });

    it('DELETE /videos/{id}: 204 in both', async () => {
      for (const version of ['3.1', '3.4'] as const) {
        const r = await at(version, 'DELETE', `/videos/${await h.video(alice)}`);
        assert.equal(r.status, 204, r.text);
      }
    });
  });
}
