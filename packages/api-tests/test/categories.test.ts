import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { listedFor, matrixPassword, readStatus, seedPrivacyMatrix, views, viewers } from '../src/privacy-matrix';

const topLevelNames = [
  'Animation',
  'Arts & Design',
  'Camera Techniques',
  'Comedy',
  'Documentary',
  'Experimental',
  'Fashion',
  'Food',
  'Instructionals',
  'Music',
  'Narrative',
  'Personal',
  'Reporting & Journalism',
  'Sports',
  'Talks',
  'Travel',
];
const names = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);
const uris = (list: { uri: string }[]): string[] => list.map((c) => c.uri);

for (const driver of drivers) {
  describe(`categories (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let noEdit: Fixture;
    const newVideo = async (json: Record<string, unknown> = {}) => `/videos/${await h.video(alice, json)}`;
    const suggest = (video: string, category: unknown, who: Fixture = alice) => h.call('PUT', `${video}/categories`, { token: who.token, json: { category } });
    const categoriesOf = async (video: string) => uris((await h.call('GET', video, { token: alice.token })).body.categories);
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      noEdit = await h.user('NoEdit', 'public,private,interact,upload,delete,create');
    });
    after(() => h.stop());

    describe('GET /categories and /categories/{category}', () => {
      it('lists the top-level categories by name, with direction and paging', async () => {
        const r = await h.call('GET', '/categories');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.category+json;version=3.4');
        assert.equal(r.body.total, 16);
        assert.deepEqual(names(r), topLevelNames);
        assert.ok(r.body.data.every((c: { top_level: boolean; parent: unknown }) => c.top_level && c.parent === null));
        assert.deepEqual(names(await h.call('GET', '/categories?sort=name&direction=desc')), [...topLevelNames].reverse());
        const p = await h.call('GET', '/categories?per_page=5&page=4');
        assert.deepEqual(names(p), ['Travel']);
        assert.equal(p.body.total, 16);
        assert.equal(p.body.paging.next, null);
        assert.equal(p.body.paging.last, '/categories?per_page=5&page=4');
        expectError(await h.call('GET', '/categories?sort=followers'), 400, 2204, 'sort');
        expectError(await h.call('GET', '/categories?direction=sideways'), 400, 2204, 'direction');
        expectError(await h.call('GET', '/categories?per_page=0'), 400, 2204, 'per_page');
      });

      it('GET /categories/{category} answers the Category by slug or name, any case; 404 otherwise', async () => {
        const r = await h.call('GET', '/categories/animation', { token: alice.token });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.category+json;version=3.4');
        assert.equal(r.body.uri, '/categories/animation');
        assert.equal(r.body.name, 'Animation');
        assert.equal(r.body.link, `${h.server.url}/categories/animation`);
        assert.equal(r.body.top_level, true);
        assert.equal(r.body.parent, null);
        assert.deepEqual(uris(r.body.subcategories), ['/categories/2d', '/categories/3d', '/categories/motion-graphics', '/categories/stop-motion']);
        assert.deepEqual(r.body.metadata.connections.videos, { uri: '/categories/animation/videos', options: ['GET'], total: 0 });
        assert.deepEqual(r.body.metadata.interactions.follow, {
          uri: `/users/${alice.user.id}/categories/animation`,
          options: ['GET', 'PUT', 'DELETE'],
          added: false,
          added_time: null,
        });
        for (const key of ['ANIMATION', 'Arts%20%26%20Design', 'arts%20%26%20design', 'art']) {
          const c = await h.call('GET', `/categories/${key}`);
          assert.equal(c.status, 200, key);
        }
        assert.equal((await h.call('GET', '/categories/Arts%20%26%20Design')).body.uri, '/categories/art');
        const sub = await h.call('GET', '/categories/Stop%20Motion');
        assert.equal(sub.body.uri, '/categories/stop-motion');
        assert.equal(sub.body.top_level, false);
        assert.deepEqual(sub.body.parent, { uri: '/categories/animation', name: 'Animation', link: `${h.server.url}/categories/animation` });
        assert.deepEqual(sub.body.subcategories, []);
        expectError(await h.call('GET', '/categories/opera'), 404, 5000);
      });

      it('carries metadata only from 3.3 (Versioning 3.3: category interactions)', async () => {
        const v32 = await h.call('GET', '/categories/music', { token: alice.token, version: '3.2' });
        assert.equal(v32.status, 200);
        assert.equal(v32.body.metadata, undefined);
        assert.equal(v32.headers.get('content-type'), 'application/vnd.reelbase.category+json;version=3.2');
        assert.equal((await h.call('GET', '/categories/music', { version: '3.1' })).headers.get('content-type'), 'application/json');
        assert.deepEqual((await h.call('GET', '/categories/music')).body.metadata.interactions, {});
      });
    });

    describe('PUT /videos/{video_id}/categories', () => {
      it('suggests categories by slug or name and answers 201 with them; the Clip and the list follow', async () => {
        const video = await newVideo();
        const r = await suggest(video, ['Music', 'COMEDY', 'live-music']);
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.category+json;version=3.4');
        assert.deepEqual(uris(r.body), ['/categories/music', '/categories/comedy', '/categories/live-music']);
        assert.equal(r.body[2].parent.uri, '/categories/music');
        assert.deepEqual(await categoriesOf(video), ['/categories/music', '/categories/comedy', '/categories/live-music']);
        const list = await h.call('GET', `${video}/categories`);
        assert.equal(list.status, 200);
        assert.equal(list.headers.get('content-type'), 'application/vnd.reelbase.category+json;version=3.4');
        assert.equal(list.body.total, 3);
        assert.deepEqual(uris(list.body.data), ['/categories/music', '/categories/comedy', '/categories/live-music']);
        assert.equal((await h.call('GET', video, { version: '3.2' })).body.categories, undefined);
      });

      it('replaces the earlier suggestion; repeats collapse; an empty list clears', async () => {
        const video = await newVideo();
        h.clock.advance(60);
        await suggest(video, ['food', 'travel']);
        h.clock.advance(60);
        const r = await suggest(video, ['Travel', 'travel', 'City Guides']);
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(uris(r.body), ['/categories/travel', '/categories/city-guides']);
        assert.deepEqual(await categoriesOf(video), ['/categories/travel', '/categories/city-guides']);
        assert.equal((await h.call('GET', video)).body.modified_time, new Date(h.clock.time).toISOString().replace(/\.\d{3}Z$/, '+00:00'));
        expectError(await h.call('GET', `/categories/food${video}`), 404, 5000);
        assert.equal((await h.call('GET', `/categories/travel${video}`)).status, 200);
        const cleared = await suggest(video, []);
        assert.equal(cleared.status, 201);
        assert.deepEqual(cleared.body, []);
        assert.deepEqual(await categoriesOf(video), []);
        expectError(await h.call('GET', `/categories/travel${video}`), 404, 5000);
      });

      it('takes a comma-separated form body too', async () => {
        const video = await newVideo();
        const r = await h.call('PUT', `${video}/categories`, { token: alice.token, form: { category: 'food, Cooking' } });
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(uris(r.body), ['/categories/food', '/categories/cooking']);
      });

      it('allows two categories and one subcategory, a subcategory counting toward its parent', async () => {
        const video = await newVideo();
        for (const ok of [['music', 'comedy'], ['music', 'comedy', 'sketch'], ['animation', '3d'], ['2d', 'food'], ['horror']]) {
          assert.equal((await suggest(video, ok)).status, 201, ok.join());
        }
        await suggest(video, ['documentary']);
        const over = [
          ['music', 'comedy', 'food'],
          ['music', 'comedy', '3d'],
          ['3d', '2d'],
          ['horror', 'drama'],
          Array.from({ length: 21 }, () => 'music'),
        ];
        for (const category of over) {
          expectError(await suggest(video, category), 400, 2204, 'category');
        }
        assert.deepEqual(await categoriesOf(video), ['/categories/documentary']);
      });

      it('answers 404 for an unknown category and 400 naming bad input, changing nothing', async () => {
        const video = await newVideo();
        await suggest(video, ['talks']);
        expectError(await suggest(video, ['music', 'opera']), 404, 5000);
        expectError(await h.call('PUT', `${video}/categories`, { token: alice.token, json: {} }), 400, 2204, 'category');
        expectError(await h.call('PUT', `${video}/categories`, { token: alice.token }), 400, 2204, 'category');
        expectError(await suggest(video, { music: true }), 400, 2204, 'category');
        expectError(await suggest(video, [7]), 400, 2204, 'category.0');
        expectError(await suggest(video, ['']), 400, 2204, 'category.0');
        expectError(await h.call('PUT', `${video}/categories`, { token: alice.token, json: ['music'] }), 400, 2205);
        assert.deepEqual(await categoriesOf(video), ['/categories/talks']);
      });

      it('is owner-only (403), needs edit (403) and a user (401); 404 for a missing or hidden video', async () => {
        const video = await newVideo();
        const hidden = await newVideo({ privacy: { view: 'nobody' } });
        expectError(await suggest(video, ['music'], bob), 403, 3200);
        expectError(await suggest(video, ['music'], noEdit), 403, 3200);
        expectError(await h.call('PUT', `${video}/categories`, { json: { category: ['music'] } }), 401, 8003);
        expectError(await suggest('/videos/999999', ['music']), 404, 5000);
        expectError(await suggest(hidden, ['music'], bob), 404, 5000);
        assert.deepEqual(await categoriesOf(video), []);
      });

      it('GET /videos/{video_id}/categories answers 404 for a missing or hidden video and takes a password', async () => {
        expectError(await h.call('GET', '/videos/999999/categories'), 404, 5000);
        const hidden = await newVideo({ privacy: { view: 'disable' } });
        expectError(await h.call('GET', `${hidden}/categories`, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', `${hidden}/categories`, { token: alice.token })).status, 200);
        const locked = await newVideo({ privacy: { view: 'password' }, password: 'pw' });
        await suggest(locked, ['fashion']);
        expectError(await h.call('GET', `${locked}/categories`), 403, 3200);
        assert.equal((await h.call('GET', `${locked}/categories?password=pw`)).body.total, 1);
      });
    });

    describe('GET /categories/{category}/videos[/{video_id}]', () => {
      let ids: Record<string, string>;
      let owner: Fixture;
      before(async () => {
        owner = await h.user('Lister');
        ids = {};
        const seed: [string, string[], Record<string, unknown>, Record<string, number>][] = [
          ['Kite', ['sports'], {}, { plays: 5, likes_total: 1, comments_total: 9, duration: 40 }],
          ['board', ['skate'], { privacy: { embed: 'private' } }, { plays: 50, likes_total: 3, comments_total: 0, duration: 20 }],
          ['Wave', ['surf', 'travel'], { description: 'a big swell' }, { plays: 0, likes_total: 7, comments_total: 2, duration: 90 }],
          ['Snowy', ['music'], {}, { plays: 1, likes_total: 0, comments_total: 1, duration: 10 }],
        ];
        for (const [name, categories, json, counters] of seed) {
          h.clock.advance(60);
          const id = await h.video(owner, { name, ...json });
          await h.service.store.update('videos', id, counters);
          const r = await h.call('PUT', `/videos/${id}/categories`, { token: owner.token, json: { category: categories } });
          assert.equal(r.status, 201, r.text);
          ids[name] = `/videos/${id}`;
        }
        h.clock.advance(60);
        const hidden = await h.video(owner, { name: 'Secret', privacy: { view: 'nobody' } });
        await h.call('PUT', `/videos/${hidden}/categories`, { token: owner.token, json: { category: ['bike'] } });
        ids.Secret = `/videos/${hidden}`;
      });

      it('lists the visible videos of a category and its subcategories, newest first', async () => {
        const r = await h.call('GET', '/categories/sports/videos');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.deepEqual(names(r), ['Wave', 'board', 'Kite']);
        assert.equal(r.body.total, 3);
        assert.deepEqual(uris(r.body.data[0].categories), ['/categories/surf', '/categories/travel']);
        assert.deepEqual(names(await h.call('GET', '/categories/sports/videos', { token: owner.token })), ['Secret', 'Wave', 'board', 'Kite']);
        assert.deepEqual(names(await h.call('GET', '/categories/surf/videos')), ['Wave']);
        assert.deepEqual(names(await h.call('GET', '/categories/Travel/videos')), ['Wave']);
        assert.equal((await h.call('GET', '/categories/fashion/videos')).body.total, 0);
      });

      it('sorts by date, alphabetical, plays, likes, comments and duration with direction', async () => {
        const list = async (q: string) => names(await h.call('GET', `/categories/sports/videos?${q}`));
        assert.deepEqual(await list('sort=date'), ['Wave', 'board', 'Kite']);
        assert.deepEqual(await list('sort=date&direction=asc'), ['Kite', 'board', 'Wave']);
        assert.deepEqual(await list('sort=alphabetical'), ['board', 'Kite', 'Wave']);
        assert.deepEqual(await list('sort=alphabetical&direction=desc'), ['Wave', 'Kite', 'board']);
        assert.deepEqual(await list('sort=plays'), ['board', 'Kite', 'Wave']);
        assert.deepEqual(await list('sort=likes'), ['Wave', 'board', 'Kite']);
        assert.deepEqual(await list('sort=comments'), ['Kite', 'Wave', 'board']);
        assert.deepEqual(await list('sort=duration'), ['Wave', 'Kite', 'board']);
        assert.deepEqual(await list('sort=duration&direction=asc'), ['board', 'Kite', 'Wave']);
      });

      it('searches, filters embeddable videos and pages with a true total', async () => {
        const q = await h.call('GET', '/categories/sports/videos?query=SWELL');
        assert.deepEqual(names(q), ['Wave']);
        assert.equal(q.body.total, 1);
        assert.deepEqual(names(await h.call('GET', '/categories/sports/videos?filter=embeddable&filter_embeddable=true')), ['Wave', 'Kite']);
        assert.deepEqual(names(await h.call('GET', '/categories/sports/videos?filter=embeddable&filter_embeddable=false')), ['board']);
        expectError(await h.call('GET', '/categories/sports/videos?filter=embeddable'), 400, 2204, 'filter_embeddable');
        expectError(await h.call('GET', '/categories/sports/videos?filter=featured'), 400, 2204, 'filter');
        expectError(await h.call('GET', '/categories/sports/videos?sort=relevant'), 400, 2204, 'sort');
        const p = await h.call('GET', '/categories/sports/videos?per_page=2&page=2');
        assert.deepEqual(names(p), ['Kite']);
        assert.equal(p.body.total, 3);
        assert.equal(p.body.paging.previous, '/categories/sports/videos?per_page=2&page=1');
        expectError(await h.call('GET', '/categories/opera/videos'), 404, 5000);
      });

      it('GET /categories/{category}/videos/{video_id} answers the Clip when the video is in the category', async () => {
        const r = await h.call('GET', `/categories/sports${ids.Wave}`);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.uri, ids.Wave);
        assert.equal((await h.call('GET', `/categories/surf${ids.Wave}`)).status, 200);
        assert.equal((await h.call('GET', `/categories/travel${ids.Wave}`)).status, 200);
        expectError(await h.call('GET', `/categories/skate${ids.Wave}`), 404, 5000);
        expectError(await h.call('GET', `/categories/music${ids.Wave}`), 404, 5000);
        expectError(await h.call('GET', `/categories/opera${ids.Wave}`), 404, 5000);
        expectError(await h.call('GET', '/categories/sports/videos/999999'), 404, 5000);
        expectError(await h.call('GET', `/categories/sports${ids.Secret}`), 404, 5000);
        assert.equal((await h.call('GET', `/categories/sports${ids.Secret}`, { token: owner.token })).status, 200);
      });

      it('sorts /categories by the last video put in them that the caller may see', async () => {
        const anon = names(await h.call('GET', '/categories?sort=last_video_featured_time'));
        // Wave put Sports (via Surfing) and Travel in at the same time; ties go by name.
        assert.deepEqual(anon.slice(0, 3), ['Music', 'Sports', 'Travel']);
        assert.deepEqual([...anon].sort(), [...topLevelNames].sort());
        assert.deepEqual(names(await h.call('GET', '/categories?sort=last_video_featured_time&direction=asc&per_page=3&page=6')), ['Music']);
        const mine = names(await h.call('GET', '/categories?sort=last_video_featured_time', { token: owner.token }));
        assert.deepEqual(mine.slice(0, 3), ['Sports', 'Music', 'Travel']);
      });

      it('forgets deleted videos', async () => {
        assert.equal((await h.call('DELETE', ids.Kite, { token: owner.token })).status, 204);
        const r = await h.call('GET', '/categories/sports/videos');
        assert.deepEqual(names(r), ['Wave', 'board']);
        assert.equal(r.body.total, 2);
      });
    });

    describe('privacy.view × viewer', () => {
      it('decides what each viewer reads and lists through every category endpoint', async () => {
        const m = await seedPrivacyMatrix(h, 'Categories');
        for (const view of views) {
          const r = await h.call('PUT', `/videos/${m.videos[view]}/categories`, { token: m.owner.token, json: { category: ['instructionals'] } });
          assert.equal(r.status, 201, r.text);
        }
        for (const viewer of viewers) {
          const token = m.tokens[viewer];
          const listed = await h.call('GET', '/categories/instructionals/videos?sort=alphabetical&per_page=100', { token });
          const expected = [...listedFor[viewer]].sort();
          assert.deepEqual(names(listed), expected, viewer);
          assert.equal(listed.body.total, expected.length, viewer);
          for (const view of views) {
            const status = readStatus(viewer, view);
            const one = await h.call('GET', `/categories/instructionals/videos/${m.videos[view]}`, { token });
            assert.equal(one.status, status, `${viewer} reads a ${view} video of the category: ${one.text}`);
            const list = await h.call('GET', `/videos/${m.videos[view]}/categories`, { token });
            assert.equal(list.status, status, `${viewer} lists the categories of a ${view} video`);
          }
        }
        const unlocked = await h.call('GET', `/categories/instructionals/videos/${m.videos.password}?password=${encodeURIComponent(matrixPassword)}`);
        assert.equal(unlocked.status, 200);
      });
    });
  });
}
