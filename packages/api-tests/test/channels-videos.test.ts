import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { addVideo, appoint, channelTotals, createChannel, subscribe } from '../src/channels';

const names = (r: Answer): string[] => (Array.isArray(r.body) ? r.body : r.body.data).map((v: { name: string }) => v.name);

for (const driver of drivers) {
  describe(`channel videos (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let mod: Fixture;
    let stranger: Fixture;
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      mod = await h.user('Mod');
      stranger = await h.user('Stranger');
    });
    after(() => h.stop());

    describe('GET /channels/{channel_id}/videos', () => {
      let id: string;
      let clip: Record<string, string>;
      const list = (q = '', who?: Fixture, headers?: Record<string, string>) => h.call('GET', `/channels/${id}/videos${q}`, { token: who?.token, headers });
      before(async () => {
        id = await createChannel(h, owner, 'Library');
        await appoint(h, owner, id, mod);
        clip = {};
        // Made in one order, added in another; plays, likes, comments, duration differ from both.
        const specs: [string, number, number, number, number, Record<string, unknown>][] = [
          ['kilo', 30, 1, 5, 60, {}],
          ['Alpha', 10, 3, 0, 300, { description: 'surf at dawn' }],
          ['lima', 20, 2, 9, 30, { privacy: { embed: 'private' } }],
          ['Bravo', 40, 0, 1, 120, {}],
        ];
        for (const [name, plays, likes, comments, duration, json] of specs) {
          h.clock.advance(60);
          clip[name] = await h.video(owner, { name, ...json });
          await h.service.store.update('videos', clip[name], { plays, likes_total: likes, comments_total: comments, duration });
        }
        for (const name of ['lima', 'Alpha', 'kilo', 'Bravo']) {
          h.clock.advance(60);
          await addVideo(h, name === 'kilo' ? mod : owner, id, clip[name]);
        }
        h.clock.advance(60);
        await h.call('PATCH', `/videos/${clip.kilo}`, { token: owner.token, json: { description: 'edited last' } });
        // Another channel's video and a hidden one in this channel.
        await addVideo(h, owner, await createChannel(h, owner, 'Elsewhere'), await h.video(owner, { name: 'Elsewhere clip' }));
        clip.hidden = await h.video(owner, { name: 'Hidden', privacy: { view: 'nobody' } });
        await addVideo(h, owner, id, clip.hidden);
      });

      it('lists the videos the caller may see, the latest added first, as Clips', async () => {
        const r = await list();
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.total, 4);
        assert.deepEqual(names(r), ['Bravo', 'kilo', 'Alpha', 'lima']);
        assert.equal(r.body.data[0].uri, `/videos/${clip.Bravo}`);
        assert.deepEqual(names(await list('', owner)), ['Hidden', 'Bravo', 'kilo', 'Alpha', 'lima']);
        assert.equal((await channelTotals(h, owner, id)).videos, 5);
      });

      it('sorts every way SPEC.md lists', async () => {
        const cases: [string, string[]][] = [
          ['sort=default', ['Bravo', 'kilo', 'Alpha', 'lima']],
          ['sort=added', ['Bravo', 'kilo', 'Alpha', 'lima']],
          ['sort=added&direction=asc', ['lima', 'Alpha', 'kilo', 'Bravo']],
          ['sort=manual', ['lima', 'Alpha', 'kilo', 'Bravo']],
          ['sort=manual&direction=desc', ['Bravo', 'kilo', 'Alpha', 'lima']],
          ['sort=alphabetical', ['Alpha', 'Bravo', 'kilo', 'lima']],
          ['sort=alphabetical&direction=desc', ['lima', 'kilo', 'Bravo', 'Alpha']],
          ['sort=date', ['Bravo', 'lima', 'Alpha', 'kilo']],
          ['sort=date&direction=asc', ['kilo', 'Alpha', 'lima', 'Bravo']],
          ['sort=plays', ['Bravo', 'kilo', 'lima', 'Alpha']],
          ['sort=likes', ['Alpha', 'lima', 'kilo', 'Bravo']],
          ['sort=comments', ['lima', 'kilo', 'Bravo', 'Alpha']],
          ['sort=duration', ['Alpha', 'Bravo', 'kilo', 'lima']],
          ['sort=duration&direction=asc', ['lima', 'kilo', 'Bravo', 'Alpha']],
          ['sort=modified_time', ['kilo', 'Bravo', 'lima', 'Alpha']],
        ];
        for (const [q, expected] of cases) assert.deepEqual(names(await list(`?${q}`)), expected, q);
      });

      it('answers 400 for sort=default with a direction, and for sorts and filters it does not list', async () => {
        expectError(await list('?sort=default&direction=asc'), 400, 2204, 'direction');
        expectError(await list('?direction=desc'), 400, 2204, 'direction');
        expectError(await list('?sort=name'), 400, 2204, 'sort');
        expectError(await list('?filter=featured'), 400, 2204, 'filter');
        expectError(await list('?filter=embeddable'), 400, 2204, 'filter_embeddable');
      });

      it('filters embeddable or non-embeddable videos, and searches names and descriptions', async () => {
        assert.deepEqual(names(await list('?filter=embeddable&filter_embeddable=true')), ['Bravo', 'kilo', 'Alpha']);
        assert.deepEqual(names(await list('?filter=embeddable&filter_embeddable=false')), ['lima']);
        assert.deepEqual(names(await list('?query=SURF')), ['Alpha']);
        // Words beginning with "a": Alpha's name, and its description's "at".
        const r = await list('?query=a&sort=alphabetical&per_page=1&page=1');
        assert.equal(r.body.total, 1);
        assert.deepEqual(names(r), ['Alpha']);
        assert.deepEqual(names(await list('?query=edit')), ['kilo']);
      });

      it('answers the page that holds containing_uri, under the sort and filter asked for', async () => {
        const r = await list(`?sort=alphabetical&per_page=2&containing_uri=/videos/${clip.lima}`);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.page, 2);
        assert.deepEqual(names(r), ['kilo', 'lima']);
        assert.equal(r.body.paging.previous, `/channels/${id}/videos?sort=alphabetical&per_page=2&containing_uri=%2Fvideos%2F${clip.lima}&page=1`);
        assert.equal((await list(`?sort=plays&per_page=1&containing_uri=${clip.kilo}`)).body.page, 2);
        assert.equal((await list(`?per_page=3&containing_uri=/videos/${clip.Bravo}`)).body.page, 1);
        expectError(await list(`?containing_uri=/videos/${clip.hidden}`), 400, 2204, 'containing_uri');
        expectError(await list(`?filter=embeddable&filter_embeddable=true&containing_uri=/videos/${clip.lima}`), 400, 2204, 'containing_uri');
        expectError(await list('?containing_uri=/videos/999999'), 400, 2204, 'containing_uri');
        expectError(await list('?containing_uri=nonsense'), 400, 2204, 'containing_uri');
      });

      it('answers 304 to If-Modified-Since when no video was added since', async () => {
        const first = await list();
        const modified = first.headers.get('last-modified')!;
        assert.ok(modified);
        assert.equal((await list('', undefined, { 'if-modified-since': modified })).status, 304);
        h.clock.advance(60);
        await addVideo(h, owner, id, await h.video(owner, { name: 'Newest' }));
        const after = await list('', undefined, { 'if-modified-since': modified });
        assert.equal(after.status, 200);
        assert.equal(names(after)[0], 'Newest');
      });

      it('answers 404 for a missing or hidden channel', async () => {
        expectError(await h.call('GET', '/channels/999999/videos'), 404, 5000);
        const hidden = await createChannel(h, owner, 'Hidden library', { privacy: 'moderators' });
        expectError(await h.call('GET', `/channels/${hidden}/videos`, { token: stranger.token }), 404, 5000);
      });
    });

    describe('PUT and DELETE /channels/{channel_id}/videos', () => {
      it('adds the videos of video_uri (200 with the Clips), once each, and removes them (204)', async () => {
        const id = await createChannel(h, owner, 'Bulk');
        const [a, b, c] = [await h.video(owner, { name: 'A' }), await h.video(stranger, { name: 'B' }), await h.video(owner, { name: 'C' })];
        const one = await h.call('PUT', `/channels/${id}/videos`, { token: owner.token, json: { video_uri: `/videos/${a}` } });
        assert.equal(one.status, 200, one.text);
        assert.equal(one.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.deepEqual(names(one), ['A']);
        const many = await h.call('PUT', `/channels/${id}/videos`, { token: owner.token, json: [{ video_uri: `/videos/${b}` }, { video_uri: `/videos/${a}` }, c] });
        assert.equal(many.status, 200, many.text);
        assert.deepEqual(names(many), ['B', 'A', 'C']);
        assert.equal((await channelTotals(h, owner, id)).videos, 3);
        const del = await h.call('DELETE', `/channels/${id}/videos`, { token: owner.token, form: { video_uri: `/videos/${a},/videos/${c}` } });
        assert.equal(del.status, 204, del.text);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/videos`)), ['B']);
        assert.equal((await channelTotals(h, owner, id)).videos, 1);
      });

      it('answers 403 to a non-moderator and for a video whose privacy.add forbids it, 404 for a missing video; all or nothing', async () => {
        const id = await createChannel(h, owner, 'Strict');
        const ok = await h.video(stranger, { name: 'Ok' });
        const locked = await h.video(stranger, { name: 'Locked', privacy: { add: false } });
        const hidden = await h.video(stranger, { name: 'Hidden', privacy: { view: 'nobody' } });
        const put = (json: unknown, who: Fixture = owner) => h.call('PUT', `/channels/${id}/videos`, { token: who.token, json });
        expectError(await put({ video_uri: `/videos/${ok}` }, stranger), 403, 3200);
        expectError(await put([{ video_uri: `/videos/${ok}` }, { video_uri: `/videos/${locked}` }]), 403, 3200);
        expectError(await put({ video_uri: `/videos/${hidden}` }), 404, 5000);
        expectError(await put({ video_uri: '/videos/999999' }), 404, 5000);
        expectError(await put({}), 400, 2204, 'video_uri');
        expectError(await h.call('PUT', '/channels/999999/videos', { token: owner.token, json: { video_uri: `/videos/${ok}` } }), 404, 5000);
        assert.equal((await channelTotals(h, owner, id)).videos, 0);
        // The video's own owner may always add it.
        const strangers = await createChannel(h, stranger, 'Own');
        const own = await h.call('PUT', `/channels/${strangers}/videos`, { token: stranger.token, json: { video_uri: `/videos/${locked}` } });
        assert.equal(own.status, 200, own.text);
      });

      it('answers 403 to removing a video that is not in the channel or by a non-moderator, and changes nothing', async () => {
        const id = await createChannel(h, owner, 'Keeps');
        const kept = await h.video(owner, { name: 'Kept' });
        await addVideo(h, owner, id, kept);
        const del = (json: unknown, who: Fixture = owner) => h.call('DELETE', `/channels/${id}/videos`, { token: who.token, json });
        expectError(await del({ video_uri: `/videos/${kept}` }, stranger), 403, 3200);
        expectError(await del([`/videos/${kept}`, '/videos/999999']), 403, 3200);
        expectError(await del({}), 400, 2204, 'video_uri');
        expectError(await h.call('DELETE', '/channels/999999/videos', { token: owner.token, json: { video_uri: `/videos/${kept}` } }), 404, 5000);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/videos`)), ['Kept']);
      });
    });

    describe('/channels/{channel_id}/videos/{video_id}', () => {
      it('adds (204), checks (200 with the Clip) and removes (204) a video; moderators may too', async () => {
        const id = await createChannel(h, owner, 'Single', { link: 'single' });
        await appoint(h, owner, id, mod);
        const video = await h.video(stranger, { name: 'Theirs' });
        expectError(await h.call('GET', `/channels/${id}/videos/${video}`), 404, 5000);
        const put = await h.call('PUT', `/channels/single/videos/${video}`, { token: mod.token });
        assert.equal(put.status, 204, put.text);
        assert.equal((await h.call('PUT', `/channels/${id}/videos/${video}`, { token: owner.token })).status, 204);
        const get = await h.call('GET', `/channels/single/videos/${video}`);
        assert.equal(get.status, 200, get.text);
        assert.equal(get.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(get.body.uri, `/videos/${video}`);
        assert.equal((await channelTotals(h, owner, id)).videos, 1);
        const del = await h.call('DELETE', `/channels/${id}/videos/${video}`, { token: mod.token });
        assert.equal(del.status, 204, del.text);
        assert.equal((await channelTotals(h, owner, id)).videos, 0);
        expectError(await h.call('DELETE', `/channels/${id}/videos/${video}`, { token: owner.token }), 404, 5000);
      });

      it('answers the 403s and 404s of SPEC.md and changes nothing', async () => {
        const id = await createChannel(h, owner, 'Single strict');
        const locked = await h.video(stranger, { name: 'No adding', privacy: { add: false } });
        const hidden = await h.video(stranger, { name: 'Hidden one', privacy: { view: 'nobody' } });
        const inside = await h.video(owner, { name: 'Inside' });
        await addVideo(h, owner, id, inside);
        expectError(await h.call('PUT', `/channels/${id}/videos/${locked}`, { token: owner.token }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/videos/${inside}`, { token: stranger.token }), 403, 3200);
        expectError(await h.call('PUT', `/channels/${id}/videos/${hidden}`, { token: owner.token }), 404, 5000);
        expectError(await h.call('PUT', `/channels/${id}/videos/999999`, { token: owner.token }), 404, 5000);
        expectError(await h.call('PUT', `/channels/999999/videos/${inside}`, { token: owner.token }), 404, 5000);
        expectError(await h.call('DELETE', `/channels/${id}/videos/${inside}`, { token: stranger.token }), 403, 3200);
        expectError(await h.call('DELETE', `/channels/999999/videos/${inside}`, { token: owner.token }), 404, 5000);
        expectError(await h.call('GET', '/channels/999999/videos/1'), 404, 5000);
        expectError(await h.call('PUT', `/channels/${id}/videos/${inside}`), 401, 8003);
        assert.deepEqual(names(await h.call('GET', `/channels/${id}/videos`)), ['Inside']);
      });

      it('hides a video the caller may not see even when it is in the channel, and needs a password video\'s password', async () => {
        const id = await createChannel(h, owner, 'Mixed');
        const hidden = await h.video(owner, { name: 'Private', privacy: { view: 'nobody' } });
        const locked = await h.video(owner, { name: 'Locked', privacy: { view: 'password' }, password: 'sesame' });
        await addVideo(h, owner, id, hidden);
        await addVideo(h, owner, id, locked);
        expectError(await h.call('GET', `/channels/${id}/videos/${hidden}`, { token: stranger.token }), 404, 5000);
        assert.equal((await h.call('GET', `/channels/${id}/videos/${hidden}`, { token: owner.token })).status, 200);
        expectError(await h.call('GET', `/channels/${id}/videos/${locked}`), 403, 3200);
        assert.equal((await h.call('GET', `/channels/${id}/videos/${locked}?password=sesame`)).status, 200);
      });

      it('takes a deleted video out of its channels, keeping the counter exact', async () => {
        const id = await createChannel(h, owner, 'Losing');
        const video = await h.video(owner, { name: 'Going' });
        await addVideo(h, owner, id, video);
        assert.equal((await channelTotals(h, owner, id)).videos, 1);
        assert.equal((await h.call('DELETE', `/videos/${video}`, { token: owner.token })).status, 204);
        assert.equal((await channelTotals(h, owner, id)).videos, 0);
        assert.equal((await h.call('GET', `/channels/${id}/videos`)).body.total, 0);
      });

      it("tells the channel's followers through their feed", async () => {
        const id = await createChannel(h, owner, 'Newsy');
        const follower = await h.user('Follower');
        await subscribe(h, follower, id);
        const video = await h.video(owner, { name: 'News' });
        h.clock.advance(60);
        await addVideo(h, owner, id, video);
        const feed = await h.call('GET', '/me/feed?type=channel', { token: follower.token });
        assert.equal(feed.status, 200, feed.text);
        assert.deepEqual(feed.body.data.map((a: { type: string; clip: { uri: string }; channel: { uri: string } }) => [a.type, a.clip.uri, a.channel.uri]), [
          ['channel', `/videos/${video}`, `/channels/${id}`],
        ]);
        // Not the one who added it.
        const own = (await h.call('GET', '/me/feed?type=channel', { token: owner.token })).body.data;
        assert.ok(own.every((a: { channel: { uri: string } }) => a.channel.uri !== `/channels/${id}`));
        await h.call('DELETE', `/channels/${id}/videos/${video}`, { token: owner.token });
        assert.equal((await h.call('GET', '/me/feed?type=channel', { token: follower.token })).body.data.length, 0);
      });
    });

    describe('GET /videos/{video_id}/available_channels', () => {
      let h2: Harness;
      let owner2: Fixture;
      let other: Fixture;
      const names2 = (r: Answer) => r.body.data.map((c: { name: string }) => c.name);
      before(async () => {
        h2 = await Harness.start(driver);
        owner2 = await h2.user('Owner');
        other = await h2.user('Other');
        await createChannel(h2, owner2, 'Zulu');
        await createChannel(h2, owner2, 'alpha');
        const theirs = await createChannel(h2, other, 'Theirs');
        await appoint(h2, other, theirs, owner2);
        await createChannel(h2, other, 'Not mine');
      });
      after(() => h2.stop());

      it('lists the channels the caller moderates, by name, as Channels', async () => {
        const video = await h2.video(other, { name: 'Addable' });
        const r = await h2.call('GET', `/videos/${video}/available_channels`, { token: owner2.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.channel+json;version=3.4');
        assert.deepEqual(names2(r), ['alpha', 'Theirs', 'Zulu']);
        assert.deepEqual(names2(await h2.call('GET', `/videos/${video}/available_channels?per_page=1&page=3`, { token: owner2.token })), ['Zulu']);
      });

      it("lists only the channels holding a video whose privacy.add keeps the caller from adding it; 403 when none does", async () => {
        const locked = await h2.video(other, { name: 'Locked', privacy: { add: false } });
        expectError(await h2.call('GET', `/videos/${locked}/available_channels`, { token: owner2.token }), 403, 3200);
        const zulu = (await h2.service.store.findOne('channels', { field: 'name', op: 'eq', value: 'Zulu' }))!.id;
        await h2.service.store.insert('channel_videos', { channel_id: zulu, video_id: locked, user_id: other.user.id, position: 1, created_time: '2026-01-02T03:04:05+00:00' });
        assert.deepEqual(names2(await h2.call('GET', `/videos/${locked}/available_channels`, { token: owner2.token })), ['Zulu']);
        assert.deepEqual(names2(await h2.call('GET', `/videos/${locked}/available_channels`, { token: other.token })), ['Not mine', 'Theirs']);
      });

      it('answers 404 to a user who moderates no channels and for a missing or hidden video, 401 anonymously', async () => {
        const video = await h2.video(other);
        const nobody = await h2.user('Nobody');
        expectError(await h2.call('GET', `/videos/${video}/available_channels`, { token: nobody.token }), 404, 5000);
        expectError(await h2.call('GET', '/videos/999999/available_channels', { token: owner2.token }), 404, 5000);
        const hidden = await h2.video(other, { privacy: { view: 'nobody' } });
        expectError(await h2.call('GET', `/videos/${hidden}/available_channels`, { token: owner2.token }), 404, 5000);
        expectError(await h2.call('GET', `/videos/${video}/available_channels`), 401, 8003);
      });
    });
  });
}
