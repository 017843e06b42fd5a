import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { createPage, publishedPage } from '../src/ondemand';

for (const driver of drivers) {
  describe(`On Demand posters and backgrounds (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const page = async (id: string) => (await h.call('GET', `/ondemand/pages/${id}`, { token: alice.token })).body;
    const activeOf = async (id: string, segment: string): Promise<string[]> =>
      (await h.call('GET', `/ondemand/pages/${id}/${segment}`, { token: alice.token })).body.data
        .filter((p: { active: boolean }) => p.active)
        .map((p: { uri: string }) => p.uri);
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('posters (/pictures)', () => {
      it('POST answers 201 with a Picture; the first poster becomes the page’s picture', async () => {
        const id = await createPage(h, alice);
        const r = await h.call('POST', `/ondemand/pages/${id}/pictures`, { token: alice.token });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        const posterId = r.body.uri.split('/').pop();
        assert.equal(r.body.uri, `/ondemand/pages/${id}/pictures/${posterId}`);
        assert.equal(r.body.active, true);
        assert.equal(r.body.type, 'custom');
        assert.equal(r.body.sizes.length, 7);
        const p = await page(id);
        assert.equal(p.pictures.uri, r.body.uri);
        assert.equal(p.metadata.connections.pictures.total, 1);
        const second = await h.call('POST', `/ondemand/pages/${id}/pictures`, { token: alice.token });
        assert.equal(second.body.active, false, 'a later poster waits until made active');
        assert.deepEqual(await activeOf(id, 'pictures'), [r.body.uri]);
        const third = await h.call('POST', `/ondemand/pages/${id}/pictures`, { token: alice.token, json: { active: true } });
        assert.deepEqual(await activeOf(id, 'pictures'), [third.body.uri]);
        assert.equal((await page(id)).metadata.connections.pictures.total, 3);
        assert.deepEqual((await h.call('GET', third.body.uri, { token: alice.token })).body, third.body);
      });

      it('answers 200 in 3.1', async () => {
        const id = await createPage(h, alice);
        const r = await h.call('POST', `/ondemand/pages/${id}/pictures`, { token: alice.token, version: '3.1' });
        assert.equal(r.status, 200);
      });

      it('PATCH active makes a poster the only active one (200), or leaves the page without one', async () => {
        const id = await createPage(h, alice);
        const first = (await h.call('POST', `/ondemand/pages/${id}/pictures`, { token: alice.token })).body.uri;
        const second = (await h.call('POST', `/ondemand/pages/${id}/pictures`, { token: alice.token })).body.uri;
        const r = await h.call('PATCH', second, { token: alice.token, json: { active: true } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.active, true);
        assert.deepEqual(await activeOf(id, 'pictures'), [second]);
        assert.equal((await page(id)).pictures.uri, second);
        await h.call('PATCH', second, { token: alice.token, form: { active: 'false' } });
        assert.deepEqual(await activeOf(id, 'pictures'), []);
        assert.equal((await page(id)).pictures.type, 'default');
        assert.equal((await h.call('PATCH', first, { token: alice.token, json: { active: true }, version: '3.1' })).status, 204, 'PATCH answered 204 before 3.2');
        expectError(await h.call('PATCH', first, { token: alice.token, json: { active: 'sometimes' } }), 400, 2204, 'active');
      });

      it('403 on another user’s page, 404 for a missing page or poster, 403 without the upload scope', async () => {
        const published = await publishedPage(h, alice);
        expectError(await h.call('POST', `/ondemand/pages/${published}/pictures`, { token: bob.token }), 403, 3200);
        expectError(await h.call('POST', '/ondemand/pages/999999/pictures', { token: alice.token }), 404, 5000);
        const poster = (await h.call('POST', `/ondemand/pages/${published}/pictures`, { token: alice.token })).body.uri;
        expectError(await h.call('PATCH', poster, { token: bob.token, json: { active: false } }), 403, 3200);
        expectError(await h.call('PATCH', `/ondemand/pages/${published}/pictures/999999`, { token: alice.token, json: { active: true } }), 404, 5000);
        const other = await createPage(h, alice);
        expectError(await h.call('PATCH', poster.replace(`/pages/${published}/`, `/pages/${other}/`), { token: alice.token, json: { active: true } }), 404, 5000);
        const noUpload = await h.user('NoUpload', 'public,edit');
        expectError(await h.call('POST', `/ondemand/pages/${published}/pictures`, { token: noUpload.token }), 403, 3200);
        assert.equal((await page(published)).metadata.connections.pictures.total, 1);
        assert.equal((await h.call('GET', poster)).status, 200, 'anyone sees the posters of a published page');
      });
    });

    describe('backgrounds', () => {
      it('POST answers 200 with a Picture; the first becomes the page’s background', async () => {
        const id = await createPage(h, alice);
        const r = await h.call('POST', `/ondemand/pages/${id}/backgrounds`, { token: alice.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
        assert.match(r.body.uri, new RegExp(`^/ondemand/pages/${id}/backgrounds/\\d+$`));
        assert.equal(r.body.active, true);
        const p = await page(id);
        assert.equal(p.background.uri, r.body.uri);
        assert.equal(p.metadata.connections.backgrounds.total, 1);
        assert.equal(p.pictures.type, 'default', 'backgrounds are not posters');
      });

      it('PATCH active switches the active background (200); DELETE answers 204 and the counts follow', async () => {
        const id = await createPage(h, alice);
        const first = (await h.call('POST', `/ondemand/pages/${id}/backgrounds`, { token: alice.token })).body.uri;
        const second = (await h.call('POST', `/ondemand/pages/${id}/backgrounds`, { token: alice.token })).body.uri;
        const r = await h.call('PATCH', second, { token: alice.token, json: { active: true } });
        assert.equal(r.status, 200);
        assert.deepEqual(await activeOf(id, 'backgrounds'), [second]);
        const del = await h.call('DELETE', second, { token: alice.token });
        assert.equal(del.status, 204);
        expectError(await h.call('GET', second, { token: alice.token }), 404, 5000);
        const p = await page(id);
        assert.equal(p.background, null, 'deleting the active one leaves none active');
        assert.equal(p.metadata.connections.backgrounds.total, 1);
        await h.call('DELETE', first, { token: alice.token });
        assert.equal((await page(id)).metadata.connections.backgrounds.total, 0);
        expectError(await h.call('DELETE', first, { token: alice.token }), 404, 5000);
      });

      it('404 for a missing page or image, 403 on another user’s page', async () => {
        const published = await publishedPage(h, alice);
        const bg = (await h.call('POST', `/ondemand/pages/${published}/backgrounds`, { token: alice.token })).body.uri;
        expectError(await h.call('POST', `/ondemand/pages/${published}/backgrounds`, { token: bob.token }), 403, 3200);
        expectError(await h.call('POST', '/ondemand/pages/999999/backgrounds', { token: alice.token }), 404, 5000);
        expectError(await h.call('PATCH', bg, { token: bob.token, json: { active: false } }), 403, 3200);
        expectError(await h.call('DELETE', bg, { token: bob.token }), 403, 3200);
        expectError(await h.call('PATCH', `/ondemand/pages/${published}/backgrounds/999999`, { token: alice.token, json: { active: true } }), 404, 5000);
        expectError(await h.call('DELETE', `/ondemand/pages/999999/backgrounds/1`, { token: alice.token }), 404, 5000);
        const poster = (await h.call('POST', `/ondemand/pages/${published}/pictures`, { token: alice.token })).body.uri;
        expectError(await h.call('DELETE', poster.replace('/pictures/', '/backgrounds/'), { token: alice.token }), 404, 5000);
        assert.equal((await page(published)).background.uri, bg);
      });
    });
  });
}
