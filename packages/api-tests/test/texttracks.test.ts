import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

const allBut = (scope: string): string =>
  ['public', 'private', 'create', 'edit', 'delete', 'interact', 'upload'].filter((s) => s !== scope).join(',');

for (const driver of drivers) {
  describe(`/videos/{video_id}/texttracks (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let carol: Fixture;
    const video = async (json: Record<string, unknown> = {}): Promise<string> => `/videos/${await h.video(alice, json)}`;
    const track = async (uri: string, json: Record<string, unknown> = {}): Promise<string> => {
      h.clock.advance(1);
      const r = await h.call('POST', `${uri}/texttracks`, { token: alice.token, json: { language: 'en', name: 'English', type: 'captions', ...json } });
      assert.equal(r.status, 201, r.text);
      return r.body.uri as string;
    };
    const total = async (uri: string): Promise<number> =>
      (await h.call('GET', uri, { token: alice.token })).body.metadata.connections.texttracks.total;
    /** uri → active, for every track of the video. */
    const actives = async (uri: string): Promise<Record<string, boolean>> => {
      const r = await h.call('GET', `${uri}/texttracks`, { token: alice.token });
      return Object.fromEntries(r.body.data.map((t: { uri: string; active: boolean }) => [t.uri, t.active]));
    };
    const disable = (trackUri: string) => h.service.store.update('texttracks', trackUri.split('/').pop()!, { disabled: true });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      carol = await h.user('Carol');
    });
    after(() => h.stop());

    describe('POST', () => {
      it('answers 201 with a typed, inactive Text track and counts it on the Clip', async () => {
        const uri = await video();
        const r = await h.call('POST', `${uri}/texttracks`, { token: alice.token, json: { language: 'en-US', name: 'English CC', type: 'captions' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video.texttrack+json;version=3.4');
        const id = r.body.uri.split('/').pop();
        assert.deepEqual(r.body, {
          uri: `${uri}/texttracks/${id}`,
          name: 'English CC',
          language: 'en-US',
          type: 'captions',
          active: false,
          link: r.body.link,
          link_expires_time: '2026-01-04T00:00:00+00:00',
          hls_link: r.body.link.split('?')[0].replace(/\.vtt$/, '.m3u8'),
          hls_link_expires_time: '2026-01-04T00:00:00+00:00',
          resource_key: r.body.resource_key,
        });
        // Signed for version 0 (no file yet) until the end of the next UTC day.
        assert.match(r.body.link, new RegExp(`^${h.server.url}/media/texttracks/${id}/v0-1767484800-[0-9a-f]{32}\\.vtt\\?upload=[0-9a-f]{32}$`));
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
        assert.equal(await total(uri), 1);
      });

      it('takes a urlencoded body with active, and every type of the enum', async () => {
        const uri = await video();
        const r = await h.call('POST', `${uri}/texttracks`, { token: alice.token, form: { language: 'fr', name: ' Français ', type: 'subtitles', active: 'true' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.active, true);
        assert.equal(r.body.name, 'Français');
        for (const type of ['captions', 'chapters', 'descriptions', 'metadata', 'subtitles']) {
          const t = await h.call('POST', `${uri}/texttracks`, { token: alice.token, json: { language: 'de', name: type, type } });
          assert.equal(t.status, 201, t.text);
          assert.equal(t.body.type, type);
        }
        assert.equal(await total(uri), 6);
      });

      it('keeps one active track per language: an active new track deactivates the other', async () => {
        const uri = await video();
        const en1 = await track(uri, { active: true });
        const fr = await track(uri, { language: 'fr', active: true });
        const en2 = await track(uri, { active: true });
        assert.deepEqual(await actives(uri), { [en1]: false, [fr]: true, [en2]: true });
        const en3 = await track(uri);
        assert.deepEqual(await actives(uri), { [en1]: false, [fr]: true, [en2]: true, [en3]: false });
      });

      const invalid: [string, Record<string, unknown>][] = [
        ['language', { language: undefined }],
        ['name', { name: undefined }],
        ['type', { type: undefined }],
        ['language', { language: 'klingon' }],
        ['language', { language: 42 }],
        ['type', { type: 'karaoke' }],
        ['name', { name: '  ' }],
        ['name', { name: 'x'.repeat(257) }],
        ['active', { active: 'maybe' }],
      ];
      for (const [field, extra] of invalid) {
        it(`answers 403/2204 naming ${field} for ${JSON.stringify(extra)} and adds nothing`, async () => {
          const uri = await video();
          const r = await h.call('POST', `${uri}/texttracks`, { token: alice.token, json: { language: 'en', name: 'English', type: 'captions', ...extra } });
          expectError(r, 403, 2204, field);
          assert.equal(await total(uri), 0);
          assert.deepEqual(await actives(uri), {});
        });
      }

      it('answers 400/2205 for a body that is not an object', async () => {
        const uri = await video();
        expectError(await h.call('POST', `${uri}/texttracks`, { token: alice.token, json: 'captions' }), 400, 2205);
      });

      it('answers 403/3430 to a caller who does not own the video, 404 for a hidden or missing video', async () => {
        const uri = await video();
        const body = { language: 'en', name: 'English', type: 'captions' };
        expectError(await h.call('POST', `${uri}/texttracks`, { token: carol.token, json: body }), 403, 3430);
        const hidden = await video({ privacy: { view: 'nobody' } });
        expectError(await h.call('POST', `${hidden}/texttracks`, { token: carol.token, json: body }), 404, 5000);
        expectError(await h.call('POST', '/videos/999999/texttracks', { token: alice.token, json: body }), 404, 5000);
        assert.equal(await total(uri), 0);
      });

      it('needs a user (401) and the upload scope (403 "caller cannot edit")', async () => {
        const uri = await video();
        const body = { language: 'en', name: 'English', type: 'captions' };
        expectError(await h.call('POST', `${uri}/texttracks`, { json: body }), 401, 8003);
        const noUpload = await h.user('No upload', allBut('upload'));
        // 3200 naming the scope, before ownership (3430) is considered.
        const r = await h.call('POST', `${uri}/texttracks`, { token: noUpload.token, json: body });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"upload"/);
        assert.equal(await total(uri), 0);
      });

      it('answers 201 with the track in every version', async () => {
        const uri = await video();
        const r = await h.call('POST', `${uri}/texttracks`, { token: alice.token, version: '3.1', json: { language: 'en', name: 'Old', type: 'captions' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.equal(r.body.name, 'Old');
      });
    });

    describe('GET', () => {
      it('lists the tracks in the order they were added, paged, to anyone who may see the video', async () => {
        const uri = await video();
        const a = await track(uri, { active: true });
        const b = await track(uri, { language: 'fr' });
        const c = await track(uri, { language: 'de' });
        const r = await h.call('GET', `${uri}/texttracks`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video.texttrack+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(r.body.data.map((t: { uri: string }) => t.uri), [a, b, c]);
        const paged = await h.call('GET', `${uri}/texttracks?page=3&per_page=1`);
        assert.deepEqual(paged.body.data.map((t: { uri: string }) => t.uri), [c]);
        assert.equal(paged.body.paging.next, null);
        assert.equal(paged.body.paging.previous, `${uri}/texttracks?page=2&per_page=1`);
        expectError(await h.call('GET', `${uri}/texttracks?per_page=0`), 400, 2204, 'per_page');
        expectError(await h.call('GET', '/videos/999999/texttracks'), 404, 5000);
      });

      it('gets one track: 404/5014 when it does not exist, 404/5015 when it is another video\'s', async () => {
        const uri = await video();
        const other = await video();
        const t = await track(uri);
        const r = await h.call('GET', t);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video.texttrack+json;version=3.4');
        assert.equal(r.body.uri, t);
        const id = t.split('/').pop();
        expectError(await h.call('GET', `${other}/texttracks/${id}`), 404, 5015);
        expectError(await h.call('GET', `${uri}/texttracks/999999`), 404, 5014);
        expectError(await h.call('GET', `${uri}/texttracks/abc`), 404, 5014);
        expectError(await h.call('GET', `/videos/999999/texttracks/${id}`), 404, 5000);
      });

      it('hides the tracks of a hidden video (404) and needs the password of a password video', async () => {
        const hidden = await video({ privacy: { view: 'disable' } });
        const t = await track(hidden);
        expectError(await h.call('GET', `${hidden}/texttracks`, { token: carol.token }), 404, 5000);
        expectError(await h.call('GET', t, { token: carol.token }), 404, 5000);
        expectError(await h.call('GET', t), 404, 5000);
        assert.equal((await h.call('GET', t, { token: alice.token })).status, 200);
        const locked = await video({ privacy: { view: 'password' }, password: 'pw' });
        const lt = await track(locked);
        expectError(await h.call('GET', `${locked}/texttracks`), 403, 3200);
        expectError(await h.call('GET', lt, { token: carol.token }), 403, 3200);
        assert.equal((await h.call('GET', `${locked}/texttracks?password=pw`)).body.total, 1);
        assert.equal((await h.call('GET', `${lt}?password=pw`, { token: carol.token })).status, 200);
      });
    });

    describe('PATCH', () => {
      it('edits every field and answers 200 with the track', async () => {
        const uri = await video();
        const t = await track(uri);
        const r = await h.call('PATCH', t, { token: alice.token, json: { name: 'Deutsch', language: 'de', type: 'subtitles', active: true } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video.texttrack+json;version=3.4');
        assert.deepEqual(
          { uri: r.body.uri, name: r.body.name, language: r.body.language, type: r.body.type, active: r.body.active },
          { uri: t, name: 'Deutsch', language: 'de', type: 'subtitles', active: true },
        );
        const partial = await h.call('PATCH', t, { token: alice.token, form: { active: 'false' } });
        assert.equal(partial.body.active, false);
        assert.equal(partial.body.name, 'Deutsch');
        assert.equal((await h.call('PATCH', t, { token: alice.token, json: {} })).body.name, 'Deutsch');
        assert.equal(await total(uri), 1);
      });

      it('answers 200 with the track in every version (SPEC.md lists no earlier 204 for it)', async () => {
        const uri = await video();
        const t = await track(uri);
        const r = await h.call('PATCH', t, { token: alice.token, version: '3.1', json: { name: 'Old form' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.name, 'Old form');
      });

      it('activating a track deactivates the active one of its language, and only that one', async () => {
        const uri = await video();
        const en1 = await track(uri, { active: true });
        const en2 = await track(uri);
        const fr = await track(uri, { language: 'fr', active: true });
        assert.equal((await h.call('PATCH', en2, { token: alice.token, json: { active: true } })).status, 200);
        assert.deepEqual(await actives(uri), { [en1]: false, [en2]: true, [fr]: true });
        // Moving an active track into another language displaces that language's active track.
        assert.equal((await h.call('PATCH', en2, { token: alice.token, json: { language: 'fr' } })).status, 200);
        assert.deepEqual(await actives(uri), { [en1]: false, [en2]: true, [fr]: false });
      });

      const invalid: [string, Record<string, unknown>][] = [
        ['language', { language: 'xx-YY' }],
        ['type', { type: 'lyrics' }],
        ['name', { name: '' }],
        ['active', { active: 'sometimes' }],
      ];
      for (const [field, body] of invalid) {
        it(`answers 403/2204 naming ${field} for ${JSON.stringify(body)} and changes nothing`, async () => {
          const uri = await video();
          const t = await track(uri);
          const before = (await h.call('GET', t)).body;
          expectError(await h.call('PATCH', t, { token: alice.token, json: { name: 'Changed', ...body } }), 403, 2204, field);
          assert.deepEqual((await h.call('GET', t)).body, before);
        });
      }

      it('answers 403/3430 to a caller who does not own the video, 404 for a hidden video, 5014 and 5015', async () => {
        const uri = await video();
        const other = await video();
        const t = await track(uri);
        const id = t.split('/').pop();
        expectError(await h.call('PATCH', t, { token: carol.token, json: { name: 'Mine' } }), 403, 3430);
        const hidden = await video({ privacy: { view: 'nobody' } });
        const ht = await track(hidden);
        expectError(await h.call('PATCH', ht, { token: carol.token, json: { name: 'Mine' } }), 404, 5000);
        expectError(await h.call('PATCH', `${uri}/texttracks/999999`, { token: alice.token, json: { name: 'X' } }), 404, 5014);
        expectError(await h.call('PATCH', `${other}/texttracks/${id}`, { token: alice.token, json: { name: 'X' } }), 404, 5015);
        expectError(await h.call('PATCH', `/videos/999999/texttracks/${id}`, { token: alice.token, json: { name: 'X' } }), 404, 5000);
        assert.equal((await h.call('GET', t)).body.name, 'English');
      });

      it('answers 403/3431 for a disabled track and changes nothing', async () => {
        const uri = await video();
        const en1 = await track(uri, { active: true });
        const en2 = await track(uri);
        await disable(en2);
        expectError(await h.call('PATCH', en2, { token: alice.token, json: { active: true, name: 'X' } }), 403, 3431);
        assert.deepEqual(await actives(uri), { [en1]: true, [en2]: false });
        assert.equal((await h.call('GET', en2)).body.name, 'English');
      });

      it('needs a user (401) and the edit scope (403)', async () => {
        const uri = await video();
        const t = await track(uri);
        expectError(await h.call('PATCH', t, { json: { name: 'X' } }), 401, 8003);
        const noEdit = await h.user('No edit', allBut('edit'));
        const r = await h.call('PATCH', t, { token: noEdit.token, json: { name: 'X' } });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"edit"/);
        assert.equal((await h.call('GET', t)).body.name, 'English');
      });
    });

    describe('DELETE', () => {
      it('answers 204 and keeps the count', async () => {
        const uri = await video();
        const t = await track(uri);
        const kept = await track(uri, { language: 'fr' });
        const r = await h.call('DELETE', t, { token: alice.token });
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        expectError(await h.call('GET', t), 404, 5014);
        assert.deepEqual(Object.keys(await actives(uri)), [kept]);
        assert.equal(await total(uri), 1);
        expectError(await h.call('DELETE', t, { token: alice.token }), 404, 5014);
        assert.equal(await total(uri), 1);
      });

      it('answers 200 with the deleted track before 3.2, 204 from 3.2', async () => {
        const uri = await video();
        const t1 = await track(uri);
        const t2 = await track(uri);
        const r = await h.call('DELETE', t1, { token: alice.token, version: '3.1' });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.uri, t1);
        assert.equal((await h.call('DELETE', t2, { token: alice.token, version: '3.2' })).status, 204);
        assert.equal(await total(uri), 0);
      });

      it('answers 403/3430 to a caller who does not own the video, 404 for a hidden video, 5014 and 5015', async () => {
        const uri = await video();
        const other = await video();
        const t = await track(uri);
        const id = t.split('/').pop();
        expectError(await h.call('DELETE', t, { token: carol.token }), 403, 3430);
        const hidden = await video({ privacy: { view: 'contacts' } });
        const ht = await track(hidden);
        expectError(await h.call('DELETE', ht, { token: carol.token }), 404, 5000);
        expectError(await h.call('DELETE', `${uri}/texttracks/999999`, { token: alice.token }), 404, 5014);
        expectError(await h.call('DELETE', `${other}/texttracks/${id}`, { token: alice.token }), 404, 5015);
        expectError(await h.call('DELETE', `/videos/999999/texttracks/${id}`, { token: alice.token }), 404, 5000);
        assert.equal(await total(uri), 1);
        assert.equal(await total(hidden), 1);
      });

      it('answers 403/3431 for a disabled track and keeps it', async () => {
        const uri = await video();
        const t = await track(uri);
        await disable(t);
        expectError(await h.call('DELETE', t, { token: alice.token }), 403, 3431);
        assert.equal((await h.call('GET', t)).status, 200);
        assert.equal(await total(uri), 1);
      });

      it('needs a user (401) and the delete scope (403)', async () => {
        const uri = await video();
        const t = await track(uri);
        expectError(await h.call('DELETE', t), 401, 8003);
        const noDelete = await h.user('No delete', allBut('delete'));
        const r = await h.call('DELETE', t, { token: noDelete.token });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"delete"/);
        assert.equal((await h.call('GET', t)).status, 200);
      });
    });

    it('a deleted video takes its tracks with it', async () => {
      const uri = await video();
      const t = await track(uri);
      assert.equal((await h.call('DELETE', uri, { token: alice.token })).status, 204);
      assert.equal(await h.service.store.get('texttracks', t.split('/').pop()!), null);
    });
  });
}
