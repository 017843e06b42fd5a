import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/me/projects and /users/{user_id}/projects (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const create = async (who: Fixture, name: string): Promise<string> => {
      h.clock.advance(60);
      const r = await h.call('POST', '/me/projects', { token: who.token, json: { name } });
      assert.equal(r.status, 201, r.text);
      return r.body.uri;
    };
    const foldersTotal = async (who: Fixture): Promise<number> =>
      (await h.call('GET', '/me', { token: who.token })).body.metadata.connections.folders.total;
    const names = (r: Answer): string[] => r.body.data.map((p: { name: string }) => p.name);
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('POST creates a project: 201 with the typed Project, counted in the User folders connection', async () => {
      const r = await h.call('POST', `/users/${alice.user.id}/projects`, { token: alice.token, form: { name: '  Drafts ' } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.project+json;version=3.4');
      const id = r.body.uri.split('/').pop();
      const { user, resource_key, ...rest } = r.body;
      assert.deepEqual(rest, {
        uri: `/users/${alice.user.id}/projects/${id}`,
        name: 'Drafts',
        link: `${h.server.url}/users/${alice.user.id}/projects/${id}`,
        created_time: '2026-01-02T03:04:05+00:00',
        modified_time: '2026-01-02T03:04:05+00:00',
        metadata: { connections: { videos: { uri: `/users/${alice.user.id}/projects/${id}/videos`, options: ['GET', 'PUT', 'DELETE'], total: 0 } } },
      });
      assert.equal(user.uri, `/users/${alice.user.id}`);
      assert.match(resource_key, /^[0-9a-f]{40}$/);
      const me = await h.call('GET', '/me', { token: alice.token });
      assert.deepEqual(me.body.metadata.connections.folders, { uri: `/users/${alice.user.id}/projects`, options: ['GET', 'POST'], total: 1 });
      const old = await h.call('GET', '/me', { token: alice.token, version: '3.3.8' });
      assert.equal(old.body.metadata.connections.folders, undefined);
    });

    it('POST: 400/2205 for an empty input, 400/2204 naming a missing, blank or bad name; nothing is created', async () => {
      const before = await foldersTotal(alice);
      expectError(await h.call('POST', '/me/projects', { token: alice.token }), 400, 2205);
      expectError(await h.call('POST', '/me/projects', { token: alice.token, json: {} }), 400, 2205);
      expectError(await h.call('POST', '/me/projects?fields=uri', { token: alice.token, form: {} }), 400, 2205);
      expectError(await h.call('POST', '/me/projects', { token: alice.token, raw: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 2205);
      expectError(await h.call('POST', '/me/projects', { token: alice.token, json: ['name'] }), 400, 2205);
      expectError(await h.call('POST', '/me/projects', { token: alice.token, json: { title: 'x' } }), 400, 2204, 'name');
      expectError(await h.call('POST', '/me/projects', { token: alice.token, json: { name: '   ' } }), 400, 2204, 'name');
      expectError(await h.call('POST', '/me/projects', { token: alice.token, json: { name: 42 } }), 400, 2204, 'name');
      expectError(await h.call('POST', '/me/projects', { token: alice.token, json: { name: 'x'.repeat(129) } }), 400, 2204, 'name');
      assert.equal(await foldersTotal(alice), before);
    });

    it('401/8000 anonymous or with a bad token; 403/3200 for another user or a missing scope; 404/5000 unknown user', async () => {
      const before = await foldersTotal(bob);
      expectError(await h.call('POST', '/me/projects', { json: { name: 'x' } }), 401, 8000);
      expectError(await h.call('POST', '/me/projects', { token: 'not-a-token', json: { name: 'x' } }), 401, 8000);
      expectError(await h.call('GET', '/me/projects'), 401, 8000);
      expectError(await h.call('GET', `/users/${bob.user.id}/projects`), 401, 8000);
      expectError(await h.call('POST', `/users/${bob.user.id}/projects`, { token: alice.token, json: { name: 'x' } }), 403, 3200);
      expectError(await h.call('GET', `/users/${bob.user.id}/projects`, { token: alice.token }), 403, 3200);
      const noCreate = await h.user('No create', 'public,private,edit,delete,interact,upload');
      expectError(await h.call('POST', '/me/projects', { token: noCreate.token, json: { name: 'x' } }), 403, 3200);
      const noPrivate = await h.user('No private', 'public,create,edit,delete,interact,upload');
      expectError(await h.call('GET', '/me/projects', { token: noPrivate.token }), 403, 3200);
      expectError(await h.call('GET', '/users/999999/projects', { token: alice.token }), 404, 5000);
      assert.equal(await foldersTotal(bob), before);
    });

    it('GET one answers the project to its owner; 404/5000 unknown or not theirs; 403/3200 for others', async () => {
      const uri = await create(alice, 'Mine');
      const id = uri.split('/').pop();
      const r = await h.call('GET', `/me/projects/${id}`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.project+json;version=3.4');
      assert.equal(r.body.uri, uri);
      expectError(await h.call('GET', `/me/projects/${id}`, { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', uri, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', '/me/projects/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', '/me/projects/abc', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', uri), 401, 8000);
    });

    it('PATCH renames (200 with the Project in every version); 2205 empty, 2204 bad name, 403, 404; nothing changes', async () => {
      const uri = await create(alice, 'Old name');
      h.clock.advance(60);
      const r = await h.call('PATCH', uri, { token: alice.token, json: { name: 'New name' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.project+json;version=3.4');
      assert.equal(r.body.name, 'New name');
      assert.notEqual(r.body.modified_time, r.body.created_time);
      const old = await h.call('PATCH', uri, { token: alice.token, form: { name: 'Older' }, version: '3.1' });
      assert.equal(old.status, 200, old.text);
      assert.equal(old.body.name, 'Older');
      expectError(await h.call('PATCH', uri, { token: alice.token }), 400, 2205);
      expectError(await h.call('PATCH', uri, { token: alice.token, json: {} }), 400, 2205);
      expectError(await h.call('PATCH', uri, { token: alice.token, json: { name: '' } }), 400, 2204, 'name');
      expectError(await h.call('PATCH', uri, { token: alice.token, json: { other: 1 } }), 400, 2204, 'name');
      expectError(await h.call('PATCH', uri, { token: bob.token, json: { name: 'Stolen' } }), 403, 3200);
      expectError(await h.call('PATCH', `/me/projects/${uri.split('/').pop()}`, { token: bob.token, json: { name: 'Stolen' } }), 404, 5000);
      expectError(await h.call('PATCH', '/me/projects/999999', { token: alice.token, json: { name: 'x' } }), 404, 5000);
      expectError(await h.call('PATCH', uri, { json: { name: 'x' } }), 401, 8000);
      const noEdit = await h.user('No edit', 'public,private,create,delete,interact,upload');
      expectError(await h.call('PATCH', '/me/projects/1', { token: noEdit.token, json: { name: 'x' } }), 403, 3200);
      assert.equal((await h.call('GET', uri, { token: alice.token })).body.name, 'Older');
    });

    it('GET lists the projects, newest first by default; sorts by date, modified_time and name; direction; paging', async () => {
      const carol = await h.user('Carol');
      const beta = await create(carol, 'beta');
      await create(carol, 'Alpha');
      await create(carol, 'gamma');
      h.clock.advance(60);
      assert.equal((await h.call('PATCH', beta, { token: carol.token, json: { name: 'beta' } })).status, 200);
      const list = async (query: string): Promise<Answer> => {
        const r = await h.call('GET', `/me/projects${query}`, { token: carol.token });
        assert.equal(r.status, 200, r.text);
        return r;
      };
      const r = await list('');
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.project+json;version=3.4');
      assert.equal(r.body.total, 3);
      assert.deepEqual(names(r), ['gamma', 'Alpha', 'beta']);
      assert.deepEqual(names(await list('?sort=default')), ['gamma', 'Alpha', 'beta']);
      assert.deepEqual(names(await list('?sort=date&direction=asc')), ['beta', 'Alpha', 'gamma']);
      assert.deepEqual(names(await list('?sort=modified_time')), ['beta', 'gamma', 'Alpha']);
      assert.deepEqual(names(await list('?sort=name')), ['Alpha', 'beta', 'gamma']);
      assert.deepEqual(names(await list('?sort=name&direction=desc&per_page=2&page=2')), ['Alpha']);
      assert.deepEqual(names(await h.call('GET', `/users/${carol.user.id}/projects?sort=name`, { token: carol.token })), ['Alpha', 'beta', 'gamma']);
      expectError(await h.call('GET', '/me/projects?sort=videos', { token: carol.token }), 400, 2204, 'sort');
      expectError(await h.call('GET', '/me/projects?query=x&per_page=500', { token: carol.token }), 400, 2204, 'per_page');
    });
  });
}

for (const driver of drivers) {
  describe(`DELETE /me/projects/{project_id} (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const project = async (name: string): Promise<string> => (await h.call('POST', '/me/projects', { token: alice.token, json: { name } })).body.uri;
    /** A project holding two of Alice's videos, one of them also in an album. */
    const filled = async (name: string) => {
      const uri = await project(name);
      const videos = [await h.video(alice, { name: `${name} 1` }), await h.video(alice, { name: `${name} 2` })];
      const r = await h.call('PUT', `${uri}/videos`, { token: alice.token, form: { uris: videos.map((v) => `/videos/${v}`).join(',') } });
      assert.equal(r.status, 204, r.text);
      return { uri, videos };
    };
    const me = async () => (await h.call('GET', '/me', { token: alice.token })).body.metadata.connections;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    it('without should_delete_clips: the project goes (204), its videos survive outside any project', async () => {
      const { uri, videos } = await filled('Keep');
      const outside = await h.video(alice, { name: 'Outside' });
      const before = await me();
      const r = await h.call('DELETE', uri, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      expectError(await h.call('GET', uri, { token: alice.token }), 404, 5000);
      for (const id of [...videos, outside]) {
        const clip = await h.call('GET', `/videos/${id}`, { token: alice.token });
        assert.equal(clip.status, 200, clip.text);
        assert.equal(clip.body.parent_folder, null);
      }
      const after = await me();
      assert.equal(after.folders.total, before.folders.total - 1);
      assert.equal(after.videos.total, before.videos.total);
    });

    it('with should_delete_clips: the project and the videos in it go; other videos survive; counters follow', async () => {
      const { uri, videos } = await filled('Purge');
      const other = await filled('Other');
      const album = (await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Shelf', description: '' } })).body.uri;
      assert.equal((await h.call('PUT', `${album}/videos/${videos[0]}`, { token: alice.token })).status, 204);
      assert.equal((await h.call('PUT', `/me/likes/${videos[1]}`, { token: bob.token })).status, 204);
      const before = await me();
      const r = await h.call('DELETE', uri, { token: alice.token, json: { should_delete_clips: true } });
      assert.equal(r.status, 204, r.text);
      expectError(await h.call('GET', uri, { token: alice.token }), 404, 5000);
      for (const id of videos) expectError(await h.call('GET', `/videos/${id}`, { token: alice.token }), 404, 5000);
      for (const id of other.videos) assert.equal((await h.call('GET', `/videos/${id}`, { token: alice.token })).status, 200);
      const after = await me();
      assert.equal(after.folders.total, before.folders.total - 1);
      assert.equal(after.videos.total, before.videos.total - 2);
      assert.equal((await h.call('GET', album)).body.metadata.connections.videos.total, 0);
      assert.equal((await h.call('GET', '/me', { token: bob.token })).body.metadata.connections.likes.total, 0);
      assert.equal((await h.call('GET', other.uri, { token: alice.token })).body.metadata.connections.videos.total, 2);
    });

    it('should_delete_clips=false in a form keeps the videos', async () => {
      const { uri, videos } = await filled('Form');
      assert.equal((await h.call('DELETE', uri, { token: alice.token, form: { should_delete_clips: 'false' } })).status, 204);
      for (const id of videos) assert.equal((await h.call('GET', `/videos/${id}`)).status, 200);
    });

    it('403/3200 for others or without the delete scope; 404/5000; 401/8000; 400/2204 bad option; nothing changes', async () => {
      const { uri, videos } = await filled('Guarded');
      const id = uri.split('/').pop();
      expectError(await h.call('DELETE', uri, { token: bob.token, json: { should_delete_clips: true } }), 403, 3200);
      expectError(await h.call('DELETE', `/me/projects/${id}`, { token: bob.token }), 404, 5000);
      const noDelete = await h.user('No delete', 'public,private,create,edit,interact,upload');
      expectError(await h.call('DELETE', `/me/projects/${id}`, { token: noDelete.token }), 403, 3200);
      expectError(await h.call('DELETE', uri), 401, 8000);
      expectError(await h.call('DELETE', '/me/projects/999999', { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', uri, { token: alice.token, json: { should_delete_clips: 'maybe' } }), 400, 2204, 'should_delete_clips');
      const kept = await h.call('GET', uri, { token: alice.token });
      assert.equal(kept.status, 200);
      assert.equal(kept.body.metadata.connections.videos.total, 2);
      for (const v of videos) assert.notEqual((await h.call('GET', `/videos/${v}`, { token: alice.token })).body.parent_folder, null);
    });
  });
}
