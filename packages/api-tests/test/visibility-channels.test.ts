import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { addVideo, appoint, createChannel, subscribe } from '../src/channels';
import { listedFor, matrixPassword, readStatus, seedPrivacyMatrix, viewers, views, type PrivacyMatrix } from '../src/privacy-matrix';

const names = (r: Answer): string[] => r.body.data.map((x: { name: string }) => x.name).sort();

for (const driver of drivers) {
  /**
   * The one video visibility rule (issue 3) as the channel endpoints and a video's own
   * sub-resources apply it: privacy.view × caller, for channel video lists and reads,
   * recommendations, and every read under /videos/{video_id}.
   */
  describe(`privacy.view × caller through channels, recommendations and sub-resources (${driver.name})`, () => {
    let h: Harness;
    let m: PrivacyMatrix;
    let channel: string;
    let seed: string;
    before(async () => {
      h = await Harness.start(driver);
      m = await seedPrivacyMatrix(h, 'Channel matrix');
      channel = await createChannel(h, m.owner, 'Matrix channel');
      // The seed video shares the channel with one video of each privacy: those are its recommendations.
      seed = await h.video(m.owner, { name: 'seed' });
      await addVideo(h, m.owner, channel, seed);
      for (const view of views) await addVideo(h, m.owner, channel, m.videos[view]);
    });
    after(() => h.stop());

    for (const viewer of viewers) {
      const token = () => m.tokens[viewer];

      it(`${viewer}: GET /channels/{id}/videos lists only what the rule lists, with a true total`, async () => {
        const r = await h.call('GET', `/channels/${channel}/videos?per_page=100`, { token: token() });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(names(r), [...listedFor[viewer], 'seed'].sort());
        assert.equal(r.body.total, listedFor[viewer].length + 1);
      });

      it(`${viewer}: GET /channels/{id}/videos/{video_id} follows the read rule`, async () => {
        for (const view of views) {
          const r = await h.call('GET', `/channels/${channel}/videos/${m.videos[view]}`, { token: token() });
          assert.equal(r.status, readStatus(viewer, view), `${viewer} reads a ${view} video of the channel: ${r.text}`);
        }
        const unlocked = await h.call('GET', `/channels/${channel}/videos/${m.videos.password}?password=${encodeURIComponent(matrixPassword)}`, { token: token() });
        assert.equal(unlocked.status, 200, unlocked.text);
      });

      it(`${viewer}: recommendations, plain and through the channel, list only what the rule lists`, async () => {
        for (const path of [`/videos/${seed}/recommendations`, `/channels/${channel}/videos/${seed}/recommendations`]) {
          const r = await h.call('GET', `${path}?per_page=100`, { token: token() });
          assert.equal(r.status, 200, r.text);
          assert.deepEqual(names(r), [...listedFor[viewer]].sort(), `${viewer} ${path}`);
          assert.equal(r.body.total, listedFor[viewer].length, `${viewer} ${path} total`);
        }
      });

      it(`${viewer}: every read under /videos/{video_id} follows the read rule; the password opens the password video`, async () => {
        const reads = ['', '/comments', '/credits', '/texttracks', '/pictures', '/tags', '/categories', '/likes', '/recommendations'];
        for (const view of views) {
          const paths = [...reads.map((tail) => `/videos/${m.videos[view]}${tail}`), `/channels/${channel}/videos/${m.videos[view]}/likes`];
          for (const path of paths) {
            const r = await h.call('GET', path, { token: token() });
            assert.equal(r.status, readStatus(viewer, view), `${viewer} GET ${path} (${view}): ${r.text.slice(0, 200)}`);
            if (r.status !== 200) assert.equal(r.body.error_code, r.status === 404 ? 5000 : 3200);
          }
        }
        for (const tail of reads) {
          const r = await h.call('GET', `/videos/${m.videos.password}${tail}?password=${encodeURIComponent(matrixPassword)}`, { token: token() });
          assert.equal(r.status, 200, `${viewer} GET ${tail} of the password video with its password: ${r.text.slice(0, 200)}`);
        }
      });
    }
  });

  /**
   * Channel privacy × caller (issue 4): a `moderators` channel is visible to its owner and
   * moderators only, a `users` channel to them and its view list; hidden channels answer like
   * missing ones and never appear in a list.
   */
  describe(`channel privacy × caller × endpoint (${driver.name})`, () => {
    const table = `
      privacy     owner  moderator  listed  follower  stranger  anonymous
      anybody     yes    yes        yes     yes       yes       yes
      moderators  yes    yes        no      no        no        no
      users       yes    yes        yes     no        no        no
    `;
    const [header, ...lines] = table.trim().split('\n').map((l) => l.trim().split(/\s+/));
    const callers = header.slice(1);
    const privacies = lines.map((l) => l[0]);
    const sees = (privacy: string, caller: string) => lines.find((l) => l[0] === privacy)![1 + callers.indexOf(caller)] === 'yes';

    let h: Harness;
    const people: Record<string, Fixture> = {};
    const ids: Record<string, string> = {};
    let video: string;
    before(async () => {
      h = await Harness.start(driver);
      for (const caller of callers) if (caller !== 'anonymous') people[caller] = await h.user(caller);
      const { owner } = people;
      video = await h.video(owner, { name: 'In every channel' });
      for (const privacy of privacies) {
        // Each channel starts open, so the follower can subscribe, and takes its privacy last.
        const id = await createChannel(h, owner, privacy, { description: 'matrix' });
        ids[privacy] = id;
        await addVideo(h, owner, id, video);
        assert.equal((await h.call('PUT', `/channels/${id}/categories/music`, { token: owner.token })).status, 204);
        assert.equal((await h.call('PUT', `/channels/${id}/tags/matrix`, { token: owner.token })).status, 204);
        await subscribe(h, people.follower, id);
        await appoint(h, owner, id, people.moderator);
        const patch = await h.call('PATCH', `/channels/${id}`, { token: owner.token, json: { privacy } });
        assert.equal(patch.status, 200, patch.text);
      }
      const admit = await h.call('PUT', `/channels/${ids.users}/privacy/users/${people.listed.user.id}`, { token: owner.token });
      assert.equal(admit.status, 200, admit.text);
    });
    after(() => h.stop());

    it('the table covers every channel privacy', () => {
      assert.deepEqual([...privacies].sort(), ['anybody', 'moderators', 'users']);
    });

    for (const caller of callers) {
      const token = () => people[caller]?.token;
      const visible = () => privacies.filter((p) => sees(p, caller)).sort();

      it(`${caller}: reads of a channel and of what it holds answer as if a hidden channel did not exist`, async () => {
        for (const privacy of privacies) {
          const c = `/channels/${ids[privacy]}`;
          const reads = [
            c,
            `${c}/videos`,
            `${c}/videos/${video}`,
            `${c}/videos/${video}/likes`,
            `${c}/videos/${video}/recommendations`,
            `${c}/users`,
            `${c}/moderators`,
            `${c}/moderators/${people.owner.user.id}`,
            `${c}/categories`,
          ];
          for (const path of reads) {
            const r = await h.call('GET', path, { token: token() });
            if (sees(privacy, caller)) assert.equal(r.status, 200, `${caller} GET ${path}: ${r.text.slice(0, 200)}`);
            else expectError(r, 404, 5000);
          }
          // SPEC.md answers the tag reads of a channel that cannot be found with 400.
          const tags = await h.call('GET', `${c}/tags`, { token: token() });
          const tag = await h.call('GET', `${c}/tags/matrix`, { token: token() });
          const follows = await h.call('GET', `/users/${people.follower.user.id}/channels/${ids[privacy]}`, { token: token() });
          if (sees(privacy, caller)) {
            assert.deepEqual([tags.status, tag.status, follows.status], [200, 204, 204], `${caller} ${privacy}`);
          } else {
            expectError(tags, 400, 2204, 'channel_id');
            expectError(tag, 400, 2204, 'channel_id');
            expectError(follows, 404, 5000);
          }
        }
      });

      it(`${caller}: every list of channels shows only the channels the table lets them see, with true totals`, async () => {
        const lists = [
          '/channels',
          '/categories/music/channels',
          '/channels?query=matrix',
          `/users/${people.follower.user.id}/channels`,
          `/users/${people.owner.user.id}/channels?filter=moderated`,
          `/users/${people.moderator.user.id}/channels?filter=moderated`,
        ];
        for (const path of lists) {
          const r = await h.call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100`, { token: token() });
          assert.equal(r.status, 200, `${caller} GET ${path}: ${r.text}`);
          assert.deepEqual(names(r), visible(), `${caller} GET ${path}`);
          assert.equal(r.body.total, visible().length, `${caller} GET ${path} total`);
        }
      });
    }
  });
}
