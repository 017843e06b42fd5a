import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/me/albums and /users/{user_id}/albums (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const create = async (who: Fixture, json: Record<string, unknown>, version?: string): Promise<Answer> =>
      h.call('POST', '/me/albums', { token: who.token, json: { description: '', ...json }, version });
    const albumOf = async (who: Fixture, json: Record<string, unknown> = {}): Promise<string> => {
      h.clock.advance(60);
      const r = await create(who, { name: 'Album', ...json });
      assert.equal(r.status, 201, r.text);
      return r.body.uri;
    };
    const albumsTotal = async (who: Fixture): Promise<number> =>
      (await h.call('GET', '/me', { token: who.token })).body.metadata.connections.albums.total;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('POST', () => {
      it('creates an album: 201 with the typed Album, counted on the User', async () => {
        const r = await create(alice, { name: 'Trips', description: 'Summer 2025' });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.album+json;version=3.4');
        const id = r.body.uri.split('/').pop();
        const { user, pictures, resource_key, ...rest } = r.body;
        assert.deepEqual(rest, {
          uri: `/users/${alice.user.id}/albums/${id}`,
          name: 'Trips',
          description: 'Summer 2025',
          link: `${h.server.url}/users/${alice.user.id}/albums/${id}`,
          share_link: `${h.server.url}/albums/${id}/embed`,
          url: null,
          domain: null,
          use_custom_domain: false,
          created_time: '2026-01-02T03:04:05+00:00',
          modified_time: '2026-01-02T03:04:05+00:00',
          duration: 0,
          custom_logo: null,
          privacy: { view: 'anybody' },
          sort: 'arranged',
          layout: 'grid',
          theme: 'standard',
          brand_color: null,
          hide_nav: false,
          review_mode: false,
          autoplay: false,
          loop: false,
          allow_continuous_play: true,
          allow_downloads: false,
          allow_share: false,
          hide_vimeo_logo: true,
          embed_brand_color: false,
          embed_custom_logo: false,
          web_brand_color: false,
          web_custom_logo: false,
          embed: {
            html: `<iframe src="${h.server.url}/albums/${id}/embed" width="640" height="360" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="Trips"></iframe>`,
          },
          metadata: {
            connections: { videos: { uri: `/users/${alice.user.id}/albums/${id}/videos`, options: ['GET', 'PUT'], total: 0 } },
            interactions: {
              add_videos: { uri: `/users/${alice.user.id}/albums/${id}/videos`, options: ['GET', 'PUT'] },
              add_logos: { uri: `/users/${alice.user.id}/albums/${id}/logos`, options: ['GET', 'POST'] },
              add_custom_thumbnails: { uri: `/users/${alice.user.id}/albums/${id}/custom_thumbnails`, options: ['GET', 'POST'] },
              add_to: null,
            },
          },
        });
        assert.equal(user.uri, `/users/${alice.user.id}`);
        assert.equal(pictures.type, 'default');
        assert.match(resource_key, /^[0-9a-f]{40}$/);
        assert.equal(await albumsTotal(alice), 1);
      });

      it('takes every field of the Album table, from a form body too; the password is never shown', async () => {
        const r = await h.call('POST', `/users/${alice.user.id}/albums`, {
          token: alice.token,
          form: {
            name: 'Private <cut>',
            description: '',
            privacy: 'password',
            password: 'open sesame',
            sort: 'plays',
            brand_color: 'FF00aa',
            hide_nav: 'true',
            layout: 'player',
            review_mode: '1',
            theme: 'dark',
          },
        });
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(r.body.privacy, { view: 'password' });
        assert.equal(r.body.sort, 'plays');
        assert.equal(r.body.brand_color, '#ff00aa');
        assert.equal(r.body.hide_nav, true);
        assert.equal(r.body.layout, 'player');
        assert.equal(r.body.review_mode, true);
        assert.equal(r.body.theme, 'dark');
        assert.equal(r.body.embed_brand_color, true, "the album's player shows the brand colour");
        assert.equal(r.body.embed.html, null, 'a password album has no embed code');
        assert.equal(r.text.includes('open sesame'), false);
        const embedOnly = (await create(alice, { name: 'Embed <only>', privacy: 'embed_only' })).body;
        assert.equal(embedOnly.privacy.view, 'embed_only');
        assert.match(embedOnly.embed.html, /title="Embed &#60;only&#62;"><\/iframe>$/, 'the name is escaped in the embed code');
        assert.equal(await albumsTotal(alice), 3);
      });

      it('answers 400 naming a missing or bad field, and creates nothing', async () => {
        const before = await albumsTotal(alice);
        expectError(await h.call('POST', '/me/albums', { token: alice.token, json: { description: 'x' } }), 400, 2204, 'name');
        expectError(await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'x' } }), 400, 2204, 'description');
        expectError(await h.call('POST', '/me/albums', { token: alice.token }), 400, 2204, 'name');
        expectError(await create(alice, { name: '   ' }), 400, 2204, 'name');
        expectError(await create(alice, { name: 'x'.repeat(129) }), 400, 2204, 'name');
        expectError(await create(alice, { name: 'x', privacy: 'nobody' }), 400, 2204, 'privacy');
        expectError(await create(alice, { name: 'x', privacy: 'password' }), 400, 2204, 'password');
        expectError(await create(alice, { name: 'x', sort: 'random' }), 400, 2204, 'sort');
        expectError(await create(alice, { name: 'x', brand_color: 'red' }), 400, 2204, 'brand_color');
        expectError(await create(alice, { name: 'x', layout: 'list' }), 400, 2204, 'layout');
        expectError(await create(alice, { name: 'x', theme: 'light' }), 400, 2204, 'theme');
        expectError(await create(alice, { name: 'x', hide_nav: 'maybe' }), 400, 2204, 'hide_nav');
        expectError(await create(alice, { name: 'x', review_mode: 3 }), 400, 2204, 'review_mode');
        expectError(await h.call('POST', '/me/albums', { token: alice.token, raw: '[1]', headers: { 'content-type': 'application/json' } }), 400, 2205);
        assert.equal(await albumsTotal(alice), before);
      });

      it('before 3.2: 200, and privacy is anybody or password only', async () => {
        const old = await create(alice, { name: 'Old' }, '3.1');
        assert.equal(old.status, 200, old.text);
        assert.equal(old.headers.get('content-type'), 'application/json');
        expectError(await create(alice, { name: 'Old', privacy: 'embed_only' }, '3.1'), 400, 2204, 'privacy');
        assert.equal((await create(alice, { name: 'Old', privacy: 'password', password: 'pw' }, '3.1')).status, 200);
        const current = await create(alice, { name: 'New', privacy: 'embed_only' }, '3.2');
        assert.equal(current.status, 201, current.text);
        assert.equal(current.headers.get('content-type'), 'application/vnd.reelbase.album+json;version=3.2');
      });

      it('403 for another user or without the create scope; 401 anonymous; 404 unknown user', async () => {
        const before = await albumsTotal(bob);
        expectError(await h.call('POST', `/users/${bob.user.id}/albums`, { token: alice.token, json: { name: 'x', description: '' } }), 403, 3200);
        const noCreate = await h.user('No create', 'public,private,edit,delete,interact,upload');
        const r = await create(noCreate, { name: 'x' });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"create"/);
        expectError(await h.call('POST', '/me/albums', { json: { name: 'x', description: '' } }), 401, 8003);
        expectError(await h.call('POST', '/users/999999/albums', { token: alice.token, json: { name: 'x', description: '' } }), 404, 5000);
        assert.equal(await albumsTotal(bob), before);
      });
    });

    describe('GET one', () => {
      it('answers 200 with the Album to anyone, a password album too; 404 otherwise', async () => {
        const uri = await albumOf(alice, { name: 'Locked', privacy: 'password', password: 'pw' });
        const id = uri.split('/').pop();
        for (const options of [{}, { token: bob.token }, { token: alice.token }]) {
          const r = await h.call('GET', uri, options);
          assert.equal(r.status, 200, r.text);
          assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.album+json;version=3.4');
          assert.equal(r.body.name, 'Locked');
        }
        assert.equal((await h.call('GET', `/me/albums/${id}`, { token: alice.token })).body.uri, uri);
        expectError(await h.call('GET', `/me/albums/${id}`, { token: bob.token }), 404, 5000);
        expectError(await h.call('GET', `/users/${bob.user.id}/albums/${id}`), 404, 5000);
        expectError(await h.call('GET', `/users/${alice.user.id}/albums/999999`), 404, 5000);
        expectError(await h.call('GET', `/users/${alice.user.id}/albums/abc`), 404, 5000);
        expectError(await h.call('GET', `/users/999999/albums/${id}`), 404, 5000);
        expectError(await h.call('GET', `/me/albums/${id}`), 401, 8003);
      });

      it('has no connections before 3.2', async () => {
        const uri = await albumOf(alice);
        const r = await h.call('GET', uri, { version: '3.1' });
        assert.equal(r.body.metadata, undefined);
        assert.equal(r.body.name, 'Album');
      });
    });

    describe('PATCH', () => {
      it('edits the fields given: 200 with the Album (204 before 3.2)', async () => {
        const uri = await albumOf(alice, { name: 'Before', description: 'd', theme: 'dark' });
        h.clock.advance(60);
        const r = await h.call('PATCH', uri, { token: alice.token, json: { name: 'After', brand_color: '#ABC', hide_nav: true } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.album+json;version=3.4');
        assert.equal(r.body.name, 'After');
        assert.equal(r.body.description, 'd');
        assert.equal(r.body.theme, 'dark');
        assert.equal(r.body.brand_color, '#abc');
        assert.equal(r.body.hide_nav, true);
        assert.notEqual(r.body.modified_time, r.body.created_time);
        const old = await h.call('PATCH', uri, { token: alice.token, form: { layout: 'player' }, version: '3.1' });
        assert.equal(old.status, 204, old.text);
        assert.equal(old.text, '');
        assert.equal((await h.call('GET', uri)).body.layout, 'player');
      });

      it('password privacy needs a password unless the album has one; leaving it forgets the password', async () => {
        const uri = await albumOf(alice);
        const videos = `${uri}/videos`;
        expectError(await h.call('PATCH', uri, { token: alice.token, json: { privacy: 'password' } }), 400, 2204, 'password');
        assert.equal((await h.call('GET', uri)).body.privacy.view, 'anybody');
        assert.equal((await h.call('PATCH', uri, { token: alice.token, json: { privacy: 'password', password: 'pw' } })).status, 200);
        assert.equal((await h.call('PATCH', uri, { token: alice.token, json: { name: 'Renamed' } })).status, 200);
        expectError(await h.call('GET', videos, { token: bob.token }), 403, 3200);
        assert.equal((await h.call('GET', `${videos}?password=pw`, { token: bob.token })).status, 200);
        assert.equal((await h.call('PATCH', uri, { token: alice.token, json: { password: 'new' } })).status, 200);
        expectError(await h.call('GET', `${videos}?password=pw`, { token: bob.token }), 403, 3200);
        assert.equal((await h.call('GET', `${videos}?password=new`, { token: bob.token })).status, 200);
        assert.equal((await h.call('PATCH', uri, { token: alice.token, json: { privacy: 'anybody' } })).status, 200);
        assert.equal((await h.call('GET', videos, { token: bob.token })).status, 200);
        expectError(await h.call('PATCH', uri, { token: alice.token, json: { privacy: 'password' } }), 400, 2204, 'password');
      });

      it('embed_only only from 3.2', async () => {
        const uri = await albumOf(alice);
        expectError(await h.call('PATCH', uri, { token: alice.token, json: { privacy: 'embed_only' }, version: '3.1' }), 400, 2204, 'privacy');
        assert.equal((await h.call('PATCH', uri, { token: alice.token, json: { privacy: 'embed_only' }, version: '3.2' })).body.privacy.view, 'embed_only');
      });

      it('403 for anyone but the owner or without the edit scope; 404 unknown; 400 bad field; nothing changes', async () => {
        const uri = await albumOf(alice, { name: 'Mine' });
        const id = uri.split('/').pop();
        expectError(await h.call('PATCH', uri, { token: bob.token, json: { name: 'Stolen' } }), 403, 3200);
        expectError(await h.call('PATCH', `/me/albums/${id}`, { token: bob.token, json: { name: 'Stolen' } }), 404, 5000);
        const noEdit = await h.user('No edit', 'public,private,create,delete,interact,upload');
        expectError(await h.call('PATCH', `/me/albums/${id}`, { token: noEdit.token, json: { name: 'x' } }), 403, 3200);
        expectError(await h.call('PATCH', `/users/${alice.user.id}/albums/999999`, { token: alice.token, json: { name: 'x' } }), 404, 5000);
        expectError(await h.call('PATCH', uri, { token: alice.token, json: { name: '', theme: 'dark' } }), 400, 2204, 'name');
        expectError(await h.call('PATCH', uri, { token: alice.token, json: { sort: 'manual' } }), 400, 2204, 'sort');
        expectError(await h.call('PATCH', uri, { json: { name: 'x' } }), 401, 8003);
        const r = await h.call('GET', uri);
        assert.equal(r.body.name, 'Mine');
        assert.equal(r.body.theme, 'standard');
      });
    });

    describe('DELETE', () => {
      it('deletes the album (204) and uncounts it; 403 for others; 404 after', async () => {
        const uri = await albumOf(alice);
        const video = await h.video(alice);
        assert.equal((await h.call('PUT', `${uri}/videos/${video}`, { token: alice.token })).status, 204);
        const before = await albumsTotal(alice);
        expectError(await h.call('DELETE', uri, { token: bob.token }), 403, 3200);
        const noDelete = await h.user('No delete', 'public,private,create,edit,interact,upload');
        expectError(await h.call('DELETE', uri, { token: noDelete.token }), 403, 3200);
        expectError(await h.call('DELETE', uri), 401, 8003);
        assert.equal(await albumsTotal(alice), before);
        const r = await h.call('DELETE', uri, { token: alice.token });
        assert.equal(r.status, 204, r.text);
        assert.equal(await albumsTotal(alice), before - 1);
        expectError(await h.call('GET', uri), 404, 5000);
        expectError(await h.call('DELETE', uri, { token: alice.token }), 404, 5000);
        assert.equal((await h.call('GET', `/videos/${video}`)).status, 200, 'the videos stay');
        assert.equal(await h.service.store.count('album_videos', { field: 'video_id', op: 'eq', value: video }), 0);
      });
    });
  });
}

for (const driver of drivers) {
  describe(`GET /me/albums and /users/{user_id}/albums (${driver.name})`, () => {
    let h: Harness;
    let carol: Fixture;
    let dave: Fixture;
    const names = (r: Answer): string[] => r.body.data.map((a: { name: string }) => a.name);
    const list = async (query: string, token?: string): Promise<Answer> => {
      const r = await h.call('GET', `/users/${carol.user.id}/albums${query}`, { token });
      assert.equal(r.status, 200, r.text);
      return r;
    };
    before(async () => {
      h = await Harness.start(driver);
      carol = await h.user('Carol');
      dave = await h.user('Dave');
      const albums = [
        { name: 'beta', description: 'holiday clips', videos: 2, duration: 5 },
        { name: 'Alpha', description: 'work', videos: 0, duration: 0 },
        { name: 'gamma', description: 'Holiday again', videos: 1, duration: 50, privacy: 'password', password: 'pw' },
        { name: 'Delta', description: '', videos: 3, duration: 2, privacy: 'embed_only' },
      ];
      for (const { videos, duration, ...json } of albums) {
        h.clock.advance(60);
        const r = await h.call('POST', '/me/albums', { token: carol.token, json });
        assert.equal(r.status, 201, r.text);
        for (let i = 0; i < videos; i++) {
          const id = await h.video(carol);
          await h.service.store.update('videos', id, { duration });
          assert.equal((await h.call('PUT', `${r.body.uri}/videos/${id}`, { token: carol.token })).status, 204);
        }
      }
    });
    after(() => h.stop());

    it('lists newest first with the typed content type; the owner sees every album', async () => {
      const r = await h.call('GET', '/me/albums', { token: carol.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.album+json;version=3.4');
      assert.equal(r.body.total, 4);
      assert.deepEqual(names(r), ['Delta', 'gamma', 'Alpha', 'beta']);
      assert.deepEqual(
        r.body.data.map((a: { duration: number; metadata: { connections: { videos: { total: number } } } }) => [a.duration, a.metadata.connections.videos.total]),
        [[6, 3], [50, 1], [0, 0], [10, 2]],
      );
    });

    it('others see every album but the password-protected ones, with a true total', async () => {
      for (const token of [undefined, dave.token]) {
        const r = await list('', token);
        assert.equal(r.body.total, 3);
        assert.deepEqual(names(r), ['Delta', 'Alpha', 'beta']);
      }
    });

    it('sorts alphabetically (case-insensitively), by date, duration and videos; direction flips', async () => {
      const token = carol.token;
      assert.deepEqual(names(await list('?sort=alphabetical', token)), ['Alpha', 'beta', 'Delta', 'gamma']);
      assert.deepEqual(names(await list('?sort=alphabetical&direction=desc', token)), ['gamma', 'Delta', 'beta', 'Alpha']);
      assert.deepEqual(names(await list('?sort=date&direction=asc', token)), ['beta', 'Alpha', 'gamma', 'Delta']);
      assert.deepEqual(names(await list('?sort=duration', token)), ['gamma', 'beta', 'Delta', 'Alpha']);
      assert.deepEqual(names(await list('?sort=videos', token)), ['Delta', 'beta', 'gamma', 'Alpha']);
      assert.deepEqual(names(await list('?sort=videos&direction=asc', token)), ['Alpha', 'gamma', 'beta', 'Delta']);
    });

    it('query matches the name or description, case-insensitively', async () => {
      assert.deepEqual(names(await list('?query=HOLIDAY', carol.token)), ['gamma', 'beta']);
      assert.deepEqual(names(await list('?query=holiday', dave.token)), ['beta']);
      assert.deepEqual(names(await list('?query=alp')), ['Alpha']);
    });

    it('pages with paging links that keep the other parameters', async () => {
      const r = await list('?sort=alphabetical&per_page=3&page=2', carol.token);
      assert.equal(r.body.total, 4);
      assert.deepEqual(names(r), ['gamma']);
      assert.equal(r.body.paging.previous, `/users/${carol.user.id}/albums?sort=alphabetical&per_page=3&page=1`);
      assert.equal(r.body.paging.next, null);
    });

    it('answers 400 naming an invalid parameter; 404 for an unknown user; 401 for /me anonymously', async () => {
      const base = `/users/${carol.user.id}/albums`;
      expectError(await h.call('GET', `${base}?sort=plays`), 400, 2204, 'sort');
      expectError(await h.call('GET', `${base}?direction=up`), 400, 2204, 'direction');
      expectError(await h.call('GET', `${base}?per_page=101`), 400, 2204, 'per_page');
      expectError(await h.call('GET', `${base}?page=0`), 400, 2204, 'page');
      expectError(await h.call('GET', '/users/999999/albums'), 404, 5000);
      expectError(await h.call('GET', '/me/albums'), 401, 8003);
    });
  });
}
