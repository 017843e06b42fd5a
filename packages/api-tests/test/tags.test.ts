import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';
import { listedFor, matrixPassword, readStatus, seedPrivacyMatrix, views, viewers } from '../src/privacy-matrix';

const tagJson = (name: string, canonical = name.toLowerCase()) => ({
  uri: `/tags/${encodeURIComponent(canonical)}`,
  name,
  tag: name,
  canonical,
});
const trimTag = ({ uri, name, tag, canonical }: Record<string, unknown>) => ({ uri, name, tag, canonical });
const names = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);

for (const driver of drivers) {
  describe(`video tags (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let noEdit: Fixture;
    const newVideo = async (json: Record<string, unknown> = {}) => `/videos/${await h.video(alice, json)}`;
    const tagsOf = async (video: string) => (await h.call('GET', video, { token: alice.token })).body.tags.map(trimTag);
    const putTags = (video: string, json: unknown, who: Fixture = alice, version?: string) =>
      h.call('PUT', `${video}/tags`, { token: who.token, json, version });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      noEdit = await h.user('NoEdit', 'public,private,interact,upload,delete,create');
    });
    after(() => h.stop());

    describe('PUT /videos/{video_id}/tags', () => {
      it('adds a JSON list of tags ({tag}, {name} or strings) and answers 200 with the video\'s Tags', async () => {
        const video = await newVideo();
        const r = await putTags(video, [{ tag: 'Travel' }, { name: '  Street   Food ' }, 'night']);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.tag+json;version=3.4');
        assert.deepEqual(r.body.map(trimTag), [tagJson('Travel'), tagJson('Street Food'), tagJson('night')]);
        assert.match(r.body[0].resource_key, /^[0-9a-f]{40}$/);
        assert.deepEqual(await tagsOf(video), [tagJson('Travel'), tagJson('Street Food'), tagJson('night')]);
      });

      it('adds rather than replaces, and skips tags already there (by canonical word) or repeated', async () => {
        const video = await newVideo();
        h.clock.advance(60);
        await putTags(video, ['one', 'two']);
        h.clock.advance(60);
        const r = await putTags(video, ['TWO', 'three', 'Three', ' three ']);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.map(trimTag), [tagJson('one'), tagJson('two'), tagJson('three')]);
        const clip = (await h.call('GET', video)).body;
        assert.equal(clip.modified_time, new Date(h.clock.time).toISOString().replace(/\.\d{3}Z$/, '+00:00'));
        const again = await putTags(video, ['one']);
        assert.equal(again.status, 200);
        assert.equal(again.body.length, 3);
      });

      it('answers 201 before 3.3 and 200 from 3.3 on (Versioning 3.3)', async () => {
        const video = await newVideo();
        for (const [version, status] of [['3.1', 201], ['3.2', 201], ['3.3', 200], ['3.4', 200]] as const) {
          const r = await putTags(video, [`v${version}`], alice, version);
          assert.equal(r.status, status, `${version}: ${r.text}`);
          assert.ok(r.body.some((t: { canonical: string }) => t.canonical === `v${version}`));
        }
        const old = await putTags(video, ['x'], alice, '3.1');
        assert.equal(old.headers.get('content-type'), 'application/json');
      });

      it('answers 400/2205 when the body is missing, empty or not a JSON list, and changes nothing', async () => {
        const video = await newVideo();
        await putTags(video, ['kept']);
        const bodies: [string, Parameters<Harness['call']>[2]][] = [
          ['no body', {}],
          ['empty list', { json: [] }],
          ['object', { json: { tag: 'a' } }],
          ['string', { json: 'a' }],
          ['form', { form: { tag: 'a' } }],
          ['malformed JSON', { raw: '[{"tag":', headers: { 'content-type': 'application/json' } }],
        ];
        for (const [label, o] of bodies) {
          const r = await h.call('PUT', `${video}/tags`, { token: alice.token, ...o });
          assert.equal(r.status, 400, `${label}: ${r.text}`);
          expectError(r, 400, 2205);
        }
        assert.deepEqual(await tagsOf(video), [tagJson('kept')]);
      });

      const badEntries: [string, unknown[]][] = [
        ['1.tag', ['ok', { tag: '   ' }]],
        ['0.name', [{ name: 7 }]],
        ['0.tag', [{ tag: null }]],
        ['2', ['a', 'b', 5]],
        ['0', [{ label: 'x' }]],
        ['0', [['nested']]],
        ['0.tag', [{ tag: 'x'.repeat(101) }]],
        ['0.tag', [{ tag: 'AC/DC' }]],
        ['1', ['a', 'b,c']],
        ['0', ['bell\u0007']],
      ];
      for (const [field, json] of badEntries) {
        it(`answers 400/2204 naming ${field} for ${JSON.stringify(json).slice(0, 40)}, and writes nothing`, async () => {
          const video = await newVideo();
          expectError(await putTags(video, json), 400, 2204, field);
          assert.deepEqual(await tagsOf(video), []);
          expectError(await h.call('GET', '/tags/ok'), 404, 5000);
        });
      }

      it('accepts a word of 100 characters and any script', async () => {
        const video = await newVideo();
        const r = await putTags(video, ['y'.repeat(100), 'Ça Va', '日本']);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.map((t: { canonical: string }) => t.canonical), ['y'.repeat(100), 'ça va', '日本']);
      });

      it('answers 403 when the video would carry more than 20 tags, and writes nothing', async () => {
        const video = await newVideo();
        const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
        assert.equal((await putTags(video, twenty.slice(0, 18))).status, 200);
        expectError(await putTags(video, ['t18', 't19', 'fresh-word']), 403, 3200);
        assert.equal((await tagsOf(video)).length, 18);
        expectError(await h.call('GET', '/tags/fresh-word'), 404, 5000);
        const r = await putTags(video, ['t18', 'T19', 't0']);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.length, 20);
        assert.equal((await putTags(video, ['t5'])).status, 200);
        expectError(await putTags(video, ['t20']), 403, 3200);
        expectError(await h.call('PUT', `${video}/tags/t20`, { token: alice.token }), 403, 3200);
        assert.equal((await tagsOf(video)).length, 20);
        assert.equal((await h.call('PUT', `${video}/tags/T7`, { token: alice.token })).status, 204);
      });

      it('is owner-only (403), needs the edit scope (403) and a user (401); 404 for missing or hidden videos', async () => {
        const video = await newVideo();
        const hidden = await newVideo({ privacy: { view: 'nobody' } });
        expectError(await putTags(video, ['mine'], bob), 403, 3200);
        expectError(await putTags(video, ['mine'], noEdit), 403, 3200);
        expectError(await h.call('PUT', `${video}/tags`, { json: ['mine'] }), 401, 8003);
        expectError(await putTags('/videos/999999', ['mine']), 404, 5000);
        expectError(await putTags(hidden, ['mine'], bob), 404, 5000);
        assert.deepEqual(await tagsOf(video), []);
      });
    });

    describe('PUT, GET and DELETE /videos/{video_id}/tags/{word}', () => {
      it('PUT adds one tag (204), canonicalised, and is idempotent', async () => {
        const video = await newVideo();
        const r = await h.call('PUT', `${video}/tags/${encodeURIComponent(' Road \t\n Trip ')}`, { token: alice.token });
        assert.equal(r.status, 204, r.text);
        assert.equal(r.text, '');
        assert.equal((await h.call('PUT', `${video}/tags/road%20trip`, { token: alice.token })).status, 204);
        assert.deepEqual(await tagsOf(video), [tagJson('Road Trip')]);
        assert.equal((await h.call('GET', `${video}/tags`)).body.total, 1);
      });

      it('GET answers 204 when tagged (any spelling) and 404/5000 when not', async () => {
        const video = await newVideo();
        await putTags(video, ['Sunset']);
        const r = await h.call('GET', `${video}/tags/SUNSET`);
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        expectError(await h.call('GET', `${video}/tags/sunrise`), 404, 5000);
        expectError(await h.call('GET', '/videos/999999/tags/sunset'), 404, 5000);
      });

      it('DELETE takes a tag off (204); taking off a tag that is not there is 204 too', async () => {
        const video = await newVideo();
        await putTags(video, ['a', 'B', 'c']);
        const r = await h.call('DELETE', `${video}/tags/b`, { token: alice.token });
        assert.equal(r.status, 204, r.text);
        assert.deepEqual(await tagsOf(video), [tagJson('a'), tagJson('c')]);
        expectError(await h.call('GET', `${video}/tags/b`), 404, 5000);
        assert.equal((await h.call('DELETE', `${video}/tags/b`, { token: alice.token })).status, 204);
        assert.deepEqual(await tagsOf(video), [tagJson('a'), tagJson('c')]);
        assert.equal((await putTags(video, ['b'])).body.length, 3);
      });

      const invalidWords = ['%20%20', encodeURIComponent('x'.repeat(101)), 'a%2Cb', '%00', 'a%7Fb'];
      for (const word of invalidWords) {
        it(`PUT, GET and DELETE answer 400/2204 naming word for ${word.slice(0, 20)}`, async () => {
          const video = await newVideo();
          for (const method of ['PUT', 'GET', 'DELETE']) {
            expectError(await h.call(method, `${video}/tags/${word}`, { token: alice.token }), 400, 2204, 'word');
          }
          assert.deepEqual(await tagsOf(video), []);
        });
      }

      it('answers 400 naming an unsupported parameter, in the body or the query, and changes nothing', async () => {
        const video = await newVideo();
        await putTags(video, ['here']);
        expectError(await h.call('PUT', `${video}/tags/new`, { token: alice.token, json: { active: true } }), 400, 2204, 'active');
        expectError(await h.call('PUT', `${video}/tags/new?force=1`, { token: alice.token }), 400, 2204, 'force');
        expectError(await h.call('PUT', `${video}/tags/new`, { token: alice.token, json: ['x'] }), 400, 2205);
        expectError(await h.call('DELETE', `${video}/tags/here`, { token: alice.token, form: { really: 'yes' } }), 400, 2204, 'really');
        expectError(await h.call('GET', `${video}/tags/here?page=2`), 400, 2204, 'page');
        assert.deepEqual(await tagsOf(video), [tagJson('here')]);
        assert.equal((await h.call('PUT', `${video}/tags/new?fields=uri`, { token: alice.token, json: {} })).status, 204);
      });

      it('PUT and DELETE are owner-only (403), need edit (403) and a user (401); 404 for missing or hidden videos', async () => {
        const video = await newVideo();
        const hidden = await newVideo({ privacy: { view: 'disable' } });
        await putTags(video, ['keep']);
        for (const method of ['PUT', 'DELETE']) {
          expectError(await h.call(method, `${video}/tags/keep`, { token: bob.token }), 403, 3200);
          expectError(await h.call(method, `${video}/tags/keep`, { token: noEdit.token }), 403, 3200);
          expectError(await h.call(method, `${video}/tags/keep`), 401, 8003);
          expectError(await h.call(method, '/videos/999999/tags/keep', { token: alice.token }), 404, 5000);
          expectError(await h.call(method, `${hidden}/tags/keep`, { token: bob.token }), 404, 5000);
        }
        assert.deepEqual(await tagsOf(video), [tagJson('keep')]);
      });
    });

    describe('GET /videos/{video_id}/tags', () => {
      it('lists the tags in the order added, in the list envelope', async () => {
        const video = await newVideo();
        await putTags(video, ['b', 'a']);
        await h.call('PUT', `${video}/tags/C`, { token: alice.token });
        const r = await h.call('GET', `${video}/tags`);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.tag+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.equal(r.body.page, 1);
        assert.equal(r.body.paging.next, null);
        assert.deepEqual(r.body.data.map(trimTag), [tagJson('b'), tagJson('a'), tagJson('C')]);
        assert.deepEqual((await h.call('GET', `${video}/tags?fields=canonical`)).body.data, [{ canonical: 'b' }, { canonical: 'a' }, { canonical: 'c' }]);
        expectError(await h.call('GET', '/videos/999999/tags'), 404, 5000);
      });

      it('needs the password of a password video, unless owner', async () => {
        const video = await newVideo({ privacy: { view: 'password' }, password: 'pw' });
        await putTags(video, ['secret']);
        expectError(await h.call('GET', `${video}/tags`, { token: bob.token }), 403, 3200);
        expectError(await h.call('GET', `${video}/tags/secret`, { token: bob.token }), 403, 3200);
        assert.equal((await h.call('GET', `${video}/tags?password=pw`, { token: bob.token })).body.total, 1);
        assert.equal((await h.call('GET', `${video}/tags/secret?password=pw`)).status, 204);
        assert.equal((await h.call('GET', `${video}/tags`, { token: alice.token })).body.total, 1);
      });
    });

    describe('GET /tags/{word} and /tags/{word}/videos', () => {
      let ids: Record<string, string>;
      before(async () => {
        ids = {};
        const seed: [string, number, string, string[]][] = [
          ['Beta', 30, 'a dusk walk', ['Dusk', 'city']],
          ['alpha', 90, '', ['dusk']],
          ['Gamma', 60, 'dusk again', ['DUSK']],
          ['Delta', 10, '', ['city']],
        ];
        for (const [name, duration, description, tags] of seed) {
          h.clock.advance(60);
          const video = await newVideo({ name, description });
          await h.service.store.update('videos', video.split('/').pop()!, { duration });
          await putTags(video, tags);
          ids[name] = video;
        }
        const hidden = await newVideo({ name: 'Hidden', privacy: { view: 'nobody' } });
        await putTags(hidden, ['dusk']);
        ids.Hidden = hidden;
      });

      it('GET /tags/{word} answers the Tag with its first spelling and the videos the caller may see', async () => {
        const r = await h.call('GET', '/tags/DUSK');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.tag+json;version=3.4');
        assert.deepEqual(trimTag(r.body), tagJson('Dusk'));
        assert.deepEqual(r.body.metadata.connections.videos, { uri: '/tags/dusk/videos', options: ['GET'], total: 3 });
        assert.equal((await h.call('GET', '/tags/dusk', { token: alice.token })).body.metadata.connections.videos.total, 4);
        assert.equal((await h.call('GET', '/tags/%20City%20')).body.metadata.connections.videos.total, 2);
        const v31 = await h.call('GET', '/tags/dusk', { version: '3.1' });
        assert.equal(v31.body.metadata, undefined);
        assert.equal(v31.headers.get('content-type'), 'application/json');
        expectError(await h.call('GET', '/tags/never-used'), 404, 5000);
        expectError(await h.call('GET', '/tags/%20'), 400, 2204, 'word');
      });

      it('GET /tags/{word}/videos lists the visible videos, newest first by default', async () => {
        const r = await h.call('GET', '/tags/dusk/videos');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(names(r), ['Gamma', 'alpha', 'Beta']);
        assert.equal(r.body.data[0].uri, ids.Gamma);
        assert.deepEqual(r.body.data[0].tags.map(trimTag), [tagJson('DUSK', 'dusk')]);
        const owner = await h.call('GET', '/tags/dusk/videos', { token: alice.token });
        assert.deepEqual(names(owner), ['Hidden', 'Gamma', 'alpha', 'Beta']);
        assert.equal(owner.body.total, 4);
      });

      it('sorts by created_time, duration and name with direction', async () => {
        const list = async (q: string) => names(await h.call('GET', `/tags/dusk/videos?${q}`));
        assert.deepEqual(await list('sort=created_time'), ['Gamma', 'alpha', 'Beta']);
        assert.deepEqual(await list('sort=created_time&direction=asc'), ['Beta', 'alpha', 'Gamma']);
        assert.deepEqual(await list('sort=duration'), ['alpha', 'Gamma', 'Beta']);
        assert.deepEqual(await list('sort=duration&direction=asc'), ['Beta', 'Gamma', 'alpha']);
        assert.deepEqual(await list('sort=name'), ['alpha', 'Beta', 'Gamma']);
        assert.deepEqual(await list('sort=name&direction=desc'), ['Gamma', 'Beta', 'alpha']);
      });

      it('searches name, tags and description, and pages with a true total', async () => {
        // Every video on the tag carries the word in its tags, so all three match.
        const q = await h.call('GET', '/tags/dusk/videos?query=DUSK&sort=name');
        assert.deepEqual(names(q), ['alpha', 'Beta', 'Gamma']);
        assert.equal(q.body.total, 3);
        const p = await h.call('GET', '/tags/dusk/videos?sort=name&per_page=2&page=2');
        assert.deepEqual(names(p), ['Gamma']);
        assert.equal(p.body.total, 3);
        assert.equal(p.body.paging.next, null);
        assert.equal(p.body.paging.previous, '/tags/dusk/videos?sort=name&per_page=2&page=1');
      });

      it('answers 404 for an unknown tag and 400 naming a bad parameter', async () => {
        expectError(await h.call('GET', '/tags/never-used/videos'), 404, 5000);
        expectError(await h.call('GET', '/tags/dusk/videos?sort=plays'), 400, 2204, 'sort');
        expectError(await h.call('GET', '/tags/dusk/videos?direction=up'), 400, 2204, 'direction');
        expectError(await h.call('GET', '/tags/dusk/videos?per_page=101'), 400, 2204, 'per_page');
        expectError(await h.call('GET', '/tags/dusk/videos?page=0'), 400, 2204, 'page');
      });

      it('follows tags taken off and videos deleted', async () => {
        await h.call('DELETE', `${ids.Beta}/tags/dusk`, { token: alice.token });
        assert.deepEqual(names(await h.call('GET', '/tags/dusk/videos')), ['Gamma', 'alpha']);
        assert.equal((await h.call('DELETE', ids.alpha, { token: alice.token })).status, 204);
        const r = await h.call('GET', '/tags/dusk/videos');
        assert.deepEqual(names(r), ['Gamma']);
        assert.equal((await h.call('GET', '/tags/dusk')).body.metadata.connections.videos.total, 1);
        assert.equal((await h.call('GET', '/tags/dusk')).status, 200);
      });
    });

    describe('privacy.view × viewer', () => {
      it('decides what each viewer reads and lists through every tag endpoint', async () => {
        const m = await seedPrivacyMatrix(h, 'Tags');
        for (const view of views) {
          const r = await h.call('PUT', `/videos/${m.videos[view]}/tags`, { token: m.owner.token, json: ['matrix'] });
          assert.equal(r.status, 200, r.text);
        }
        for (const viewer of viewers) {
          const token = m.tokens[viewer];
          const listed = await h.call('GET', '/tags/matrix/videos?sort=name&per_page=100', { token });
          const expected = [...listedFor[viewer]].sort();
          assert.deepEqual(names(listed), expected, viewer);
          assert.equal(listed.body.total, expected.length, viewer);
          assert.equal((await h.call('GET', '/tags/matrix', { token })).body.metadata.connections.videos.total, expected.length, viewer);
          for (const view of views) {
            const status = readStatus(viewer, view);
            const list = await h.call('GET', `/videos/${m.videos[view]}/tags`, { token });
            assert.equal(list.status, status, `${viewer} lists the tags of a ${view} video: ${list.text}`);
            const check = await h.call('GET', `/videos/${m.videos[view]}/tags/matrix`, { token });
            assert.equal(check.status, status === 200 ? 204 : status, `${viewer} checks a tag of a ${view} video`);
          }
        }
        const withPassword = await h.call('GET', `/videos/${m.videos.password}/tags?password=${encodeURIComponent(matrixPassword)}`, { token: m.tokens.stranger });
        assert.equal(withPassword.body.total, 1);
      });
    });
  });
}
