import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { addPageVideo, createPage, film, publishedPage, series } from '../src/ondemand';

for (const driver of drivers) {
  describe(`On Demand page videos, seasons and likes (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const put = (pageId: string, videoId: string, json: Record<string, unknown>, who: Fixture = alice, version?: string) =>
      h.call('PUT', `/ondemand/pages/${pageId}/videos/${videoId}`, { token: who.token, json, version });
    /** The page's video counts: all, main, extra (3.4 page representation). */
    const counts = async (pageId: string) => {
      const videos = (await h.call('GET', `/ondemand/pages/${pageId}`, { token: alice.token })).body.metadata.connections.metadata.connections.videos;
      return { total: videos.total, main: videos.main_total, extra: videos.extra_total };
    };
    /** The prices of each video on the page, as listed to its owner. */
    const listedPrices = async (pageId: string) => {
      const r = await h.call('GET', `/ondemand/pages/${pageId}/videos`, { token: alice.token });
      assert.equal(r.status, 200, r.text);
      type Listed = { uri: string; ondemand: { buy: { price: object }; rent: { price: object } } };
      return Object.fromEntries(r.body.data.map((v: Listed) => [v.uri.split('/').pop(), { buy: v.ondemand.buy.price, rent: v.ondemand.rent.price }]));
    };
    const listed = async (path: string, who: Fixture | null = alice) => {
      const r = await h.call('GET', path, { token: who?.token });
      assert.equal(r.status, 200, r.text);
      return r.body.data.map((v: { uri: string }) => v.uri.split('/').pop());
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('PUT', () => {
      it('answers 200 with the Clip and the page’s details about it; counts it by type', async () => {
        const pageId = await createPage(h, alice);
        const videoId = await h.video(alice, { name: 'Feature' });
        const r = await put(pageId, videoId, { type: 'main', release_year: 2024 });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.uri, `/videos/${videoId}`);
        assert.equal(r.body.name, 'Feature');
        assert.deepEqual(r.body.ondemand, {
          type: 'main',
          position: 1,
          release_year: 2024,
          season: null,
          buy: { price: {} },
          rent: { price: {} },
          added_time: '2026-01-02T03:04:05+00:00',
        });
        assert.deepEqual(await counts(pageId), { total: 1, main: 1, extra: 0 });
        const extra = await h.video(alice);
        assert.equal((await put(pageId, extra, { type: 'extra' })).body.ondemand.position, 2);
        const trailer = await h.video(alice);
        assert.equal((await put(pageId, trailer, { type: 'trailer', position: 0.5 })).body.ondemand.position, 0.5);
        assert.deepEqual(await counts(pageId), { total: 3, main: 1, extra: 1 });
        assert.deepEqual(await listed(`/ondemand/pages/${pageId}/videos`), [trailer, videoId, extra]);
      });

      it('answers the On Demand Video representation before 3.4', async () => {
        const pageId = await createPage(h, alice);
        const videoId = await h.video(alice);
        const r = await put(pageId, videoId, { type: 'extra' }, alice, '3.3');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.video+json;version=3.3');
        assert.equal(r.body.uri, `/ondemand/pages/${pageId}/videos/${videoId}`);
        assert.equal(r.body.type, 'extra');
        assert.equal(r.body.video.uri, `/videos/${videoId}`);
        const get = await h.call('GET', `/ondemand/pages/${pageId}/videos/${videoId}`, { token: alice.token, version: '3.3' });
        assert.deepEqual(get.body, r.body);
      });

      it('PUT again changes how the video is on the page, and the counts follow', async () => {
        const pageId = await createPage(h, alice);
        const videoId = await addPageVideo(h, alice, pageId, { type: 'main' });
        const r = await put(pageId, videoId, { type: 'extra', position: 7 });
        assert.equal(r.body.ondemand.type, 'extra');
        assert.equal(r.body.ondemand.position, 7);
        assert.deepEqual(await counts(pageId), { total: 1, main: 0, extra: 1 });
      });

      const invalid: [string, Record<string, unknown>, string][] = [
        ['type is required', {}, 'type'],
        ['type is extra, main or trailer', { type: 'bonus' }, 'type'],
        ['release_year is an integer', { type: 'extra', release_year: 'soon' }, 'release_year'],
        ['position is a number', { type: 'extra', position: 'first' }, 'position'],
        ['seasons are for series', { type: 'main', season: 1 }, 'season'],
        ['prices are in listed currencies', { type: 'main', rent: { price: { USD: 1, XYZ: 1 } } }, 'rent.price.XYZ'],
      ];
      for (const [rule, body, field] of invalid) {
        it(`400 naming ${field}: ${rule}`, async () => {
          const pageId = await createPage(h, alice);
          expectError(await put(pageId, await h.video(alice), body), 400, 2204, field);
          assert.deepEqual(await counts(pageId), { total: 0, main: 0, extra: 0 });
        });
      }

      it('400 for a second trailer, a second main video of a film, or missing episode prices', async () => {
        const pageId = await createPage(h, alice);
        await addPageVideo(h, alice, pageId, { type: 'trailer' });
        await addPageVideo(h, alice, pageId, { type: 'main' });
        expectError(await put(pageId, await h.video(alice), { type: 'trailer' }), 400, 2204, 'type');
        expectError(await put(pageId, await h.video(alice), { type: 'main' }), 400, 2204, 'type');
        const show = await createPage(h, alice, series({ episodes: { buy: { active: true, price: { USD: 2 } }, rent: { active: true, period: '24 hour', price: { USD: 1 } } } }));
        const episode = await h.video(alice);
        expectError(await put(show, episode, { type: 'main', rent: { price: { USD: 1 } } }), 400, 2204, 'buy.price.USD');
        expectError(await put(show, episode, { type: 'main', buy: { price: { USD: 2 } } }), 400, 2204, 'rent.price.USD');
        const r = await put(show, episode, { type: 'main', buy: { price: { USD: 2, EUR: 1.5 } }, rent: { price: { USD: 1 } } });
        assert.equal(r.status, 200);
        assert.deepEqual(r.body.ondemand.buy, { price: { USD: 2, EUR: 1.5 } });
        assert.equal((await put(show, episode, { type: 'main', position: 3 })).status, 200, 'prices already given stay');
        const extra = await h.video(alice);
        expectError(await put(show, extra, { type: 'extra', rent: { price: { EUR: 1 } } }), 400, 2204, 'rent.price.USD');
        assert.deepEqual((await put(show, extra, { type: 'extra', rent: { price: { USD: 1 } } })).body.ondemand.rent, { price: { USD: 1 } }, 'an extra’s prices, beside the series’ rental');
      });

      // Issue 22 (item 4): SPEC.md takes buy.price.<CUR> and rent.price.<CUR> on every page video.
      it('takes, stores and answers back prices of a film page’s videos; USD among them while the page sells that way', async () => {
        const pageId = await createPage(h, alice, film({ name: 'Priced film', rent: { active: true, period: '24 hour', price: { USD: 3 } } }));
        const main = await h.video(alice);
        let r = await put(pageId, main, { type: 'main', buy: { price: { USD: 12, EUR: 11 } }, rent: { price: { USD: 4 } } });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual([r.body.ondemand.buy, r.body.ondemand.rent], [{ price: { USD: 12, EUR: 11 } }, { price: { USD: 4 } }]);
        const got = await h.call('GET', `/ondemand/pages/${pageId}/videos/${main}`, { token: alice.token });
        assert.deepEqual([got.body.ondemand.buy, got.body.ondemand.rent], [{ price: { USD: 12, EUR: 11 } }, { price: { USD: 4 } }]);
        const v33 = await h.call('GET', `/ondemand/pages/${pageId}/videos/${main}`, { token: alice.token, version: '3.3' });
        assert.deepEqual(v33.body.buy, { price: { USD: 12, EUR: 11 } }, 'the On Demand Video representation before 3.4');
        r = await put(pageId, main, { type: 'main', position: 2 });
        assert.deepEqual(r.body.ondemand.buy, { price: { USD: 12, EUR: 11 } }, 'prices already given stay');
        expectError(await put(pageId, main, { type: 'main', buy: { price: { EUR: 10 } } }), 400, 2204, 'buy.price.USD');
        expectError(await put(pageId, main, { type: 'main', rent: { price: { GBP: 2 } } }), 400, 2204, 'rent.price.USD');
        expectError(await put(pageId, main, { type: 'main', buy: { price: { USD: 5, XYZ: 1 } } }), 400, 2204, 'buy.price.XYZ');
        assert.deepEqual((await listedPrices(pageId))[main], { buy: { USD: 12, EUR: 11 }, rent: { USD: 4 } }, 'refused prices changed nothing');
        const trailer = await h.video(alice);
        r = await put(pageId, trailer, { type: 'trailer', buy: { price: { USD: 1 } } });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.ondemand.buy, { price: { USD: 1 } }, 'any video of the page may carry prices');
        const unpriced = await h.video(alice);
        assert.equal((await put(pageId, unpriced, { type: 'extra' })).status, 200, 'or none');
        const rentless = await createPage(h, alice, film({ name: 'Bought only' }));
        r = await put(rentless, await h.video(alice), { type: 'main', buy: { price: { USD: 9 } }, rent: { price: { EUR: 2 } } });
        assert.equal(r.status, 200, 'no USD needed for a way the page does not sell');
        assert.deepEqual(r.body.ondemand.rent, { price: { EUR: 2 } });
      });

      it('400 when the video cannot be added: another user’s, or on another page', async () => {
        const pageId = await createPage(h, alice);
        expectError(await put(pageId, await h.video(bob), { type: 'extra' }), 400, 2204);
        const elsewhere = await createPage(h, alice);
        const videoId = await addPageVideo(h, alice, elsewhere, { type: 'extra' });
        expectError(await put(pageId, videoId, { type: 'extra' }), 400, 2204);
        assert.deepEqual(await counts(pageId), { total: 0, main: 0, extra: 0 });
      });

      it('404 for a missing video or page, 403 on another user’s page, 403 without the edit scope', async () => {
        const pageId = await publishedPage(h, alice);
        expectError(await put(pageId, '999999', { type: 'extra' }), 404, 5000);
        expectError(await put('999999', await h.video(alice), { type: 'extra' }), 404, 5000);
        expectError(await put(pageId, await h.video(bob), { type: 'extra' }, bob), 403, 3200);
        const reader = await h.user('Reader', 'public,upload');
        expectError(await put(pageId, await h.video(alice), { type: 'extra' }, reader), 403, 3200);
        assert.deepEqual(await counts(pageId), { total: 1, main: 1, extra: 0 });
      });
    });

    describe('GET and DELETE one, list', () => {
      it('GET answers the Clip of a video on the page; 404 when not on it or hidden', async () => {
        const pageId = await publishedPage(h, alice);
        const [mainId] = await listed(`/ondemand/pages/${pageId}/videos`);
        const r = await h.call('GET', `/ondemand/pages/${pageId}/videos/${mainId}`, { token: bob.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.video+json;version=3.4');
        assert.equal(r.body.uri, `/videos/${mainId}`);
        assert.equal(r.body.ondemand.type, 'main');
        expectError(await h.call('GET', `/ondemand/pages/${pageId}/videos/${await h.video(alice)}`), 404, 5000);
        expectError(await h.call('GET', `/ondemand/pages/999999/videos/${mainId}`), 404, 5000);
        const hidden = await addPageVideo(h, alice, pageId, { type: 'extra' });
        await h.call('PATCH', `/videos/${hidden}`, { token: alice.token, json: { privacy: { view: 'nobody' } } });
        expectError(await h.call('GET', `/ondemand/pages/${pageId}/videos/${hidden}`, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', `/ondemand/pages/${pageId}/videos/${hidden}`, { token: alice.token })).status, 200);
        const draft = await createPage(h, alice);
        const onDraft = await addPageVideo(h, alice, draft, { type: 'extra' });
        expectError(await h.call('GET', `/ondemand/pages/${draft}/videos/${onDraft}`, { token: bob.token }), 404, 5000);
      });

      it('lists in the page’s order, by type with filter, newest first with sort=date, hiding what the caller may not see', async () => {
        const pageId = await createPage(h, alice);
        const main = await addPageVideo(h, alice, pageId, { type: 'main' });
        h.clock.advance(1);
        const extra = await addPageVideo(h, alice, pageId, { type: 'extra' });
        h.clock.advance(1);
        const trailer = await addPageVideo(h, alice, pageId, { type: 'trailer', position: 0 });
        h.clock.advance(1);
        const secret = await addPageVideo(h, alice, pageId, { type: 'extra' });
        await h.call('PATCH', `/videos/${secret}`, { token: alice.token, json: { privacy: { view: 'nobody' } } });
        await h.call('PATCH', `/ondemand/pages/${pageId}`, { token: alice.token, json: { link: 'listed-page' } });
        assert.deepEqual(await listed(`/ondemand/pages/${pageId}/videos`), [trailer, main, extra, secret]);
        assert.deepEqual(await listed(`/ondemand/pages/${pageId}/videos?filter=extra`), [extra, secret]);
        assert.deepEqual(await listed(`/ondemand/pages/${pageId}/videos?sort=date`), [secret, trailer, extra, main]);
        await h.call('PUT', `/ondemand/pages/${pageId}/genres/drama`, { token: alice.token });
        await h.call('PATCH', `/ondemand/pages/${pageId}`, { token: alice.token, json: { publish: { active: true } } });
        const r = await h.call('GET', `/ondemand/pages/${pageId}/videos`, { token: bob.token });
        assert.equal(r.body.total, 3, 'the total counts only what bob may see');
        assert.deepEqual(await listed(`/ondemand/pages/${pageId}/videos?filter=main`, null), [main]);
        expectError(await h.call('GET', `/ondemand/pages/${pageId}/videos?filter=bonus`), 400, 2204, 'filter');
      });

      it('DELETE answers 204, keeps the video, and the counts follow; 404 when not on the page; 403 for others', async () => {
        const pageId = await publishedPage(h, alice);
        const extra = await addPageVideo(h, alice, pageId, { type: 'extra' });
        assert.deepEqual(await counts(pageId), { total: 2, main: 1, extra: 1 });
        expectError(await h.call('DELETE', `/ondemand/pages/${pageId}/videos/${extra}`, { token: bob.token }), 403, 3200);
        const r = await h.call('DELETE', `/ondemand/pages/${pageId}/videos/${extra}`, { token: alice.token });
        assert.equal(r.status, 204);
        assert.deepEqual(await counts(pageId), { total: 1, main: 1, extra: 0 });
        assert.equal((await h.call('GET', `/videos/${extra}`, { token: alice.token })).status, 200);
        expectError(await h.call('DELETE', `/ondemand/pages/${pageId}/videos/${extra}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', `/ondemand/pages/999999/videos/${extra}`, { token: alice.token }), 404, 5000);
      });

      it('deleting a video takes it off its page with exact counts', async () => {
        const pageId = await createPage(h, alice, series());
        const episode = await addPageVideo(h, alice, pageId, { type: 'main', season: 2 });
        await addPageVideo(h, alice, pageId, { type: 'extra' });
        assert.equal((await h.call('DELETE', `/videos/${episode}`, { token: alice.token })).status, 204);
        assert.deepEqual(await counts(pageId), { total: 1, main: 0, extra: 1 });
        assert.equal((await h.call('GET', `/ondemand/pages/${pageId}`, { token: alice.token })).body.metadata.connections.seasons.total, 0);
      });
    });

    describe('seasons', () => {
      it('main videos of a series go into seasons (1 by default), which exist while they hold videos', async () => {
        const pageId = await createPage(h, alice, series());
        const e1 = await addPageVideo(h, alice, pageId, { type: 'main' });
        const e2 = await addPageVideo(h, alice, pageId, { type: 'main', season: 2 });
        const e3 = await addPageVideo(h, alice, pageId, { type: 'main', season: 2 });
        await addPageVideo(h, alice, pageId, { type: 'extra' });
        expectError(await put(pageId, await h.video(alice), { type: 'extra', season: 1 }), 400, 2204, 'season');
        const list = await h.call('GET', `/ondemand/pages/${pageId}/seasons`, { token: alice.token });
        assert.equal(list.status, 200);
        assert.equal(list.headers.get('content-type'), 'application/vnd.reelbase.ondemand.season+json;version=3.4');
        assert.deepEqual(list.body.data.map((s: { name: string }) => s.name), ['Season 1', 'Season 2']);
        const season2 = list.body.data[1];
        assert.equal(season2.position, 2);
        assert.equal(season2.metadata.connections.videos.total, 2);
        const one = await h.call('GET', season2.uri, { token: alice.token });
        assert.equal(one.status, 200);
        assert.deepEqual(one.body, season2);
        assert.deepEqual(await listed(`${season2.uri}/videos`), [e2, e3]);
        const clip = (await h.call('GET', `/ondemand/pages/${pageId}/videos/${e2}`, { token: alice.token })).body;
        assert.deepEqual(clip.ondemand.season, { uri: season2.uri, name: 'Season 2' });
        assert.equal((await h.call('GET', `/ondemand/pages/${pageId}`, { token: alice.token })).body.metadata.connections.seasons.total, 2);
        // Moving the first episode to season 2 empties season 1, which goes.
        const moved = await put(pageId, e1, { type: 'main', season: 2 });
        assert.equal(moved.body.ondemand.season.uri, season2.uri);
        const after = (await h.call('GET', `/ondemand/pages/${pageId}/seasons`, { token: alice.token })).body;
        assert.deepEqual(after.data.map((s: { name: string; metadata: { connections: { videos: { total: number } } } }) => [s.name, s.metadata.connections.videos.total]), [['Season 2', 3]]);
        assert.equal((await h.call('GET', `/ondemand/pages/${pageId}`, { token: alice.token })).body.metadata.connections.seasons.total, 1);
        expectError(await h.call('GET', list.body.data[0].uri, { token: alice.token }), 404, 5000);
      });

      it('404 for a season of another page, an unknown season, or a missing page', async () => {
        const pageId = await createPage(h, alice, series());
        await addPageVideo(h, alice, pageId, { type: 'main' });
        const [season] = (await h.call('GET', `/ondemand/pages/${pageId}/seasons`, { token: alice.token })).body.data;
        const other = await createPage(h, alice, series());
        expectError(await h.call('GET', season.uri.replace(`/pages/${pageId}/`, `/pages/${other}/`), { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `/ondemand/pages/${pageId}/seasons/999999`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', `/ondemand/pages/999999/seasons/1`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', season.uri, { token: bob.token }), 404, 5000);
      });
    });

    describe('GET /ondemand/pages/{id}/likes', () => {
      it('lists each user who liked a video of the page once; filter by type, sort, query; likes of hidden videos do not count', async () => {
        const pageId = await publishedPage(h, alice);
        const [main] = await listed(`/ondemand/pages/${pageId}/videos`);
        const trailer = await addPageVideo(h, alice, pageId, { type: 'trailer' });
        const hidden = await addPageVideo(h, alice, pageId, { type: 'extra' });
        h.clock.advance(10);
        const zed = await h.user('Zed');
        h.clock.advance(10);
        const amy = await h.user('Amy');
        const like = async (who: Fixture, videoId: string) => {
          const r = await h.call('PUT', `/me/likes/${videoId}`, { token: who.token });
          assert.equal(r.status, 204, r.text);
        };
        await like(zed, main);
        await like(zed, trailer);
        await like(amy, trailer);
        await like(bob, hidden);
        await h.call('PATCH', `/videos/${hidden}`, { token: alice.token, json: { privacy: { view: 'nobody' } } });
        const names = async (query: string, who: Fixture | null = null) => {
          const r = await h.call('GET', `/ondemand/pages/${pageId}/likes${query}`, { token: who?.token });
          assert.equal(r.status, 200, r.text);
          return r.body.data.map((u: { name: string }) => u.name);
        };
        const r = await h.call('GET', `/ondemand/pages/${pageId}/likes`);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.user+json;version=3.4');
        assert.equal(r.body.total, 2);
        assert.deepEqual(await names(''), ['Amy', 'Zed'], 'newest members first');
        assert.deepEqual(await names('?sort=alphabetical&direction=desc'), ['Zed', 'Amy']);
        assert.deepEqual(await names('?filter=main'), ['Zed']);
        assert.deepEqual(await names('?filter=trailer&sort=alphabetical'), ['Amy', 'Zed']);
        assert.deepEqual(await names('?query=ze'), ['Zed']);
        assert.deepEqual(await names('?filter=extra'), []);
        assert.deepEqual(await names('?filter=extra', alice), ['Bob'], 'the owner sees likes of the hidden video');
        expectError(await h.call('GET', `/ondemand/pages/${pageId}/likes?sort=plays`), 400, 2204, 'sort');
        expectError(await h.call('GET', '/ondemand/pages/999999/likes'), 404, 5000);
      });
    });
  });
}
