import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

const defaultSettings = {
  outro: null,
  buttons: { embed: true, fullscreen: true, hd: false, like: true, scaling: true, share: true, watchlater: true },
  color: '#00adef',
  logos: { service: true, custom: { active: false, link: null, sticky: false } },
  playbar: true,
  volume: true,
  title: { name: 'user', owner: 'user', portrait: 'user' },
};

for (const driver of drivers) {
  describe(`/me/presets and /users/{user_id}/presets (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    /** Creates a preset through the API and answers its uri. */
    const create = async (owner: Fixture = alice, json: Record<string, unknown> = {}): Promise<string> => {
      h.clock.advance(1);
      const r = await h.call('POST', '/me/presets', { token: owner.token, json: { name: 'Preset', ...json } });
      assert.equal(r.status, 201, r.text);
      return r.body.uri as string;
    };
    const idOf = (uri: string): string => uri.split('/').pop()!;
    const mine = (uri: string): string => `/me/presets/${idOf(uri)}`;
    const stored = (uri: string) => h.service.store.get('presets', idOf(uri));
    const presetCount = async (owner: Fixture): Promise<number> => h.service.store.count('presets', { field: 'user_id', op: 'eq', value: owner.user.id });
    const videosTotal = async (uri: string): Promise<number> =>
      (await h.call('GET', mine(uri), { token: alice.token })).body.metadata.connections.videos.total;
    const video = async (owner: Fixture = alice, json: Record<string, unknown> = {}): Promise<string> => {
      h.clock.advance(1);
      return `/videos/${await h.video(owner, json)}`;
    };
    const apply = async (videoUri: string, preset: string, owner: Fixture = alice): Promise<void> => {
      const r = await h.call('PUT', `${videoUri}/presets/${idOf(preset)}`, { token: owner.token });
      assert.equal(r.status, 204, r.text);
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('POST (extension)', () => {
      it('answers 201 with a typed preset holding the default settings', async () => {
        const r = await h.call('POST', '/me/presets', { token: alice.token, json: { name: '  Plain  ' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.preset+json;version=3.4');
        const id = idOf(r.body.uri);
        assert.equal(r.body.uri, `/users/${alice.user.id}/presets/${id}`);
        assert.equal(r.body.name, 'Plain');
        assert.equal(r.body.link, `${h.server.url}/users/${alice.user.id}/presets/${id}`);
        assert.deepEqual(r.body.settings, defaultSettings);
        assert.equal(r.body.user.uri, `/users/${alice.user.id}`);
        assert.equal(r.body.user.name, 'Alice');
        assert.equal(r.body.created_time, h.clock.now().toISOString().replace('.000Z', '+00:00'));
        assert.equal(r.body.modified_time, r.body.created_time);
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
        assert.deepEqual(r.body.metadata, {
          connections: { videos: { uri: `/users/${alice.user.id}/presets/${id}/videos`, options: ['GET'], total: 0 } },
        });
      });

      it('takes the outro and the embed settings, as JSON or dot-notation form fields', async () => {
        const json = await h.call('POST', '/me/presets', {
          token: alice.token,
          json: {
            name: 'Branded',
            outro: 'nothing',
            buttons: { like: false, hd: true },
            color: 'ff0000',
            logos: { service: false, custom: { active: true, link: 'https://example.com', sticky: true } },
            playbar: false,
            volume: false,
            title: { name: 'hide', owner: 'show' },
          },
        });
        assert.equal(json.status, 201, json.text);
        assert.deepEqual(json.body.settings, {
          outro: 'nothing',
          buttons: { ...defaultSettings.buttons, like: false, hd: true },
          color: '#ff0000',
          logos: { service: false, custom: { active: true, link: 'https://example.com', sticky: true } },
          playbar: false,
          volume: false,
          title: { name: 'hide', owner: 'show', portrait: 'user' },
        });
        const form = await h.call('POST', '/me/presets', {
          token: alice.token,
          form: { name: 'Form', outro: 'nothing', 'buttons.share': 'false', color: '#abc', 'title.portrait': 'hide' },
        });
        assert.equal(form.status, 201, form.text);
        assert.equal(form.body.settings.outro, 'nothing');
        assert.equal(form.body.settings.buttons.share, false);
        assert.equal(form.body.settings.buttons.like, true);
        assert.equal(form.body.settings.color, '#abc');
        assert.equal(form.body.settings.title.portrait, 'hide');
      });

      it('creates through /users/{user_id} for the caller; 403 for another user, 404 for a missing one, and creates nothing', async () => {
        const r = await h.call('POST', `/users/${alice.user.id}/presets`, { token: alice.token, json: { name: 'Via users' } });
        assert.equal(r.status, 201, r.text);
        assert.match(r.body.uri, new RegExp(`^/users/${alice.user.id}/presets/\\d+$`));
        const [aliceBefore, bobBefore] = [await presetCount(alice), await presetCount(bob)];
        expectError(await h.call('POST', `/users/${bob.user.id}/presets`, { token: alice.token, json: { name: 'Theirs' } }), 403, 3200);
        expectError(await h.call('POST', '/users/999999/presets', { token: alice.token, json: { name: 'Nobody' } }), 404, 5000);
        assert.equal(await presetCount(alice), aliceBefore);
        assert.equal(await presetCount(bob), bobBefore);
      });

      const invalid: [string, Record<string, unknown>][] = [
        ['name', {}],
        ['name', { name: '' }],
        ['name', { name: '   ' }],
        ['name', { name: 'x'.repeat(129) }],
        ['outro', { name: 'P', outro: 'videos' }],
        ['outro', { name: 'P', outro: true }],
        ['color', { name: 'P', color: 'red' }],
        ['buttons.like', { name: 'P', buttons: { like: 'maybe' } }],
        ['title.name', { name: 'P', title: { name: 'shout' } }],
        ['logos.custom.link', { name: 'P', logos: { custom: { link: 'ftp://example.com' } } }],
        ['playbar', { name: 'P', playbar: 'sometimes' }],
      ];
      for (const [field, json] of invalid) {
        it(`rejects ${JSON.stringify(json).slice(0, 60)} with 400 naming ${field} and creates nothing`, async () => {
          const before = await presetCount(alice);
          expectError(await h.call('POST', '/me/presets', { token: alice.token, json }), 400, 2204, field);
          assert.equal(await presetCount(alice), before);
        });
      }

      it('answers 2205 to a body that is not an object', async () => {
        expectError(await h.call('POST', '/me/presets', { token: alice.token, json: [{ name: 'P' }] }), 400, 2205);
      });

      it('needs a user (401) with the create scope (403)', async () => {
        const noCreate = await h.user('NoCreate', 'public,edit,delete,upload');
        expectError(await h.call('POST', '/me/presets', { json: { name: 'P' } }), 401, 8003);
        expectError(await h.call('POST', `/users/${alice.user.id}/presets`, { json: { name: 'P' } }), 401, 8003);
        expectError(await h.call('POST', '/me/presets', { token: noCreate.token, json: { name: 'P' } }), 403, 3200);
        assert.equal(await presetCount(noCreate), 0);
      });

      it('answers plain JSON without connections in 3.1', async () => {
        const r = await h.call('POST', '/me/presets', { token: alice.token, json: { name: 'Old' }, version: '3.1' });
        assert.equal(r.status, 201);
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.equal(r.body.metadata, undefined);
        assert.deepEqual(r.body.settings, defaultSettings);
      });
    });

    describe('GET list', () => {
      it("lists only the caller's presets, newest first, paged", async () => {
        const carol = await h.user('Carol');
        const a = await create(carol, { name: 'A' });
        const b = await create(carol, { name: 'B' });
        const c = await create(carol, { name: 'C' });
        await create(bob, { name: 'Not Carol’s' });
        const r = await h.call('GET', '/me/presets', { token: carol.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.preset+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.equal(r.body.page, 1);
        assert.equal(r.body.per_page, 25);
        assert.deepEqual(r.body.data.map((p: { uri: string }) => p.uri), [c, b, a]);
        assert.deepEqual(r.body.data[0].settings, defaultSettings);
        const page2 = await h.call('GET', `/users/${carol.user.id}/presets?per_page=2&page=2`, { token: carol.token });
        assert.equal(page2.status, 200, page2.text);
        assert.equal(page2.body.total, 3);
        assert.deepEqual(page2.body.data.map((p: { uri: string }) => p.uri), [a]);
        assert.equal(page2.body.paging.next, null);
        assert.equal(page2.body.paging.previous, `/users/${carol.user.id}/presets?per_page=2&page=1`);
        assert.equal(page2.body.paging.last, `/users/${carol.user.id}/presets?per_page=2&page=2`);
        assert.deepEqual((await h.call('GET', '/me/presets?page=3&per_page=2', { token: carol.token })).body.data, []);
      });

      it('answers an empty list to a user without presets', async () => {
        const dave = await h.user('Dave');
        const r = await h.call('GET', '/me/presets', { token: dave.token });
        assert.equal(r.status, 200);
        assert.equal(r.body.total, 0);
        assert.deepEqual(r.body.data, []);
      });

      it("is 403 for another user's presets, 404 for a missing user, 401 without a user, 400 for bad paging", async () => {
        await create(bob);
        expectError(await h.call('GET', `/users/${bob.user.id}/presets`, { token: alice.token }), 403, 3200);
        expectError(await h.call('GET', '/users/999999/presets', { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', '/me/presets'), 401, 8003);
        expectError(await h.call('GET', `/users/${bob.user.id}/presets`), 401, 8003);
        expectError(await h.call('GET', '/me/presets?per_page=101', { token: alice.token }), 400, 2204, 'per_page');
        expectError(await h.call('GET', '/me/presets?page=0', { token: alice.token }), 400, 2204, 'page');
      });
    });

    describe('GET one', () => {
      it('answers the preset through both paths', async () => {
        const uri = await create(alice, { name: 'One', outro: 'nothing' });
        for (const path of [mine(uri), uri]) {
          const r = await h.call('GET', path, { token: alice.token });
          assert.equal(r.status, 200, r.text);
          assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.preset+json;version=3.4');
          assert.equal(r.body.uri, uri);
          assert.equal(r.body.name, 'One');
          assert.equal(r.body.settings.outro, 'nothing');
        }
      });

      it('is 404 when missing or not owned (by the caller or the user the path names), 401 without a user', async () => {
        const aliceUri = await create(alice);
        const bobUri = await create(bob);
        expectError(await h.call('GET', '/me/presets/999999', { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', '/me/presets/abc', { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', mine(bobUri), { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', bobUri, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `/users/${bob.user.id}/presets/${idOf(aliceUri)}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `/users/999999/presets/${idOf(aliceUri)}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', aliceUri), 401, 8003);
        expectError(await h.call('GET', mine(aliceUri)), 401, 8003);
      });
    });

    describe('PATCH', () => {
      it('outro nothing disables the outro: 200 with the preset, modified_time moves', async () => {
        const uri = await create();
        const created = (await h.call('GET', uri, { token: alice.token })).body;
        h.clock.advance(60);
        const r = await h.call('PATCH', mine(uri), { token: alice.token, form: { outro: 'nothing' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.preset+json;version=3.4');
        assert.deepEqual(r.body.settings, { ...defaultSettings, outro: 'nothing' });
        assert.equal(r.body.created_time, created.created_time);
        assert.equal(r.body.modified_time, h.clock.now().toISOString().replace('.000Z', '+00:00'));
        assert.deepEqual((await h.call('GET', uri, { token: alice.token })).body, r.body);
      });

      it('changes the name and merges the other settings; JSON null brings the default outro back', async () => {
        const uri = await create(alice, { outro: 'nothing', buttons: { like: false } });
        const r = await h.call('PATCH', uri, { token: alice.token, json: { name: 'Renamed', buttons: { share: false }, color: '123456' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.name, 'Renamed');
        assert.deepEqual(r.body.settings, {
          ...defaultSettings,
          outro: 'nothing',
          buttons: { ...defaultSettings.buttons, like: false, share: false },
          color: '#123456',
        });
        const back = await h.call('PATCH', uri, { token: alice.token, json: { outro: null } });
        assert.equal(back.body.settings.outro, null);
        assert.equal(back.body.name, 'Renamed');
        const empty = await h.call('PATCH', uri, { token: alice.token, json: {} });
        assert.equal(empty.status, 200);
        assert.deepEqual(empty.body.settings, back.body.settings);
      });

      it('answers 200 with the preset in 3.1 too (presets are not among the 204-before-3.2 operations)', async () => {
        const uri = await create();
        const r = await h.call('PATCH', uri, { token: alice.token, json: { outro: 'nothing' }, version: '3.1' });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.equal(r.body.settings.outro, 'nothing');
        assert.equal(r.body.metadata, undefined);
      });

      for (const [field, json] of [
        ['outro', { outro: 'videos' }],
        ['outro', { outro: '' }],
        ['outro', { outro: 'NOTHING' }],
        ['name', { name: ' ' }],
        ['color', { outro: 'nothing', color: 'blue' }],
        ['title.owner', { title: { owner: 'maybe' } }],
      ] as const) {
        it(`rejects ${JSON.stringify(json)} with 400 naming ${field} and changes nothing`, async () => {
          const uri = await create();
          const before = await stored(uri);
          expectError(await h.call('PATCH', uri, { token: alice.token, json }), 400, 2204, field);
          assert.deepEqual(await stored(uri), before);
        });
      }

      it('is 404 when the preset is missing or not owned, and changes nothing', async () => {
        const bobUri = await create(bob);
        const before = await stored(bobUri);
        expectError(await h.call('PATCH', '/me/presets/999999', { token: alice.token, json: { outro: 'nothing' } }), 404, 5000);
        expectError(await h.call('PATCH', mine(bobUri), { token: alice.token, json: { outro: 'nothing' } }), 404, 5000);
        expectError(await h.call('PATCH', bobUri, { token: alice.token, json: { outro: 'nothing' } }), 404, 5000);
        assert.deepEqual(await stored(bobUri), before);
      });

      it('needs a user (401) with the edit scope (403), and changes nothing', async () => {
        const noEdit = await h.user('NoEdit', 'public,create,delete');
        const uri = await create(noEdit);
        const before = await stored(uri);
        expectError(await h.call('PATCH', uri, { json: { outro: 'nothing' } }), 401, 8003);
        expectError(await h.call('PATCH', mine(uri), { token: noEdit.token, json: { outro: 'nothing' } }), 403, 3200);
        assert.deepEqual(await stored(uri), before);
      });
    });

    describe('videos', () => {
      it('lists the videos that use the preset, newest first, paged, with a total in step', async () => {
        const preset = await create();
        const other = await create();
        const [v1, v2, v3] = [await video(), await video(), await video()];
        const elsewhere = await video();
        await video();
        for (const v of [v1, v2, v3]) await apply(v, preset);
        await apply(elsewhere, other);
        const r = await h.call('GET', `${mine(preset)}/videos`, { token: alice.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(r.body.data.map((v: { uri: string }) => v.uri), [v3, v2, v1]);
        assert.equal(r.body.data[0].name, 'Clip');
        assert.equal(await videosTotal(preset), 3);
        const page = await h.call('GET', `${preset}/videos?per_page=2&page=2`, { token: alice.token });
        assert.equal(page.status, 200, page.text);
        assert.equal(page.body.total, 3);
        assert.deepEqual(page.body.data.map((v: { uri: string }) => v.uri), [v1]);
        assert.equal(page.body.paging.previous, `${preset}/videos?per_page=2&page=1`);
        const others = await h.call('GET', `${other}/videos`, { token: alice.token });
        assert.deepEqual(others.body.data.map((v: { uri: string }) => v.uri), [elsewhere]);
        expectError(await h.call('GET', `${preset}/videos?per_page=0`, { token: alice.token }), 400, 2204, 'per_page');
      });

      it('includes the owner’s hidden videos (the owner is the only one who may list them)', async () => {
        const preset = await create();
        const hidden = await video(alice, { privacy: { view: 'nobody' } });
        const locked = await video(alice, { privacy: { view: 'password' }, password: 'pw' });
        await apply(hidden, preset);
        await apply(locked, preset);
        const r = await h.call('GET', `${preset}/videos`, { token: alice.token });
        assert.deepEqual(r.body.data.map((v: { uri: string }) => v.uri), [locked, hidden]);
        assert.equal(await videosTotal(preset), 2);
      });

      it('is 404 when the preset is missing or not owned, 401 without a user', async () => {
        const bobUri = await create(bob);
        await apply(await video(bob), bobUri, bob);
        expectError(await h.call('GET', `${bobUri}/videos`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `${mine(bobUri)}/videos`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', '/me/presets/999999/videos', { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `${bobUri}/videos`), 401, 8003);
        assert.equal((await h.call('GET', `${bobUri}/videos`, { token: bob.token })).body.total, 1);
      });

      it('keeps videos_total exact through apply, replace, remove, refused writes and video deletion', async () => {
        const first = await create();
        const second = await create();
        const v = await video();
        const w = await video();
        await apply(v, first);
        await apply(v, first);
        assert.equal(await videosTotal(first), 1, 'applying again counts once');
        await apply(w, first);
        assert.equal(await videosTotal(first), 2);
        await apply(v, second);
        assert.deepEqual([await videosTotal(first), await videosTotal(second)], [1, 1]);
        expectError(await h.call('PUT', `${await video(bob)}/presets/${idOf(second)}`, { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', `${v}/presets/${idOf(second)}`, { token: bob.token }), 403, 3200);
        assert.equal(await videosTotal(second), 1);
        assert.equal((await h.call('DELETE', `${v}/presets/${idOf(first)}`, { token: alice.token })).status, 204);
        assert.equal(await videosTotal(second), 1, 'removing a preset the video lacks changes nothing');
        assert.equal((await h.call('DELETE', `${v}/presets/${idOf(second)}`, { token: alice.token })).status, 204);
        assert.equal(await videosTotal(second), 0);
        assert.equal((await h.call('DELETE', w, { token: alice.token })).status, 204);
        assert.equal(await videosTotal(first), 0);
        assert.equal((await h.call('GET', `${first}/videos`, { token: alice.token })).body.total, 0);
      });
    });

    describe('DELETE (extension)', () => {
      it('deletes the preset and leaves its videos with none, in one go', async () => {
        const preset = await create();
        const kept = await create();
        const [v, w, x] = [await video(), await video(), await video()];
        await apply(v, preset);
        await apply(w, preset);
        await apply(x, kept);
        const r = await h.call('DELETE', mine(preset), { token: alice.token });
        assert.equal(r.status, 204, r.text);
        assert.equal(r.text, '');
        expectError(await h.call('GET', preset, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `${v}/presets/${idOf(preset)}`), 404, 5000);
        for (const uri of [v, w]) assert.equal((await h.service.store.get('videos', idOf(uri)))!.preset_id, null);
        assert.equal((await h.service.store.get('videos', idOf(x)))!.preset_id, idOf(kept));
        assert.equal(await videosTotal(kept), 1);
        expectError(await h.call('DELETE', preset, { token: alice.token }), 404, 5000);
      });

      it('is 404 when missing or not owned, 403 without the delete scope, 401 without a user, and deletes nothing', async () => {
        const bobUri = await create(bob);
        const noDelete = await h.user('NoDelete', 'public,create,edit');
        const own = await create(noDelete);
        expectError(await h.call('DELETE', bobUri, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', mine(bobUri), { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', bobUri), 401, 8003);
        expectError(await h.call('DELETE', mine(own), { token: noDelete.token }), 403, 3200);
        assert.ok(await stored(bobUri));
        assert.ok(await stored(own));
      });
    });
  });
}
