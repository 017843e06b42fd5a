import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`/me/projects/{project_id}/videos (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let drafts: string;
    let finals: string;
    const project = async (name: string): Promise<string> => (await h.call('POST', '/me/projects', { token: alice.token, json: { name } })).body.uri;
    const video = async (name: string, json: Record<string, unknown> = {}, who = alice): Promise<string> => {
      h.clock.advance(60);
      return h.video(who, { name, ...json });
    };
    const inProject = async (uri: string, query = ''): Promise<string[]> => {
      const r = await h.call('GET', `${uri}/videos${query}`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      return r.body.data.map((v: { name: string }) => v.name);
    };
    const total = async (uri: string): Promise<number> => (await h.call('GET', uri, { token: alice.token })).body.metadata.connections.videos.total;
    const folderOf = async (id: string, version?: string): Promise<Answer> => h.call('GET', `/videos/${id}`, { token: alice.token, version });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      drafts = await project('Drafts');
      finals = await project('Finals');
    });
    after(() => h.stop());

    it('PUT one moves a video in (204); the project counts it and the Clip names it from 3.3.9', async () => {
      const id = await video('One');
      assert.equal((await folderOf(id)).body.parent_folder, null);
      const r = await h.call('PUT', `${drafts}/videos/${id}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
      assert.equal((await h.call('PUT', `${drafts}/videos/${id}`, { token: alice.token })).status, 204);
      assert.equal(await total(drafts), 1);
      assert.deepEqual(await inProject(drafts), ['One']);
      assert.notEqual((await folderOf(id)).body.parent_folder, null);
      assert.equal('parent_folder' in (await folderOf(id, '3.3.8')).body, false);
    });

    it('a video is in one project at most: putting it in another moves it, counters included', async () => {
      const id = await video('Mover');
      assert.equal((await h.call('PUT', `${drafts}/videos/${id}`, { token: alice.token })).status, 204);
      const before = await total(drafts);
      assert.equal((await h.call('PUT', `/users/${alice.user.id}/projects/${finals.split('/').pop()}/videos/${id}`, { token: alice.token })).status, 204);
      assert.equal(await total(drafts), before - 1);
      assert.equal(await total(finals), 1);
      assert.deepEqual(await inProject(finals), ['Mover']);
      assert.equal((await inProject(drafts)).includes('Mover'), false);
    });

    it('PUT many takes comma-separated URIs (204); 400/2204 bad URI or none, 404/5000 missing video, 403/3200 another user’s; nothing changes', async () => {
      const bulk = await project('Bulk');
      const [a, b] = [await video('Bulk a'), await video('Bulk b')];
      const bobs = await video('Bob public', {}, bob);
      const hidden = await video('Bob hidden', { privacy: { view: 'nobody' } }, bob);
      expectError(await h.call('PUT', `${bulk}/videos`, { token: alice.token, json: { uris: [`/videos/${a}`, 'videos/x'] } }), 400, 2204, 'uris');
      expectError(await h.call('PUT', `${bulk}/videos`, { token: alice.token, json: { uris: [] } }), 400, 2204, 'uris');
      expectError(await h.call('PUT', `${bulk}/videos`, { token: alice.token, json: {} }), 400, 2204, 'uris');
      expectError(await h.call('PUT', `${bulk}/videos`, { token: alice.token, json: { uris: [`/videos/${a}`, '/videos/999999'] } }), 404, 5000);
      expectError(await h.call('PUT', `${bulk}/videos`, { token: alice.token, json: { uris: [`/videos/${a}`, `/videos/${hidden}`] } }), 404, 5000);
      expectError(await h.call('PUT', `${bulk}/videos`, { token: alice.token, json: { uris: [`/videos/${a}`, `/videos/${bobs}`] } }), 403, 3200);
      expectError(await h.call('PUT', `${bulk}/videos/${bobs}`, { token: alice.token }), 403, 3200);
      assert.equal(await total(bulk), 0);
      assert.equal((await folderOf(a)).body.parent_folder, null);
      const r = await h.call('PUT', `${bulk}/videos`, { token: alice.token, form: { uris: `/videos/${a}, /videos/${b},${a}` } });
      assert.equal(r.status, 204, r.text);
      assert.equal(await total(bulk), 2);
      assert.deepEqual(await inProject(bulk), ['Bulk b', 'Bulk a']);
    });

    it('lists newest first; sorts alphabetical, date, default, duration, last_user_action_event_date; direction; paging', async () => {
      const sorted = await project('Sorted');
      const ids: Record<string, string> = {};
      for (const [name, duration] of [['b', 30], ['C', 10], ['a', 20]] as const) {
        ids[name] = await video(name);
        await h.service.store.update('videos', ids[name], { duration });
        assert.equal((await h.call('PUT', `${sorted}/videos/${ids[name]}`, { token: alice.token })).status, 204);
      }
      h.clock.advance(60);
      assert.equal((await h.call('PATCH', `/videos/${ids.b}`, { token: alice.token, json: { description: 'touched' } })).status, 200);
      const r = await h.call('GET', `${sorted}/videos`, { token: alice.token });
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.equal(r.body.total, 3);
      assert.deepEqual(await inProject(sorted), ['a', 'C', 'b']);
      assert.deepEqual(await inProject(sorted, '?sort=default'), ['a', 'C', 'b']);
      assert.deepEqual(await inProject(sorted, '?sort=date&direction=asc'), ['b', 'C', 'a']);
      assert.deepEqual(await inProject(sorted, '?sort=alphabetical'), ['a', 'b', 'C']);
      assert.deepEqual(await inProject(sorted, '?sort=duration'), ['b', 'a', 'C']);
      assert.deepEqual(await inProject(sorted, '?sort=last_user_action_event_date'), ['b', 'a', 'C']);
      assert.deepEqual(await inProject(sorted, '?sort=alphabetical&per_page=2&page=2'), ['C']);
      expectError(await h.call('GET', `${sorted}/videos?sort=plays`, { token: alice.token }), 400, 2204, 'sort');
    });

    it('the list and the project are the owner’s: 403/3200 for others, 404/5000 unknown, 401/8000 anonymous, scope private', async () => {
      const id = drafts.split('/').pop();
      expectError(await h.call('GET', `${drafts}/videos`, { token: bob.token }), 403, 3200);
      expectError(await h.call('GET', `/me/projects/${id}/videos`, { token: bob.token }), 404, 5000);
      expectError(await h.call('GET', '/me/projects/999999/videos', { token: alice.token }), 404, 5000);
      expectError(await h.call('GET', `${drafts}/videos`), 401, 8000);
      const noPrivate = await h.user('No private', 'public,create,edit,delete,interact,upload');
      expectError(await h.call('GET', `/me/projects/${id}/videos`, { token: noPrivate.token }), 403, 3200);
    });

    it('PUT one: 404/5000 for a missing project or video; 403/3200 for others; 401/8000; scope interact', async () => {
      const id = await video('Guarded');
      expectError(await h.call('PUT', `/me/projects/999999/videos/${id}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', `${drafts}/videos/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('PUT', `${drafts}/videos/${id}`, { token: bob.token }), 403, 3200);
      expectError(await h.call('PUT', `${drafts}/videos/${id}`), 401, 8000);
      const noInteract = await h.user('No interact', 'public,private,create,edit,delete,upload');
      expectError(await h.call('PUT', `/me/projects/1/videos/${id}`, { token: noInteract.token }), 403, 3200);
      expectError(await h.call('PUT', `/me/projects/1/videos`, { token: noInteract.token, json: { uris: [id] } }), 403, 3200);
      expectError(await h.call('DELETE', `/me/projects/1/videos`, { token: noInteract.token, json: { uris: [id] } }), 403, 3200);
      assert.equal((await folderOf(id)).body.parent_folder, null);
    });

    it('DELETE one takes a video out (204) and it survives; with should_delete_clips it is deleted; 404/5000 when not in the project', async () => {
      const out = await project('Out');
      const [keep, drop] = [await video('Keep'), await video('Drop')];
      assert.equal((await h.call('PUT', `${out}/videos`, { token: alice.token, json: { uris: [keep, drop] } })).status, 204);
      const videosBefore = (await h.call('GET', '/me', { token: alice.token })).body.metadata.connections.videos.total;
      expectError(await h.call('DELETE', `${out}/videos/${keep}`, { token: bob.token }), 403, 3200);
      const noDelete = await h.user('No delete', 'public,private,create,edit,interact,upload');
      expectError(await h.call('DELETE', `/me/projects/1/videos/${keep}`, { token: noDelete.token }), 403, 3200);
      expectError(await h.call('DELETE', `${out}/videos/${keep}`), 401, 8000);
      expectError(await h.call('DELETE', `${out}/videos/${keep}`, { token: alice.token, json: { should_delete_clips: 'x' } }), 400, 2204, 'should_delete_clips');
      assert.equal(await total(out), 2);
      let r = await h.call('DELETE', `${out}/videos/${keep}`, { token: alice.token });
      assert.equal(r.status, 204, r.text);
      assert.equal((await folderOf(keep)).body.parent_folder, null);
      expectError(await h.call('DELETE', `${out}/videos/${keep}`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `${out}/videos/999999`, { token: alice.token }), 404, 5000);
      expectError(await h.call('DELETE', `/me/projects/999999/videos/${drop}`, { token: alice.token }), 404, 5000);
      r = await h.call('DELETE', `${out}/videos/${drop}`, { token: alice.token, json: { should_delete_clips: true } });
      assert.equal(r.status, 204, r.text);
      expectError(await folderOf(drop), 404, 5000);
      assert.equal(await total(out), 0);
      assert.equal((await h.call('GET', '/me', { token: alice.token })).body.metadata.connections.videos.total, videosBefore - 1);
    });

    it('DELETE many: uris required (400/2204); 404/5000 when one is not in the project; takes them out, or deletes them', async () => {
      const many = await project('Many');
      const [a, b, c] = [await video('Many a'), await video('Many b'), await video('Many c')];
      const elsewhere = await video('Elsewhere');
      assert.equal((await h.call('PUT', `${many}/videos`, { token: alice.token, json: { uris: [a, b, c] } })).status, 204);
      expectError(await h.call('DELETE', `${many}/videos`, { token: alice.token, json: {} }), 400, 2204, 'uris');
      expectError(await h.call('DELETE', `${many}/videos`, { token: alice.token, json: { uris: ['nope'] } }), 400, 2204, 'uris');
      expectError(await h.call('DELETE', `${many}/videos`, { token: alice.token, json: { uris: [a, elsewhere] } }), 404, 5000);
      expectError(await h.call('DELETE', `${many}/videos`, { token: bob.token, json: { uris: [a] } }), 403, 3200);
      expectError(await h.call('DELETE', `${many}/videos`, { json: { uris: [a] } }), 401, 8000);
      expectError(await h.call('DELETE', '/me/projects/999999/videos', { token: alice.token, json: { uris: [a] } }), 404, 5000);
      assert.equal(await total(many), 3);
      let r = await h.call('DELETE', `${many}/videos`, { token: alice.token, form: { uris: `/videos/${a}` } });
      assert.equal(r.status, 204, r.text);
      assert.equal((await folderOf(a)).status, 200);
      assert.equal((await folderOf(a)).body.parent_folder, null);
      r = await h.call('DELETE', `${many}/videos`, { token: alice.token, json: { uris: [`/videos/${b}`, `/videos/${c}`], should_delete_clips: true } });
      assert.equal(r.status, 204, r.text);
      expectError(await folderOf(b), 404, 5000);
      expectError(await folderOf(c), 404, 5000);
      assert.equal(await total(many), 0);
      assert.deepEqual(await inProject(many), []);
    });

    it('deleting a video in a project uncounts it', async () => {
      const counted = await project('Counted');
      const id = await video('Counted one');
      assert.equal((await h.call('PUT', `${counted}/videos/${id}`, { token: alice.token })).status, 204);
      assert.equal(await total(counted), 1);
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      assert.equal(await total(counted), 0);
    });
  });
}
