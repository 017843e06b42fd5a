import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isoTime } from '@reelbase/core';
import { drivers, expectError, Harness, type Fixture } from '../src/index';

/**
 * Who sees a video, by privacy.view × caller (SPEC.md privacy.view; the matrix). `followed`
 * is someone the owner follows, which is what `contacts` means; `follower` follows the owner, which
 * grants nothing. `listed` is on the access list of every video, which only `users` consults.
 * A cell is the status of reading the video by id without a password, then `list` when the video
 * also appears in lists.
 */
const table = `
  view      owner     followed  follower  listed    stranger  anonymous
  anybody   200 list  200 list  200 list  200 list  200 list  200 list
  contacts  200 list  200 list  404       404       404       404
  users     200 list  404       404       200 list  404       404
  password  200 list  403       403       403       403       403
  unlisted  200 list  200       200       200       200       200
  nobody    200 list  404       404       404       404       404
  disable   200 list  404       404       404       404       404
`;

const [header, ...rows] = table.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));
const viewers = header.slice(1) as Viewer[];
type Viewer = 'owner' | 'followed' | 'follower' | 'listed' | 'stranger' | 'anonymous';
const views = rows.map((r) => r[0]);
const cell = (view: string, viewer: Viewer) => rows.find((r) => r[0] === view)![1 + viewers.indexOf(viewer)];
const readStatus = (view: string, viewer: Viewer) => Number(cell(view, viewer).split(' ')[0]);
const listedFor = (viewer: Viewer) => views.filter((view) => cell(view, viewer).endsWith('list'));

const password = 'open sesame';
const word = 'matrix';
const category = 'travel';

for (const driver of drivers) {
  describe(`the visibility matrix: privacy.view × caller × endpoint (${driver.name})`, () => {
    let h: Harness;
    const people = {} as Record<Exclude<Viewer, 'anonymous'>, Fixture>;
    const ids: Record<string, string> = {};
    const token = (viewer: Viewer) => (viewer === 'anonymous' ? undefined : people[viewer].token);
    const names = (r: { body: { data: { name: string }[] } }) => r.body.data.map((v) => v.name).sort();
    /** A list endpoint shows exactly the views the table lists for the viewer, with a true total. */
    const expectListed = async (path: string, viewer: Viewer) => {
      const r = await h.call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100`, { token: token(viewer) });
      assert.equal(r.status, 200, `${viewer} ${path}: ${r.text}`);
      assert.deepEqual(names(r), [...listedFor(viewer)].sort(), `${viewer} ${path}`);
      assert.equal(r.body.total, listedFor(viewer).length, `${viewer} ${path} total`);
    };
    const expectRead = async (path: string, viewer: Viewer, status: number) => {
      const r = await h.call('GET', path, { token: token(viewer) });
      if (status === 200) assert.equal(r.status, 200, `${viewer} ${path}: ${r.text}`);
      else expectError(r, status, status === 404 ? 5000 : 3200);
      return r;
    };

    before(async () => {
      h = await Harness.start(driver);
      for (const viewer of viewers) if (viewer !== 'anonymous') people[viewer] = await h.user(viewer);
      const { owner } = people;
      await h.follow(owner, people.followed);
      await h.follow(people.follower, owner);
      for (const view of views) {
        // Every video starts as `users` so that `listed` can join its access list, then takes its view.
        const id = await h.video(owner, { name: view, privacy: { view: 'users' } });
        ids[view] = id;
        const granted = await h.call('PUT', `/videos/${id}/privacy/users/${people.listed.user.id}`, { token: owner.token });
        assert.equal(granted.status, 200, granted.text);
        const patch = await h.call('PATCH', `/videos/${id}`, { token: owner.token, json: { privacy: { view }, ...(view === 'password' ? { password } : {}) } });
        assert.equal(patch.status, 200, patch.text);
        assert.equal(patch.body.metadata.connections.users_with_access.total, 1);
        assert.equal((await h.call('PUT', `/videos/${id}/tags/${word}`, { token: owner.token })).status, 204);
        assert.equal((await h.call('PUT', `/videos/${id}/categories`, { token: owner.token, json: { category: [category] } })).status, 201);
        // History and likes predate any privacy change, so they are written straight to the store.
        const time = isoTime(h.clock.now());
        for (const person of Object.values(people)) await h.service.store.insert('watched', { user_id: person.user.id, video_id: id, created_time: time });
        await h.service.store.insert('likes', { user_id: people.stranger.user.id, video_id: id, created_time: time });
        await h.service.store.increment('videos', id, 'likes_total', 1);
        h.clock.advance(60);
      }
      // Another owner's public video shares the tag and category, so lists are not just the owner's.
      const other = await h.user('other owner');
      const public_ = await h.video(other, { name: 'anybody' });
      await h.call('PUT', `/videos/${public_}/tags/${word}`, { token: other.token });
      await h.call('PUT', `/videos/${public_}/categories`, { token: other.token, json: { category: [category] } });
    });
    after(() => h.stop());

    it('the table covers every privacy.view', () => {
      assert.deepEqual([...views].sort(), ['anybody', 'contacts', 'disable', 'nobody', 'password', 'unlisted', 'users']);
    });

    for (const viewer of viewers) {
      it(`${viewer}: GET /videos/{id} and /users/{owner}/videos/{id}`, async () => {
        for (const view of views) {
          const r = await expectRead(`/videos/${ids[view]}`, viewer, readStatus(view, viewer));
          if (r.status === 200) assert.equal(r.body.name, view);
          await expectRead(`/users/${people.owner.user.id}/videos/${ids[view]}`, viewer, readStatus(view, viewer));
        }
      });

      it(`${viewer}: the password opens the password video, and only it`, async () => {
        const q = `?password=${encodeURIComponent(password)}`;
        assert.equal((await h.call('GET', `/videos/${ids.password}${q}`, { token: token(viewer) })).status, 200);
        assert.equal((await h.call('GET', `/videos/${ids.password}/likes${q}`, { token: token(viewer) })).status, 200);
        await expectRead(`/videos/${ids.nobody}${q}`, viewer, readStatus('nobody', viewer));
      });

      it(`${viewer}: GET /users/{owner}/videos lists only what the table lists`, async () => {
        await expectListed(`/users/${people.owner.user.id}/videos`, viewer);
      });

      it(`${viewer}: GET /videos/{id}/likes follows the read rule, with true totals`, async () => {
        for (const view of views) {
          const r = await expectRead(`/videos/${ids[view]}/likes`, viewer, readStatus(view, viewer));
          if (r.status === 200) {
            assert.equal(r.body.total, 1);
            assert.equal(r.body.data[0].name, 'stranger');
          }
        }
      });

      it(`${viewer}: GET /me/watched/videos lists only what the table lists`, async () => {
        if (viewer === 'anonymous') {
          expectError(await h.call('GET', '/me/watched/videos'), 401, 8003);
          return;
        }
        await expectListed('/me/watched/videos', viewer);
      });

      it(`${viewer}: GET /tags/{word}/videos and /categories/{category}/videos list only what the table lists`, async () => {
        for (const path of [`/tags/${word}/videos`, `/categories/${category}/videos`]) {
          const r = await h.call('GET', `${path}?per_page=100`, { token: token(viewer) });
          assert.equal(r.status, 200, r.text);
          const mine = r.body.data.filter((v: { user: { uri: string } }) => v.user.uri === `/users/${people.owner.user.id}`);
          assert.deepEqual(mine.map((v: { name: string }) => v.name).sort(), [...listedFor(viewer)].sort(), `${viewer} ${path}`);
          assert.equal(r.body.total, listedFor(viewer).length + 1, `${viewer} ${path} total`);
        }
      });

      it(`${viewer}: GET /categories/{category}/videos/{id} follows the read rule`, async () => {
        for (const view of views) await expectRead(`/categories/${category}/videos/${ids[view]}`, viewer, readStatus(view, viewer));
      });
    }
  });
}
