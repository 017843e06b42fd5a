import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, fillTagNames, type Store } from '@reelbase/core';
import { addVideo, createChannel } from '../src/channels';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

const names = (r: Answer): string[] => r.body.data.map((v: { name: string }) => v.name);

/**
 * Search (issue 38, docs/search.md): `GET /videos?query=` and every list's `query` answer from the
 * store's index with the same semantics on every driver — case and accents ignored, every word
 * needed and matched as a prefix, "quoted" phrases, -exclusions, name > tags > description — and
 * never show or count what the caller could not list.
 */
for (const driver of drivers) {
  describe(`search (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const id: Record<string, string> = {};
    const search = (query: string, token?: string) => h.call('GET', `/videos?${query}`, { token });
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      const videos: [string, Record<string, unknown>, string[]][] = [
        ['Café crème', { description: 'A morning in Lyon' }, []],
        ['Documentary night', { description: 'About the sea' }, []],
        ['Harbour', { description: 'Boats and a documentary crew' }, []],
        ['Sunset walk', { description: 'Beach' }, ['documentary']],
        ['The red car', { description: 'Fast' }, ['roadster']],
        ['Car painted red', { description: 'Slow' }, []],
        ['Secret documentary', { description: 'Private', privacy: { view: 'nobody' } }, []],
      ];
      for (const [name, json, tags] of videos) {
        h.clock.advance(3600);
        id[name] = await h.video(alice, { name, ...json });
        if (tags.length) assert.equal((await h.call('PUT', `/videos/${id[name]}/tags`, { token: alice.token, json: tags })).status, 200);
      }
    });
    after(() => h.stop());

    describe('GET /videos?query=', () => {
      const cases: [string, string, string[]][] = [
        ['ignores accents and case in what is stored', 'CAFE', ['Café crème']],
        ['ignores accents typed into the query', 'crème', ['Café crème']],
        ['matches a word by its beginning', 'harb', ['Harbour']],
        ['needs every word, in any order', 'red car', ['The red car', 'Car painted red']],
        ['matches a "quoted phrase" in order', '"red car"', ['The red car']],
        ['excludes a -word', 'car -painted', ['The red car']],
        ['finds a video by its tags', 'roadster', ['The red car']],
        ['stems an English ending off a word', 'documentaries', ['Documentary night', 'Harbour', 'Sunset walk']],
        ['never stems a quoted word', '"documentaries"', []],
        ['finds nothing for an unknown word', 'zebra', []],
      ];
      for (const [label, query, expected] of cases) {
        it(`${label}: ${JSON.stringify(query)}`, async () => {
          const r = await search(`query=${encodeURIComponent(query)}&sort=alphabetical&direction=desc`);
          assert.equal(r.status, 200, r.text);
          assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
          assert.deepEqual(names(r).sort(), [...expected].sort());
          assert.equal(r.body.total, expected.length);
        });
      }

      it('ranks by relevance by default: a name match, then a tag match, then a description match', async () => {
        const r = await search('query=documentary');
        assert.deepEqual(names(r), ['Documentary night', 'Sunset walk', 'Harbour']);
        assert.deepEqual(names(await search('query=documentary&sort=relevant&direction=asc')), ['Harbour', 'Sunset walk', 'Documentary night']);
      });

      it('never shows nor counts a video the caller may not list; its owner finds it', async () => {
        for (const token of [undefined, bob.token]) {
          const r = await search('query=secret', token);
          assert.equal(r.body.total, 0);
          assert.equal((await search('query=documentary', token)).body.total, 3);
        }
        assert.deepEqual(names(await search('query=documentary&sort=alphabetical', alice.token)), ['Documentary night', 'Harbour', 'Secret documentary', 'Sunset walk']);
        assert.equal((await search('query=documentary', alice.token)).body.total, 4);
      });

      it('sorts by the other keys, keeping the query as a filter, and pages', async () => {
        assert.deepEqual(names(await search('query=documentary&sort=date')), ['Sunset walk', 'Harbour', 'Documentary night']);
        assert.deepEqual(names(await search('query=documentary&sort=date&direction=asc')), ['Documentary night', 'Harbour', 'Sunset walk']);
        await h.service.store.update('videos', id['Harbour'], { plays: 50, likes_total: 3, comments_total: 2, duration: 400 });
        for (const sort of ['plays', 'likes', 'comments', 'duration']) assert.equal(names(await search(`query=documentary&sort=${sort}`))[0], 'Harbour', sort);
        const page = await search('query=documentary&sort=alphabetical&per_page=1&page=2&fields=name');
        assert.deepEqual(page.body.data, [{ name: 'Harbour' }]);
        assert.equal(page.body.total, 3);
        assert.equal(page.body.paging.next, '/videos?query=documentary&sort=alphabetical&per_page=1&page=3&fields=name');
      });

      it('filters by duration, likes, upload date and categories', async () => {
        await h.service.store.update('videos', id['Documentary night'], { duration: 100, likes_total: 10 });
        await h.service.store.update('videos', id['Sunset walk'], { duration: 20, likes_total: 0 });
        await h.service.store.update('videos', id['Harbour'], { duration: 400, likes_total: 3 });
        assert.deepEqual(names(await search('query=documentary&filter=duration&min_duration=50&max_duration=200')), ['Documentary night']);
        assert.deepEqual(names(await search('query=documentary&filter=duration&min_duration=50&sort=alphabetical')), ['Documentary night', 'Harbour']);
        assert.deepEqual(names(await search('query=documentary&filter=minimum_likes&min_likes=5')), ['Documentary night']);
        const daysAgo = (days: number) => new Date(h.clock.now().getTime() - days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
        await h.service.store.update('videos', id['Harbour'], { created_time: daysAgo(3) });
        await h.service.store.update('videos', id['Documentary night'], { created_time: daysAgo(400) });
        assert.deepEqual(names(await search('query=documentary&filter=upload_date&filter_upload_date=day')), ['Sunset walk']);
        assert.deepEqual(names(await search('query=documentary&filter=upload_date&filter_upload_date=week&sort=alphabetical')), ['Harbour', 'Sunset walk']);
        assert.equal((await search('query=documentary&filter=upload_date&filter_upload_date=year')).body.total, 2);
        await h.service.store.insert('video_categories', { video_id: id['Harbour'], category: 'travel', created_time: '2026-01-01T00:00:00+00:00' });
        assert.deepEqual(names(await search('query=documentary&filter=categories&filter_categories=travel,music')), ['Harbour']);
      });

      it('answers the first 10,000 results: a page starting past them is 400 naming page; a list without a query pages on', async () => {
        expectError(await search('query=documentary&page=401'), 400, 2204, 'page');
        expectError(await search('query=documentary&per_page=100&page=101'), 400, 2204, 'page');
        const last = await search('query=documentary&per_page=100&page=100');
        assert.equal(last.status, 200, last.text);
        assert.deepEqual([last.body.data, last.body.total], [[], 3]);
        assert.equal((await h.call('GET', `/users/${alice.user.id}/videos?page=401`, { token: alice.token })).status, 200);
      });

      it('counts 1,000 matches exactly and estimates past them, from the share of the ids its walk covered on SQLite', async () => {
        const store = h.service.store;
        const model = (await store.get<{ id: string }>('videos', id['Harbour']))!;
        const { id: _id, ...doc } = model;
        const ids = await store.insertMany('videos', Array.from({ length: 1200 }, (_, i) => ({ ...doc, name: `Lighthouse ${i}`, description: '', tag_names: '' })));
        try {
          const lowest = Number((await store.find('videos', { orderBy: [{ field: 'id', direction: 'asc' }], limit: 1 })).items[0].id);
          const found = await search('query=lighthouse&per_page=1');
          assert.equal(found.status, 200, found.text);
          // SQLite walks the matches in id order to the 1,001st and scales by the share of ids it covered;
          // PostgreSQL counts to the 1,001st and answers its planner's estimate past it; JSON counts them all.
          const covered = (Number(ids[1199]) - lowest + 1) / (Number(ids[1000]) - lowest + 1);
          if (driver.name === 'postgres') assert.ok(found.body.total > 1000, String(found.body.total));
          else assert.equal(found.body.total, driver.name === 'sqlite' ? Math.floor(1001 * covered) : 1200);
          assert.equal(found.body.paging.last, `/videos?query=lighthouse&per_page=1&page=${found.body.total}`);
          // Lighthouse 1, 10–19, 100–199 and 1000–1199: fewer than 1,000, so exact everywhere.
          assert.equal((await search('query=lighthouse%201&per_page=1')).body.total, 311);
        } finally {
          await store.deleteWhere('videos', { field: 'id', op: 'in', values: ids });
        }
      });

      it('answers 400 naming the parameter for a missing query, an unknown sort and a filter without its values', async () => {
        expectError(await search(''), 400, 2204, 'query');
        expectError(await search('query=%20'), 400, 2204, 'query');
        expectError(await search('query=a&sort=manual'), 400, 2204, 'sort');
        expectError(await search('query=a&filter=duration'), 400, 2204, 'min_duration');
        expectError(await search('query=a&filter=minimum_likes'), 400, 2204, 'min_likes');
        expectError(await search('query=a&filter=upload_date&filter_upload_date=decade'), 400, 2204, 'filter_upload_date');
        expectError(await search('query=a&min_likes=3'), 400, 2204, 'min_likes');
        expectError(await search('query=a&filter=categories&filter_categories=,'), 400, 2204, 'filter_categories');
      });
    });

    describe("every list's query", () => {
      it("a user's videos, their albums, users, channels, groups and comments match folded words", async () => {
        assert.deepEqual(names(await h.call('GET', `/users/${alice.user.id}/videos?query=cafe`)), ['Café crème']);
        assert.deepEqual(names(await h.call('GET', `/users/${alice.user.id}/videos?query=documentary&sort=alphabetical`)), ['Documentary night', 'Harbour', 'Sunset walk']);
        assert.equal((await h.call('GET', `/users/${alice.user.id}/videos?query=documentary`, { token: alice.token })).body.total, 4);
        const album = await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Été à Nice', description: 'Holidays' } });
        assert.equal(album.status, 201, album.text);
        assert.deepEqual(names(await h.call('GET', '/me/albums?query=ete', { token: alice.token })), ['Été à Nice']);
        assert.deepEqual(names(await h.call('GET', '/users?query=ALI')), ['Alice']);
        const channel = await h.call('POST', '/channels', { token: alice.token, json: { name: 'Señor films', privacy: 'anybody', description: 'Cinema' } });
        assert.equal(channel.status, 200, channel.text);
        assert.deepEqual(names(await h.call('GET', '/channels?query=senor')), ['Señor films']);
        assert.deepEqual(names(await h.call('GET', '/channels?query=cinema')), ['Señor films']);
        const group = await h.call('POST', '/groups', { token: alice.token, json: { name: 'Crème club', description: 'Desserts' } });
        assert.equal(group.status, 200, group.text);
        assert.deepEqual(names(await h.call('GET', '/groups?query=creme')), ['Crème club']);
        const video = id['Harbour'];
        assert.equal((await h.call('POST', `/videos/${video}/comments`, { token: bob.token, json: { text: 'Très beau' } })).status, 201);
        assert.equal((await h.call('GET', `/videos/${video}/comments?query=tres`)).body.total, 1);
      });
    });

    describe('a search whose words find nothing as written', () => {
      // Names near its words where the store has them (PostgreSQL with pg_trgm: docs/search.md "Typos"); elsewhere nothing.
      const near = (expected: string[]) => (driver.nearMatches ? expected : []);
      const query = (text: string, rest = '') => `query=${encodeURIComponent(text)}${rest}`;
      before(async () => {
        h.clock.advance(3600);
        id['Harbor lights'] = await h.video(alice, { name: 'Harbor lights', description: 'Night ferry' });
      });

      it('finds a video by a misspelt word of its name, and counts it', async () => {
        const r = await search(query('documentery'));
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(names(r), near(['Documentary night']));
        assert.equal(r.body.total, near(['Documentary night']).length);
      });

      it('never shows nor counts a private video matching only by its name being near; its owner finds it', async () => {
        for (const token of [undefined, bob.token]) {
          const secret = await search(query('secrett'), token);
          assert.deepEqual([names(secret), secret.body.total], [[], 0]);
          const typo = await search(query('documentery'), token);
          assert.deepEqual([names(typo), typo.body.total], [near(['Documentary night']), near(['Documentary night']).length]);
        }
        assert.deepEqual(names(await search(query('secrett'), alice.token)), near(['Secret documentary']));
        const own = await search(query('documentery', '&sort=alphabetical'), alice.token);
        assert.deepEqual([names(own), own.body.total], [near(['Documentary night', 'Secret documentary']), near(['Documentary night', 'Secret documentary']).length]);
      });

      it('falls back only when the words find nothing as written: no near names mixed in', async () => {
        // "Harbor lights" is near "harbour" and "Harbour" near "harbor", yet each word finds its own spelling alone.
        assert.deepEqual(names(await search(query('harbour'))), ['Harbour']);
        assert.deepEqual(names(await search(query('harbor'))), ['Harbor lights']);
      });

      it('reads as near only the words that find nothing as written; the others stay as written', async () => {
        // "harbour" and "lights" are each found, never together: no near look, though "Harbor lights" is near both.
        assert.deepEqual(names(await search(query('harbour lights'))), []);
        // "ferry" is found as written (a description), so it stays a word of any field; "harboux" is near a name.
        assert.deepEqual(names(await search(query('harboux ferry'))), near(['Harbor lights']));
      });

      it('ranks near names by nearness, and keeps them a filter under the other sorts', async () => {
        // "harboux" is nearer "Harbour" than "Harbor lights", which is the newer.
        assert.deepEqual(names(await search(query('harboux'))), near(['Harbour', 'Harbor lights']));
        assert.deepEqual(names(await search(query('harboux', '&sort=relevant&direction=asc'))), near(['Harbor lights', 'Harbour']));
        assert.deepEqual(names(await search(query('harboux', '&sort=date'))), near(['Harbor lights', 'Harbour']));
        assert.deepEqual(names(await search(query('harboux', '&sort=alphabetical&direction=desc'))), near(['Harbour', 'Harbor lights']));
      });

      it('still applies exclusions and "phrases" as written', async () => {
        assert.deepEqual(names(await search(query('documentery -night'))), []);
        assert.deepEqual(names(await search(query('harboux -ferry'))), near(['Harbour']));
        assert.deepEqual(names(await search(query('"night ferry" harboux'))), near(['Harbor lights']));
        assert.deepEqual(names(await search(query('"night boat" harboux'))), []);
        assert.deepEqual(names(await search(query('"documentery"'))), []);
      });

      it("in a user's videos and in a channel's, which reads its videos through its rows", async () => {
        assert.deepEqual(names(await h.call('GET', `/users/${alice.user.id}/videos?${query('harboux', '&sort=alphabetical')}`)), near(['Harbor lights', 'Harbour']));
        const channel = await createChannel(h, alice, 'Ports');
        for (const name of ['Harbour', 'Secret documentary']) await addVideo(h, alice, channel, id[name]);
        const list = (text: string, token?: string) => h.call('GET', `/channels/${channel}/videos?${query(text)}`, { token });
        assert.deepEqual(names(await list('harboux')), near(['Harbour']));
        const secret = await list('secrett');
        assert.deepEqual([names(secret), secret.body.total], [[], 0]);
        assert.deepEqual(names(await list('secrett', alice.token)), near(['Secret documentary']));
      });
    });

    describe('a store from before search read tags', () => {
      it("indexes its videos' tags once, in resumable batches, with progress", async () => {
        // As stored before: the tags, without their text.
        await h.service.store.update('videos', id['The red car'], { tag_names: undefined });
        assert.equal((await search('query=roadsters')).body.total, 0);
        const heard: [number, number][] = [];
        assert.equal(await fillTagNames(h.service.store, (done, total) => heard.push([done, total])), 1);
        assert.deepEqual(heard, [[1, 1]]);
        assert.deepEqual(names(await search('query=roadsters')), ['The red car']);
        // Done once: recorded, and no later start reads the videos again.
        assert.equal(((await h.service.store.get('upgrades', 'video-tag-names')) as { id: string } | null)?.id, 'video-tag-names');
        await h.service.store.update('videos', id['The red car'], { tag_names: undefined });
        assert.equal(await fillTagNames(h.service.store), 0);
      });

      it('records a store without videos as upgraded at once', async () => {
        const { store, cleanup } = await driver.open();
        try {
          assert.equal(await store.get('upgrades', 'video-tag-names'), null);
          assert.equal(await fillTagNames(store), 0);
          assert.notEqual(await store.get('upgrades', 'video-tag-names'), null);
        } finally {
          await store.close();
          await cleanup();
        }
      });
    });

    if (!driver.sharedByProcesses) return;

    describe('changes made through another server on the same database', () => {
      let other: Store;
      before(async () => {
        other = await h.reopen!();
      });
      after(() => other.close());

      it('a rename, a tag and a delete made there show in the next search here', async () => {
        const service = createService({ store: other, clock: h.clock.now, config: { rateLimit: null } });
        const there = (method: string, url: string, body?: unknown) =>
          service.handle(alice.token, { method, url, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
        const video = await h.video(alice, { name: 'Glacier' });
        for (let i = 0; i < 2; i++) assert.deepEqual(names(await search('query=glacier')), ['Glacier']);
        assert.equal((await there('PATCH', `/videos/${video}`, { name: 'Volcano' })).status, 200);
        assert.deepEqual(names(await search('query=glacier')), []);
        assert.deepEqual(names(await search('query=volcano')), ['Volcano']);
        assert.equal((await there('PUT', `/videos/${video}/tags`, ['lava'])).status, 200);
        assert.deepEqual(names(await search('query=lava')), ['Volcano']);
        assert.equal((await there('DELETE', `/videos/${video}`)).status, 204);
        assert.deepEqual(names(await search('query=volcano')), []);
      });
    });
  });
}
