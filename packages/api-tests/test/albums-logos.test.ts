import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { where } from '@reelbase/core';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/users/{user_id}/albums/{album_id}/logos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let album: string;
    let logos: string;
    const add = async (): Promise<string> => {
      h.clock.advance(60);
      const r = await h.call('POST', logos, { token: alice.token });
      assert.equal(r.status, 201, r.text);
      return r.body.uri;
    };
    const active = async (): Promise<string[]> => {
      const r = await h.call('GET', logos, { token: alice.token });
      return r.body.data.filter((p: { active: boolean }) => p.active).map((p: { uri: string }) => p.uri);
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      album = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Brand', description: '' } })).body.uri;
      logos = `${album}/logos`;
    });
    after(() => h.stop());

    it('POST adds an inactive logo: 201 with a typed Picture under the album', async () => {
      const r = await h.call('POST', logos, { token: alice.token });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      const id = r.body.uri.split('/').pop();
      assert.equal(r.body.uri, `${album}/logos/${id}`);
      assert.equal(r.body.active, false);
      assert.equal(r.body.type, 'custom');
      // No image yet: the link (where the image is PUT) shows the placeholder, at a signed, versioned address.
      assert.match(r.body.link, new RegExp(`^${h.server.url}/media/pictures/${id}/p-[0-9a-f]{32}\\?upload=[0-9a-f]{32}$`));
      assert.equal(r.body.sizes[6].link, `${r.body.link.split('?')[0]}/1920x1080.png`);
      assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
    });

    it('GET lists them newest first, paged; GET one answers it', async () => {
      const [first, second] = [await add(), await add()];
      const r = await h.call('GET', `${logos}?per_page=2`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.picture+json;version=3.4');
      assert.equal(r.body.total, 3);
      assert.deepEqual(r.body.data.map((p: { uri: string }) => p.uri), [second, first]);
      expectError(await h.call('GET', `${logos}?per_page=0`, { token: alice.token }), 400, 2204, 'per_page');
      const one = await h.call('GET', first, { token: alice.token });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.uri, first);
    });

    it('PATCH active makes it the only active logo (200); active false turns it off; 204 before 3.2', async () => {
      const [first, second] = [await add(), await add()];
      let r = await h.call('PATCH', first, { token: alice.token, json: { active: true } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.active, true);
      assert.deepEqual(await active(), [first]);
      r = await h.call('PATCH', second, { token: alice.token, form: { active: 'true' } });
      assert.equal(r.body.active, true);
      assert.deepEqual(await active(), [second]);
      r = await h.call('PATCH', second, { token: alice.token, json: {} });
      assert.equal(r.body.active, true);
      r = await h.call('PATCH', second, { token: alice.token, json: { active: false }, version: '3.1' });
      assert.equal(r.status, 204, r.text);
      assert.deepEqual(await active(), []);
      expectError(await h.call('PATCH', second, { token: alice.token, json: { active: 'yes' } }), 400, 2204, 'active');
    });

    it('DELETE removes a logo (204), then 404', async () => {
      const logo = await add();
      const r = await h.call('DELETE', logo, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      expectError(await h.call('GET', logo, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', logo, { token: alice.token }), 404, 5000);
      expectError(await h.call('PATCH', logo, { token: alice.token, json: { active: true } }), 404, 5000);
    });

    it("another user's logos answer 403 to every operation, and nothing changes", async () => {
      const logo = await add();
      const before = (await h.call('GET', logos, { token: alice.token })).body.total;
      expectError(await h.call('GET', logos, { token: bob.token }), 403, 3200);
      expectError(await h.call('POST', logos, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', logo, { token: bob.token }), 403, 3200);
      expectError(await h.call('PATCH', logo, { token: bob.token, json: { active: true } }), 403, 3200);
      expectError(await h.call('DELETE', logo, { token: bob.token }), 403, 3200);
      assert.equal((await h.call('GET', logos, { token: alice.token })).body.total, before);
      assert.deepEqual(await active(), []);
    });

    it('404 for an unknown album, user or logo, or a logo of another album; 401 anonymous; scopes upload and edit', async () => {
      const other = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Other', description: '' } })).body.uri;
      const logo = await add();
      const id = logo.split('/').pop();
      expectError(await h.call('GET', `${other}/logos/${id}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `/users/${alice.user.id}/albums/999999/logos`, { token: alice.token }), 404, 5000);
      expectError(await h.call('POST', `/users/${alice.user.id}/albums/999999/logos`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `/users/999999/albums/1/logos/${id}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `${logos}/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `/me/albums/${album.split('/').pop()}/logos`, { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', logos), 401, 8003);
      expectError(await h.call('GET', logo), 401, 8003);
      const noUpload = await h.user('No upload', 'public,private,create,edit,delete,interact');
      expectError(await h.call('POST', logos, { token: noUpload.token }), 403, 3200);
      const noEdit = await h.user('No edit', 'public,private,create,delete,interact,upload');
      expectError(await h.call('PATCH', logo, { token: noEdit.token, json: { active: true } }), 403, 3200);
      expectError(await h.call('DELETE', logo, { token: noEdit.token }), 403, 3200);
    });

    it('deleting the album deletes its logos', async () => {
      const doomed = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Doomed', description: '' } })).body.uri;
      assert.equal((await h.call('POST', `${doomed}/logos`, { token: alice.token })).status, 201);
      const owner = where({ owner_kind: 'album_logo', owner_id: doomed.split('/').pop()! });
      assert.equal(await h.service.store.count('pictures', owner), 1);
      assert.equal((await h.call('DELETE', doomed, { token: alice.token })).status, 204);
      assert.equal(await h.service.store.count('pictures', owner), 0);
    });
  });
}
