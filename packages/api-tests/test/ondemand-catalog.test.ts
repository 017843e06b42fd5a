import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { addGenre, addPageVideo, createPage, film, publishedPage, readyPage, series } from '../src/ondemand';

for (const driver of drivers) {
  describe(`On Demand genres and regions (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const genresOf = async (id: string): Promise<string[]> =>
      (await h.call('GET', `/ondemand/pages/${id}`, { token: alice.token })).body.genres.map((g: { canonical: string }) => g.canonical);
    const regionsOf = async (id: string): Promise<string[]> =>
      (await h.call('GET', `/ondemand/pages/${id}/regions`, { token: alice.token })).body.data.map((r: { country_code: string }) => r.country_code);
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob', 'all', { location: 'Berlin, Germany' });
    });
    after(() => h.stop());

    describe('genres', () => {
      it('GET /ondemand/genres lists the built-in genres', async () => {
        const r = await h.call('GET', '/ondemand/genres?per_page=100');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.genre+json;version=3.4');
        assert.equal(r.body.total, 20);
        const drama = r.body.data.find((g: { canonical: string }) => g.canonical === 'drama');
        assert.deepEqual(drama.metadata, { connections: { pages: { uri: '/ondemand/genres/drama/pages', options: ['GET'] } } });
        assert.equal(drama.uri, '/ondemand/genres/drama');
        assert.equal(drama.name, 'Drama');
        const one = await h.call('GET', '/ondemand/genres/Drama');
        assert.deepEqual(one.body, drama);
        expectError(await h.call('GET', '/ondemand/genres/polka'), 404, 5000);
      });

      it('PUT answers 201 with the Genre; the page holds at most two, and PUT of one it has changes nothing', async () => {
        const id = await createPage(h, alice);
        const r = await h.call('PUT', `/ondemand/pages/${id}/genres/comedy`, { token: alice.token });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.genre+json;version=3.4');
        assert.equal(r.body.uri, '/ondemand/genres/comedy');
        assert.equal((await h.call('PUT', `/ondemand/pages/${id}/genres/comedy`, { token: alice.token })).status, 201);
        await addGenre(h, alice, id, 'horror');
        assert.deepEqual(await genresOf(id), ['comedy', 'horror']);
        expectError(await h.call('PUT', `/ondemand/pages/${id}/genres/drama`, { token: alice.token }), 400, 2204);
        assert.equal((await h.call('PUT', `/ondemand/pages/${id}/genres/horror`, { token: alice.token })).status, 201, 'a genre it has is no third');
        assert.deepEqual(await genresOf(id), ['comedy', 'horror']);
      });

      it('DELETE answers 204 and keeps the last genre (400); 404 for a genre not on the page or unknown', async () => {
        const id = await createPage(h, alice);
        await addGenre(h, alice, id, 'music');
        await addGenre(h, alice, id, 'travel');
        const r = await h.call('DELETE', `/ondemand/pages/${id}/genres/music`, { token: alice.token });
        assert.equal(r.status, 204);
        assert.deepEqual(await genresOf(id), ['travel']);
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/genres/travel`, { token: alice.token }), 400, 2204);
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/genres/music`, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/genres/polka`, { token: alice.token }), 404, 5000);
        assert.deepEqual(await genresOf(id), ['travel']);
      });

      it('404 for a missing page or genre, 403 for another user’s page, 403 without the edit scope', async () => {
        expectError(await h.call('PUT', '/ondemand/pages/999999/genres/drama', { token: alice.token }), 404, 5000);
        const id = await createPage(h, alice);
        expectError(await h.call('PUT', `/ondemand/pages/${id}/genres/polka`, { token: alice.token }), 404, 5000);
        const published = await publishedPage(h, alice);
        expectError(await h.call('PUT', `/ondemand/pages/${published}/genres/comedy`, { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', `/ondemand/pages/${published}/genres/drama`, { token: bob.token }), 403, 3200);
        expectError(await h.call('PUT', `/ondemand/pages/${id}/genres/comedy`, { token: bob.token }), 404, 5000);
        const reader = await h.user('Reader', 'public');
        expectError(await h.call('PUT', `/ondemand/pages/${published}/genres/comedy`, { token: reader.token }), 403, 3200);
        assert.deepEqual(await genresOf(published), ['drama']);
      });
    });

    describe('regions', () => {
      it('GET /ondemand/regions lists every ISO 3166 country; GET one by code', async () => {
        const r = await h.call('GET', '/ondemand/regions?per_page=100&page=3');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.region+json;version=3.4');
        assert.equal(r.body.total, 249);
        assert.equal(r.body.data.length, 49);
        const us = await h.call('GET', '/ondemand/regions/us');
        assert.equal(us.status, 200);
        assert.equal(us.body.uri, '/ondemand/regions/US');
        assert.equal(us.body.name, 'United States');
        assert.equal(us.body.country_code, 'US');
        expectError(await h.call('GET', '/ondemand/regions/XX'), 404, 5000);
      });

      it('PUT answers 201 with the Region and limits the page to its regions', async () => {
        const id = await createPage(h, alice);
        const r = await h.call('PUT', `/ondemand/pages/${id}/regions/de`, { token: alice.token });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.region+json;version=3.4');
        assert.equal(r.body.country_code, 'DE');
        assert.equal((await h.call('PUT', `/ondemand/pages/${id}/regions/DE`, { token: alice.token })).status, 201);
        await h.call('PUT', `/ondemand/pages/${id}/regions/FR`, { token: alice.token });
        assert.deepEqual(await regionsOf(id), ['DE', 'FR']);
        const page = (await h.call('GET', `/ondemand/pages/${id}`, { token: alice.token })).body;
        assert.equal(page.metadata.connections.regions.total, 2);
        const old = (await h.call('GET', `/ondemand/pages/${id}`, { token: alice.token, version: '3.2' })).body;
        assert.deepEqual(old.regions.map((c: { country_code: string }) => c.country_code), ['DE', 'FR'], 'regions were part of the page before 3.3');
      });

      it('DELETE one answers 204; 404 for a country not on the page or unknown', async () => {
        const id = await createPage(h, alice);
        await h.call('PUT', `/ondemand/pages/${id}/regions/JP`, { token: alice.token });
        const r = await h.call('DELETE', `/ondemand/pages/${id}/regions/jp`, { token: alice.token });
        assert.equal(r.status, 204);
        assert.deepEqual(await regionsOf(id), []);
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/regions/JP`, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/regions/QQ`, { token: alice.token }), 404, 5000);
      });

      it('DELETE many with countries answers 200 with the remaining regions; 400 naming countries when one is unknown', async () => {
        const id = await createPage(h, alice);
        for (const c of ['US', 'CA', 'MX', 'BR']) await h.call('PUT', `/ondemand/pages/${id}/regions/${c}`, { token: alice.token });
        const r = await h.call('DELETE', `/ondemand/pages/${id}/regions`, { token: alice.token, json: { countries: ['us', 'MX', 'NZ'] } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.region+json;version=3.4');
        assert.deepEqual(r.body.map((c: { country_code: string }) => c.country_code), ['BR', 'CA']);
        const form = await h.call('DELETE', `/ondemand/pages/${id}/regions`, { token: alice.token, form: { countries: 'BR' } });
        assert.deepEqual(form.body.map((c: { country_code: string }) => c.country_code), ['CA']);
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/regions`, { token: alice.token, json: { countries: ['CA', 'Narnia'] } }), 400, 2204, 'countries');
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/regions`, { token: alice.token, json: { countries: [] } }), 400, 2204, 'countries');
        expectError(await h.call('DELETE', `/ondemand/pages/${id}/regions`, { token: alice.token, json: {} }), 400, 2204, 'countries');
        assert.deepEqual(await regionsOf(id), ['CA']);
        assert.equal((await h.call('GET', `/ondemand/pages/${id}`, { token: alice.token })).body.metadata.connections.regions.total, 1);
      });

      it('404 for a missing page or region, 403 for another user’s page', async () => {
        expectError(await h.call('PUT', '/ondemand/pages/999999/regions/US', { token: alice.token }), 404, 5000);
        const published = await publishedPage(h, alice);
        expectError(await h.call('PUT', `/ondemand/pages/${published}/regions/ZZ`, { token: alice.token }), 404, 5000);
        expectError(await h.call('PUT', `/ondemand/pages/${published}/regions/US`, { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', `/ondemand/pages/${published}/regions/US`, { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', `/ondemand/pages/${published}/regions`, { token: bob.token, json: { countries: ['US'] } }), 403, 3200);
        expectError(await h.call('DELETE', '/ondemand/pages/999999/regions', { token: alice.token, json: { countries: ['US'] } }), 404, 5000);
        assert.deepEqual(await regionsOf(published), []);
      });
    });

    describe('GET /ondemand/genres/{genre_id}/pages', () => {
      let carol: Fixture;
      const names = async (query: string, who: Fixture | null = null) => {
        const r = await h.call('GET', `/ondemand/genres/scifi/pages${query}`, { token: who?.token });
        assert.equal(r.status, 200, r.text);
        return r.body.data.map((p: { name: string }) => p.name);
      };
      before(async () => {
        carol = await h.user('Carol', 'all', { location: 'Osaka, JP' });
        const page = async (json: Record<string, unknown>, videos: number, regions: string[], publish = true) => {
          const id = await createPage(h, carol, json);
          await addGenre(h, carol, id, 'scifi');
          for (let i = 0; i < videos; i++) await addPageVideo(h, carol, id, { type: i === 0 ? 'main' : 'extra' });
          for (const c of regions) await h.call('PUT', `/ondemand/pages/${id}/regions/${c}`, { token: carol.token });
          h.clock.advance(60);
          if (publish) await h.call('PATCH', `/ondemand/pages/${id}`, { token: carol.token, json: { publish: { active: true } } });
        };
        await page(film({ name: 'Everywhere' }), 1, []);
        await page(series({ name: 'Germany only' }), 3, ['DE']);
        await page(film({ name: 'Japan and France' }), 2, ['JP', 'FR']);
        await page(film({ name: 'Draft' }), 1, [], false);
        await readyPage(h, carol, film({ name: 'Other genre' }));
      });

      it('lists the visible pages of the genre, newest publication first', async () => {
        const r = await h.call('GET', '/ondemand/genres/scifi/pages');
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.page+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(await names(''), ['Japan and France', 'Germany only', 'Everywhere']);
        assert.deepEqual(await names('', carol), ['Japan and France', 'Germany only', 'Everywhere', 'Draft'], 'the owner sees their drafts');
      });

      it('sorts by name and by number of videos', async () => {
        assert.deepEqual(await names('?sort=name'), ['Everywhere', 'Germany only', 'Japan and France']);
        assert.deepEqual(await names('?sort=videos'), ['Germany only', 'Japan and France', 'Everywhere']);
        expectError(await h.call('GET', '/ondemand/genres/scifi/pages?sort=rating'), 400, 2204, 'sort');
        assert.deepEqual(await names('?sort=videos&direction=asc'), ['Everywhere', 'Japan and France', 'Germany only']);
      });

      it('filter=country keeps pages sold in that country (the country parameter); filter=my_region uses the caller’s location', async () => {
        assert.deepEqual(await names('?filter=country&country=de&sort=name'), ['Everywhere', 'Germany only']);
        assert.deepEqual(await names('?filter=country&country=France&sort=name'), ['Everywhere', 'Japan and France']);
        assert.deepEqual(await names('?filter=my_region&sort=name', bob), ['Everywhere', 'Germany only']);
        assert.deepEqual(await names('?filter=my_region&sort=name', carol), ['Draft', 'Everywhere', 'Japan and France']);
        expectError(await h.call('GET', '/ondemand/genres/scifi/pages?filter=country'), 400, 2204, 'country');
        expectError(await h.call('GET', '/ondemand/genres/scifi/pages?filter=country&country=Atlantis'), 400, 2204, 'country');
        expectError(await h.call('GET', '/ondemand/genres/scifi/pages?filter=my_region'), 400, 2204, 'filter');
        expectError(await h.call('GET', '/ondemand/genres/scifi/pages?filter=my_region', { token: alice.token }), 400, 2204, 'filter');
        expectError(await h.call('GET', '/ondemand/genres/scifi/pages?filter=embeddable'), 400, 2204, 'filter');
      });

      it('404 for an unknown genre', async () => {
        expectError(await h.call('GET', '/ondemand/genres/polka/pages'), 404, 5000);
      });
    });
  });
}
