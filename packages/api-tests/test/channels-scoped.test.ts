import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isoTime, type VideoRecord } from '@reelbase/core';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { addVideo, createChannel } from '../src/channels';

const names = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);

for (const driver of drivers) {
  describe(`channel-scoped video operations (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let viewer: Fixture;
    let channel: string;
    let hiddenChannel: string;
    let otherChannel: string;
    let video: string;
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      viewer = await h.user('Viewer');
      channel = await createChannel(h, owner, 'Scoped', { link: 'scoped' });
      hiddenChannel = await createChannel(h, owner, 'Hidden scope', { privacy: 'moderators' });
      otherChannel = await createChannel(h, owner, 'Without it');
      video = await h.video(owner, { name: 'Scoped clip' });
      await addVideo(h, owner, channel, video);
      await addVideo(h, owner, hiddenChannel, video);
    });
    after(() => h.stop());

    /** Each channel-scoped operation: how to call it and what it answers on success. */
    const operations: [string, string, string, Record<string, unknown> | undefined, number][] = [
      ['POST', 'comments', 'viewer', { text: 'Nice one' }, 201],
      ['POST', 'texttracks', 'owner', { language: 'en', name: 'English', type: 'subtitles' }, 201],
      ['POST', 'pictures', 'owner', { time: 1 }, 201],
      ['POST', 'credits', 'owner', { email: 'v@example.com', name: 'Viewer', role: 'Editor', user_uri: '' }, 201],
      ['GET', 'likes', 'viewer', undefined, 200],
      ['GET', 'recommendations', 'viewer', undefined, 200],
    ];
    const call = (method: string, path: string, who: string, json?: Record<string, unknown>) => {
      const body = json && 'user_uri' in json ? { ...json, user_uri: `/users/${viewer.user.id}`, role: `${json.role} ${path.length}` } : json;
      return h.call(method, path, { token: who === 'owner' ? owner.token : viewer.token, json: body });
    };

    for (const [method, tail, who, json, status] of operations) {
      it(`${method} /channels/{channel_id}/videos/{video_id}/${tail} behaves as the video operation`, async () => {
        const viaChannel = await call(method, `/channels/${channel}/videos/${video}/${tail}`, who, json);
        assert.equal(viaChannel.status, status, viaChannel.text);
        const viaAlias = await call(method, `/channels/scoped/videos/${video}/${tail}`, who, json);
        assert.equal(viaAlias.status, status, viaAlias.text);
        const viaVideo = await call(method, `/videos/${video}/${tail}`, who, json);
        assert.equal(viaVideo.status, status, viaVideo.text);
        assert.equal(viaChannel.headers.get('content-type'), viaVideo.headers.get('content-type'));
      });

      it(`${method} …/${tail} answers 404 when the channel is missing, hidden or does not hold the video`, async () => {
        const before = (await h.call('GET', `/videos/${video}`, { token: owner.token })).body.metadata.connections;
        expectError(await call(method, `/channels/999999/videos/${video}/${tail}`, who, json), 404, 5000);
        expectError(await call(method, `/channels/${otherChannel}/videos/${video}/${tail}`, who, json), 404, 5000);
        expectError(await call(method, `/channels/${channel}/videos/999999/${tail}`, who, json), 404, 5000);
        if (who === 'viewer') expectError(await call(method, `/channels/${hiddenChannel}/videos/${video}/${tail}`, who, json), 404, 5000);
        assert.deepEqual((await h.call('GET', `/videos/${video}`, { token: owner.token })).body.metadata.connections, before);
      });
    }

    it('keeps the rules of the video operations on channel paths (owner-only writes, scopes, 401)', async () => {
      expectError(await h.call('POST', `/channels/${channel}/videos/${video}/pictures`, { token: viewer.token, json: {} }), 403, 3200);
      expectError(await h.call('POST', `/channels/${channel}/videos/${video}/comments`, { json: { text: 'hi' } }), 401, 8003);
      const noUpload = await h.user('NoUpload', 'public,private,edit,create,delete,interact');
      expectError(await h.call('POST', `/channels/${channel}/videos/${video}/texttracks`, { token: noUpload.token, json: {} }), 403, 3200);
    });
  });

  describe(`GET /videos/{video_id}/recommendations (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let other: Fixture;
    const clip: Record<string, string> = {};
    const list = (path: string, version?: string, who?: Fixture) => h.call('GET', path, { version, token: who?.token });
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      other = await h.user('Other');
      const [first, second, secret] = [
        await createChannel(h, owner, 'First'),
        await createChannel(h, owner, 'Second'),
        await createChannel(h, owner, 'Secret', { privacy: 'moderators' }),
      ];
      const specs: [string, number, string[], string[]][] = [
        ['seed', 0, [first, second, secret], ['surf']],
        ['same channel', 10, [first], []],
        ['other channel', 30, [second], []],
        ['same tag', 20, [], ['SURF']],
        ['unrelated', 99, [], ['ski']],
        ['secret channel', 50, [secret], []],
      ];
      for (const [name, plays, channels, tags] of specs) {
        clip[name] = await h.video(owner, { name });
        await h.service.store.update('videos', clip[name], { plays });
        for (const c of channels) await addVideo(h, owner, c, clip[name]);
        if (tags.length) await h.call('PUT', `/videos/${clip[name]}/tags`, { token: owner.token, json: tags });
      }
      clip.hiddenTwin = await h.video(owner, { name: 'hidden twin', privacy: { view: 'nobody' } });
      await addVideo(h, owner, first, clip.hiddenTwin);
      clip.first = first;
      clip.second = second;
    });
    after(() => h.stop());

    it('lists the videos sharing a channel or a tag with the video, most played first, as Clips', async () => {
      const r = await list(`/videos/${clip.seed}/recommendations`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
      assert.deepEqual(names(r), ['other channel', 'same tag', 'same channel']);
      assert.equal(r.body.total, 3);
      assert.deepEqual(names(await list(`/videos/${clip.seed}/recommendations`, undefined, owner)), ['secret channel', 'other channel', 'same tag', 'same channel', 'hidden twin']);
      assert.deepEqual(names(await list(`/videos/${clip.seed}/recommendations?per_page=2&page=2`)), ['same channel']);
      const seed = (await list(`/videos/${clip.seed}`)).body.metadata.connections.recommendations;
      assert.deepEqual(seed, { uri: `/videos/${clip.seed}/recommendations`, options: ['GET'] });
    });

    it('through a channel, lists the videos of that channel or sharing a tag', async () => {
      const r = await list(`/channels/${clip.first}/videos/${clip.seed}/recommendations`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(names(r), ['same tag', 'same channel']);
      assert.deepEqual(names(await list(`/channels/${clip.second}/videos/${clip.seed}/recommendations`)), ['other channel', 'same tag']);
      expectError(await list(`/channels/${clip.second}/videos/${clip['same channel']}/recommendations`), 404, 5000);
      assert.deepEqual(names(await list(`/videos/${clip.unrelated}/recommendations`, undefined, other)), []);
    });

    it('answers 404 before 3.3 (Versioning 3.3) and for a missing or hidden video', async () => {
      expectError(await list(`/videos/${clip.seed}/recommendations`, '3.2'), 404, 5000);
      expectError(await list(`/channels/${clip.first}/videos/${clip.seed}/recommendations`, '3.2'), 404, 5000);
      assert.equal((await list(`/videos/${clip.seed}/recommendations`, '3.3')).status, 200);
      expectError(await list('/videos/999999/recommendations'), 404, 5000);
      expectError(await list(`/videos/${clip.hiddenTwin}/recommendations`, undefined, other), 404, 5000);
    });
  });
}

const sqlite = drivers.find((d) => d.name === 'sqlite')!;

describe('a channel of 5,000 videos on SQLite', () => {
  let h: Harness;
  let channel: string;
  const total = 5000;
  before(async () => {
    h = await Harness.start(sqlite);
    const owner = await h.user('Owner');
    channel = await createChannel(h, owner, 'Big');
    const template = (await h.service.store.get<VideoRecord>('videos', await h.video(owner)))!;
    const { id: _id, ...doc } = template;
    const time = isoTime(h.clock.now());
    await h.service.store.transaction(async (tx) => {
      for (let i = 0; i < total; i++) {
        // 7919 is prime to 5,000, so every play count from 0 to 4,999 occurs once.
        const video = await tx.insert<VideoRecord>('videos', { ...doc, name: `v${i}`, plays: (i * 7919) % total });
        await tx.insert('channel_videos', { channel_id: channel, video_id: video.id, user_id: owner.user.id, position: i + 1, created_time: time });
      }
      await tx.increment('channels', channel, 'videos_total', total);
    });
  });
  after(() => h.stop());

  it('lists page 50 sorted by plays, paged in the store', async () => {
    const r = await h.call('GET', `/channels/${channel}/videos?sort=plays&page=50&per_page=25`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.total, total);
    assert.equal(r.body.page, 50);
    const plays = r.body.data.map((v: { stats: { plays: number } }) => v.stats.plays);
    // Page 50 holds ranks 1,226 to 1,250 of the plays from 4,999 down.
    assert.deepEqual(plays, Array.from({ length: 25 }, (_, i) => total - 1 - 49 * 25 - i));
    assert.equal(r.body.paging.last, `/channels/${channel}/videos?sort=plays&page=200&per_page=25`);
    const ascending = await h.call('GET', `/channels/${channel}/videos?sort=plays&direction=asc&page=50&per_page=25`);
    assert.deepEqual(ascending.body.data.map((v: { stats: { plays: number } }) => v.stats.plays), Array.from({ length: 25 }, (_, i) => 49 * 25 + i));
    const manual = await h.call('GET', `/channels/${channel}/videos?sort=manual&page=50&per_page=25`);
    assert.deepEqual(manual.body.data.map((v: { name: string }) => v.name), Array.from({ length: 25 }, (_, i) => `v${49 * 25 + i}`));
  });
});
