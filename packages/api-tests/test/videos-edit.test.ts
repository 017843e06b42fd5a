import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { invalidVideoFields } from '../src/video-fields';

for (const driver of drivers) {
  describe(`GET/PATCH/DELETE /videos/{video_id} (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let video: string;
    const create = async (who: Fixture, json: Record<string, unknown> = {}) => {
      const r = await h.call('POST', '/me/videos', { token: who.token, json: { name: 'Clip', ...json } });
      assert.equal(r.status, 201, r.text);
      return r.body.uri as string;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      video = await create(alice);
    });
    after(() => h.stop());

    it('GET answers a public video to anyone and 404 for a missing one', async () => {
      const r = await h.call('GET', video);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(r.body.uri, video);
      assert.equal(r.body.metadata.connections.comments.uri, `${video}/comments`);
      assert.deepEqual(r.body.metadata.interactions, {});
      expectError(await h.call('GET', '/videos/999999'), 404, 5000);
    });

    it('GET hides nobody and disable videos from everyone but the owner', async () => {
      for (const view of ['nobody', 'disable']) {
        const uri = await create(alice, { privacy: { view } });
        assert.equal((await h.call('GET', uri, { token: alice.token })).status, 200);
        expectError(await h.call('GET', uri, { token: bob.token }), 404, 5000);
        expectError(await h.call('GET', uri), 404, 5000);
      }
    });

    it('GET of a password video needs the password unless owner', async () => {
      const uri = await create(alice, { privacy: { view: 'password' }, password: 's3cret' });
      assert.equal((await h.call('GET', uri, { token: alice.token })).status, 200);
      expectError(await h.call('GET', uri, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', `${uri}?password=wrong`, { token: bob.token }), 403, 3200);
      const ok = await h.call('GET', `${uri}?password=s3cret`);
      assert.equal(ok.status, 200);
      assert.equal(ok.body.password, undefined);
    });

    it('GET of an unlisted video works by direct id', async () => {
      const uri = await create(alice, { privacy: { view: 'unlisted' } });
      assert.equal((await h.call('GET', uri)).status, 200);
    });

    it('PATCH edits every field of the Video table (JSON)', async () => {
      const r = await h.call('PATCH', video, {
        token: alice.token,
        json: {
          name: 'Renamed',
          description: 'New words',
          content_rating: ['violence', 'language'],
          license: 'cc0',
          locale: 'fr',
          privacy: { view: 'anybody', comments: 'nobody', embed: 'private', download: false, add: false },
          review_page: { active: false },
          embed: {
            buttons: { embed: false, fullscreen: false, hd: true, like: false, scaling: false, share: false, watchlater: false },
            color: '#abcdef',
            logos: { custom: { active: true, sticky: true, link: 'https://example.com' }, service: false },
            playbar: false,
            volume: false,
            title: { name: 'show', owner: 'hide', portrait: 'user' },
          },
          external_links: { imdb: 'https://www.imdb.com/title/tt0000001/', rotten_tomatoes: 'https://www.rottentomatoes.com/m/x' },
          ratings: { mpaa: { rating: 'pg13', reason: 'at' }, tv: { rating: 'tv-y7-fv', reason: 'fv' } },
          spatial: {
            projection: 'cubical',
            stereo_format: 'top-bottom',
            field_of_view: 90,
            director_timeline: [{ time_code: 1.5, pitch: -90, yaw: 360, roll: 3 }, { time_code: 0, pitch: 90, yaw: 0 }],
          },
        },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      const v = r.body;
      assert.equal(v.name, 'Renamed');
      assert.equal(v.description, 'New words');
      assert.deepEqual(v.content_rating, ['violence', 'language']);
      assert.equal(v.license, 'cc0');
      assert.equal(v.language, 'fr');
      assert.deepEqual(v.privacy, { view: 'anybody', comments: 'nobody', embed: 'private', download: false, add: false });
      assert.equal(v.review_page.active, false);
      assert.deepEqual(v.embed.buttons, { embed: false, fullscreen: false, hd: true, like: false, scaling: false, share: false, watchlater: false });
      assert.equal(v.embed.color, '#abcdef');
      // `vimeo` is the hosted API's name of the service logo; speed controls come with the playbar.
      assert.deepEqual(v.embed.logos, { custom: { active: true, sticky: true, link: 'https://example.com' }, service: false, vimeo: false });
      assert.equal(v.embed.playbar, false);
      assert.equal(v.embed.speed, false);
      assert.equal(v.embed.volume, false);
      assert.deepEqual(v.embed.title, { name: 'show', owner: 'hide', portrait: 'user' });
      assert.match(v.embed.html, /^<iframe /);
      assert.deepEqual(v.external_links, { imdb: 'https://www.imdb.com/title/tt0000001/', rotten_tomatoes: 'https://www.rottentomatoes.com/m/x' });
      assert.deepEqual(v.ratings, { mpaa: { rating: 'pg13', reason: 'at' }, tv: { rating: 'tv-y7-fv', reason: 'fv' } });
      assert.deepEqual(v.spatial, {
        projection: 'cubical',
        stereo_format: 'top-bottom',
        field_of_view: 90,
        director_timeline: [{ time_code: 1.5, pitch: -90, yaw: 360, roll: 3 }, { time_code: 0, pitch: 90, yaw: 0 }],
      });
      assert.equal(v.modified_time, '2026-01-02T03:04:05+00:00');
      const again = await h.call('GET', video);
      assert.deepEqual(again.body.spatial, v.spatial);
    });

    it('PATCH keeps nested settings it was not given', async () => {
      const r = await h.call('PATCH', video, { token: alice.token, form: { 'embed.buttons.like': 'true', 'spatial.field_of_view': '30' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.embed.buttons.like, true);
      assert.equal(r.body.embed.buttons.hd, true);
      assert.equal(r.body.spatial.field_of_view, 30);
      assert.equal(r.body.spatial.projection, 'cubical');
      assert.equal(r.body.name, 'Renamed');
    });

    for (const [field, body] of invalidVideoFields) {
      it(`PATCH rejects ${field}=${JSON.stringify(body).slice(0, 60)} with 400 and changes nothing`, async () => {
        const r = await h.call('PATCH', video, { token: alice.token, json: { ...body, name: field === 'name' ? body.name : 'Should not stick' } });
        expectError(r, 400, 2204, field);
        assert.notEqual((await h.call('GET', video)).body.name, 'Should not stick');
      });
    }

    it('PATCH sets a password with privacy.view password', async () => {
      const uri = await create(alice);
      const r = await h.call('PATCH', uri, { token: alice.token, json: { privacy: { view: 'password' }, password: 'pw' } });
      assert.equal(r.status, 200);
      assert.equal(r.body.privacy.view, 'password');
      assert.equal((await h.call('GET', `${uri}?password=pw`)).status, 200);
    });

    it('PATCH answers 400/2511 to an invalid scheduled_start_time', async () => {
      for (const value of ['tomorrow', '2020-01-01T00:00:00Z', '2026-13-45T99:00:00Z']) {
        expectError(await h.call('PATCH', video, { token: alice.token, json: { scheduled_start_time: value } }), 400, 2511, 'scheduled_start_time');
      }
      const ok = await h.call('PATCH', video, { token: alice.token, json: { scheduled_start_time: '2026-02-01T10:00:00Z' } });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.scheduled_start_time, '2026-02-01T10:00:00Z');
    });

    it('PATCH of users privacy needs a JSON body', async () => {
      expectError(await h.call('PATCH', video, { token: alice.token, form: { 'privacy.view': 'users' } }), 400, 2204, 'privacy.view');
      const ok = await h.call('PATCH', video, { token: alice.token, json: { privacy: { view: 'users' } } });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.privacy.view, 'users');
      await h.call('PATCH', video, { token: alice.token, json: { privacy: { view: 'anybody' } } });
    });

    it('PATCH by someone else is 403; without edit scope 403; anonymous 401', async () => {
      expectError(await h.call('PATCH', video, { token: bob.token, json: { name: 'Mine now' } }), 403, 3200);
      const ro = await h.user('ReadOnly', 'public,private');
      expectError(await h.call('PATCH', video, { token: ro.token, json: { name: 'x' } }), 403, 3200);
      expectError(await h.call('PATCH', video, { json: { name: 'x' } }), 401, 8003);
      expectError(await h.call('PATCH', '/videos/999999', { token: alice.token, json: { name: 'x' } }), 404, 5000);
    });

    it('PATCH enforces the plan rules of SPEC.md with 403', async () => {
      const basic = await h.user('Basic', 'all', { account: 'basic' });
      const uri = await create(basic);
      expectError(await h.call('PATCH', uri, { token: basic.token, json: { privacy: { view: 'unlisted' } } }), 403, 3200);
      expectError(await h.call('PATCH', uri, { token: basic.token, json: { privacy: { download: false } } }), 403, 3200);
      assert.equal((await h.call('PATCH', uri, { token: basic.token, json: { privacy: { view: 'disable' } } })).status, 200);
      expectError(await h.call('PATCH', uri, { token: basic.token, json: { embed: { color: '#000000' } } }), 403, 3200);
      const noFollow = await h.user('NoFollow', 'all', { can_follow: false });
      const nf = await create(noFollow);
      expectError(await h.call('PATCH', nf, { token: noFollow.token, json: { privacy: { view: 'contacts' } } }), 403, 3200);
      const optOut = await h.user('OptOut', 'all', { privacy_opt_out: true });
      const oo = await create(optOut);
      for (const view of ['users', 'nobody', 'anybody']) {
        expectError(await h.call('PATCH', oo, { token: optOut.token, json: { privacy: { view } } }), 403, 3200);
      }
      assert.equal((await h.call('PATCH', oo, { token: optOut.token, json: { privacy: { view: 'unlisted' } } })).status, 200);
    });

    it('PATCH answers 204 before 3.2; review_link before 3.3.6, review_page after', async () => {
      const old = await h.call('PATCH', video, { token: alice.token, json: { review_link: true }, version: '3.1' });
      assert.equal(old.status, 204);
      const v33 = await h.call('GET', video, { token: alice.token, version: '3.3' });
      assert.equal(v33.body.review_page, undefined);
      assert.match(v33.body.review_link, /^http/);
      assert.equal(v33.body.parent_folder, undefined);
      assert.deepEqual(v33.body.categories, []);
      const v34 = await h.call('GET', video, { token: alice.token });
      assert.equal(v34.body.review_page.active, true);
      assert.equal(v34.body.parent_folder, null);
      assert.deepEqual(v34.body.metadata.connections.recommendations, { uri: `${video}/recommendations`, options: ['GET'] });
      const v32 = await h.call('GET', video, { version: '3.2' });
      assert.equal(v32.body.categories, undefined);
      assert.equal(v32.body.pictures.default, true);
      assert.equal(v34.body.pictures.default, undefined);
    });

    it('GET /me/videos/{video_id} checks ownership', async () => {
      const id = video.split('/').pop();
      const mine = await h.call('GET', `/me/videos/${id}`, { token: alice.token });
      assert.equal(mine.status, 200);
      assert.equal(mine.body.uri, video);
      expectError(await h.call('GET', `/me/videos/${id}`, { token: bob.token }), 404, 5000);
      assert.equal((await h.call('GET', `/users/${alice.user.id}/videos/${id}`)).status, 200);
      expectError(await h.call('GET', `/users/${bob.user.id}/videos/${id}`), 404, 5000);
      expectError(await h.call('GET', `/me/videos/${id}`), 401, 8003);
    });

    it('DELETE is owner-only, needs the delete scope, and removes the video', async () => {
      const uri = await create(alice);
      const before = (await h.call('GET', '/me', { token: alice.token })).body.metadata.connections.videos.total;
      expectError(await h.call('DELETE', uri, { token: bob.token }), 403, 3200);
      const noDelete = await h.user('NoDelete', 'public,edit');
      expectError(await h.call('DELETE', uri, { token: noDelete.token }), 403, 3200);
      const r = await h.call('DELETE', uri, { token: alice.token });
      assert.equal(r.status, 204);
      assert.equal(r.text, '');
      expectError(await h.call('GET', uri, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', uri, { token: alice.token }), 404, 5000);
      const after = (await h.call('GET', '/me', { token: alice.token })).body.metadata.connections.videos.total;
      assert.equal(after, before - 1);
    });
  });
}
