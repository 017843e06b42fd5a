import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/videos/{video_id}/presets/{preset_id} (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const video = async (owner: Fixture = alice, json: Record<string, unknown> = {}) => `/videos/${await h.video(owner, json)}`;
    /** Presets have no create endpoint yet (the On Demand issue), so tests store them directly. */
    const preset = async (owner: Fixture, name = 'Preset'): Promise<string> =>
      (await h.service.store.insert('presets', { user_id: owner.user.id, name, created_time: '2026-01-02T03:04:05+00:00' })).id;
    const presetOf = async (uri: string) => (await h.service.store.get('videos', uri.split('/').pop()!))!.preset_id;
    /** The preset's videos_total (the fixture rows start without the counter: 0). */
    const videosTotal = async (p: string) => ((await h.service.store.get('presets', p))!.videos_total as number | undefined) ?? 0;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('the Clip names its preset in embed_presets before 3.3 only', async () => {
      const uri = await video();
      const p = await preset(alice);
      assert.equal((await h.call('PUT', `${uri}/presets/${p}`, { token: alice.token })).status, 204);
      const old = await h.call('GET', uri, { version: '3.2' });
      assert.deepEqual(old.body.embed_presets, { uri: `/users/${alice.user.id}/presets/${p}` });
      assert.equal((await h.call('GET', uri)).body.embed_presets, undefined);
      assert.equal((await h.call('GET', await video(), { version: '3.2' })).body.embed_presets, null);
    });

    it('PUT applies the preset (204), GET then answers 204, DELETE removes it', async () => {
      const uri = await video();
      const p = await preset(alice);
      expectError(await h.call('GET', `${uri}/presets/${p}`), 404, 5000);
      const put = await h.call('PUT', `${uri}/presets/${p}`, { token: alice.token });
      assert.equal(put.status, 204, put.text);
      assert.equal(put.text, '');
      assert.equal(await presetOf(uri), p);
      assert.equal(await videosTotal(p), 1);
      const get = await h.call('GET', `${uri}/presets/${p}`);
      assert.equal(get.status, 204);
      assert.equal(get.text, '');
      assert.equal((await h.call('PUT', `${uri}/presets/${p}`, { token: alice.token })).status, 204, 'idempotent');
      assert.equal(await videosTotal(p), 1, 'applying again counts once');
      const del = await h.call('DELETE', `${uri}/presets/${p}`, { token: alice.token });
      assert.equal(del.status, 204);
      assert.equal(del.text, '');
      assert.equal(await presetOf(uri), null);
      assert.equal(await videosTotal(p), 0);
      expectError(await h.call('GET', `${uri}/presets/${p}`), 404, 5000);
    });

    it('a video has one preset: PUT of another replaces it; DELETE of one it lacks keeps the one it has', async () => {
      const uri = await video();
      const first = await preset(alice, 'First');
      const second = await preset(alice, 'Second');
      await h.call('PUT', `${uri}/presets/${first}`, { token: alice.token });
      assert.equal(await videosTotal(first), 1);
      assert.equal((await h.call('PUT', `${uri}/presets/${second}`, { token: alice.token })).status, 204);
      assert.deepEqual([await videosTotal(first), await videosTotal(second)], [0, 1]);
      expectError(await h.call('GET', `${uri}/presets/${first}`), 404, 5000);
      assert.equal((await h.call('GET', `${uri}/presets/${second}`)).status, 204);
      assert.equal((await h.call('DELETE', `${uri}/presets/${first}`, { token: alice.token })).status, 204);
      assert.equal(await presetOf(uri), second);
      assert.deepEqual([await videosTotal(first), await videosTotal(second)], [0, 1]);
    });

    it('PUT is 403 unless the caller owns both the video and the preset, and changes nothing', async () => {
      const mine = await video();
      const theirs = await video(bob);
      const alicePreset = await preset(alice);
      const bobPreset = await preset(bob);
      expectError(await h.call('PUT', `${mine}/presets/${bobPreset}`, { token: alice.token }), 403, 3200);
      expectError(await h.call('PUT', `${theirs}/presets/${alicePreset}`, { token: alice.token }), 403, 3200);
      expectError(await h.call('PUT', `${mine}/presets/${alicePreset}`, { token: bob.token }), 403, 3200);
      assert.equal(await presetOf(mine), null);
      assert.equal(await presetOf(theirs), null);
      assert.deepEqual([await videosTotal(alicePreset), await videosTotal(bobPreset)], [0, 0]);
    });

    it('PUT is 404 for a missing preset, a missing video, or a video hidden from the caller', async () => {
      const uri = await video();
      const p = await preset(alice);
      expectError(await h.call('PUT', `${uri}/presets/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', `${uri}/presets/abc`, { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', `/videos/999999/presets/${p}`, { token: alice.token }), 404, 5000);
      const hidden = await video(alice, { privacy: { view: 'nobody' } });
      const bobPreset = await preset(bob);
      expectError(await h.call('PUT', `${hidden}/presets/${bobPreset}`, { token: bob.token }), 404, 5000);
      assert.equal(await presetOf(uri), null);
      assert.equal(await presetOf(hidden), null);
    });

    it('PUT and DELETE need a user (401) with the edit scope (403)', async () => {
      const uri = await video();
      const p = await preset(alice);
      const noEdit = await h.user('NoEdit', 'public,upload,delete');
      expectError(await h.call('PUT', `${uri}/presets/${p}`), 401, 8003);
      expectError(await h.call('PUT', `${uri}/presets/${p}`, { token: noEdit.token }), 403, 3200);
      assert.equal(await presetOf(uri), null);
      await h.call('PUT', `${uri}/presets/${p}`, { token: alice.token });
      expectError(await h.call('DELETE', `${uri}/presets/${p}`), 401, 8003);
      expectError(await h.call('DELETE', `${uri}/presets/${p}`, { token: noEdit.token }), 403, 3200);
      assert.equal(await presetOf(uri), p);
    });

    it('GET follows the video privacy and is 404 for a missing preset or video', async () => {
      const p = await preset(alice);
      const hidden = await video(alice, { privacy: { view: 'nobody' } });
      await h.call('PUT', `${hidden}/presets/${p}`, { token: alice.token });
      assert.equal((await h.call('GET', `${hidden}/presets/${p}`, { token: alice.token })).status, 204);
      expectError(await h.call('GET', `${hidden}/presets/${p}`, { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', `${hidden}/presets/${p}`), 404, 5000);
      const locked = await video(alice, { privacy: { view: 'password' }, password: 'pw' });
      await h.call('PUT', `${locked}/presets/${p}`, { token: alice.token });
      expectError(await h.call('GET', `${locked}/presets/${p}`, { token: bob.token }), 403, 3200);
      assert.equal((await h.call('GET', `${locked}/presets/${p}?password=pw`, { token: bob.token })).status, 204);
      const open = await video();
      expectError(await h.call('GET', `${open}/presets/999999`), 404, 5000);
      expectError(await h.call('GET', `/videos/999999/presets/${p}`), 404, 5000);
    });

    it('DELETE is 404 for a missing preset or video, 403 for another user’s video, and changes nothing', async () => {
      const uri = await video();
      const p = await preset(alice);
      await h.call('PUT', `${uri}/presets/${p}`, { token: alice.token });
      expectError(await h.call('DELETE', `${uri}/presets/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `/videos/999999/presets/${p}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `${uri}/presets/${p}`, { token: bob.token }), 403, 3200);
      const hidden = await video(alice, { privacy: { view: 'contacts' } });
      await h.call('PUT', `${hidden}/presets/${p}`, { token: alice.token });
      expectError(await h.call('DELETE', `${hidden}/presets/${p}`, { token: bob.token }), 404, 5000);
      assert.equal(await presetOf(uri), p);
      assert.equal(await presetOf(hidden), p);
    });
  });
}
