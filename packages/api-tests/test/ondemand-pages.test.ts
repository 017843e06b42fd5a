import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { createPage, film, publishedPage, series } from '../src/ondemand';

type Body = Record<string, unknown>;

/** One violating request per rule of the creation table, and the field the 400 must name. */
const violations: [rule: string, body: Body, field: string][] = [
  ['name is required', film({ name: undefined }), 'name'],
  ['name is not empty', film({ name: '' }), 'name'],
  ['description is required', film({ description: undefined }), 'description'],
  ['type is required', film({ type: undefined }), 'type'],
  ['type is film or series', film({ type: 'show' }), 'type'],
  ['content_rating is required', film({ content_rating: undefined }), 'content_rating'],
  ['content_rating has one rating or more', film({ content_rating: [] }), 'content_rating'],
  ['content_rating takes the listed ratings', film({ content_rating: ['safe', 'scary'] }), 'content_rating.1'],
  ['link is a URL part', film({ link: 'has space' }), 'link'],
  ['link is not only digits', film({ link: '12345' }), 'link'],
  ['domain_link is a domain', film({ domain_link: 'localhost' }), 'domain_link'],
  ['accepted_currencies come from the list', film({ accepted_currencies: ['USD', 'XYZ'] }), 'accepted_currencies.1'],
  ['buy.active is required if rent.active is false', film({ buy: undefined, rent: { active: false } }), 'buy.active'],
  ['rent.active is required if buy.active is false', film({ buy: { active: false } }), 'rent.active'],
  [
    'subscription.monthly.active is required if buy.active and rent.active are false',
    film({ buy: { active: false }, rent: { active: false } }),
    'subscription.monthly.active',
  ],
  ['buy.price.USD is required if buy.active is true', film({ buy: { active: true, price: { EUR: 5 } } }), 'buy.price.USD'],
  ['buy.price is a positive float', film({ buy: { active: true, price: { USD: -1 } } }), 'buy.price.USD'],
  ['buy.price.<CUR> takes currencies from the list', film({ buy: { active: true, price: { USD: 5, XYZ: 3 } } }), 'buy.price.XYZ'],
  ['rent.price.<CUR> takes currencies from the list', film({ rent: { active: true, period: '24 hour', price: { USD: 2, usd: 2 } } }), 'rent.price.usd'],
  ['buy.download needs a film', series({ buy: { active: true, download: true, price: { USD: 20 } } }), 'buy.download'],
  ['rent.period is required when rent.active is true', film({ rent: { active: true, price: { USD: 2 } } }), 'rent.period'],
  ['rent.period is a rental period', film({ rent: { active: true, period: '2 day', price: { USD: 2 } } }), 'rent.period'],
  ['rent.price.USD is required if rent.active is true', film({ rent: { active: true, period: '24 hour' } }), 'rent.price.USD'],
  ['episodes.buy.active needs a series', film({ episodes: { buy: { active: true, price: { USD: 1 } } } }), 'episodes.buy.active'],
  ['episodes.buy.download needs a series', film({ episodes: { buy: { download: true } } }), 'episodes.buy.download'],
  ['episodes.rent.price.USD is for series only', film({ episodes: { rent: { price: { USD: 1 } } } }), 'episodes.rent.price.USD'],
  ['episodes.buy.price.USD is required if episodes.buy.active is true', series({ episodes: { buy: { active: true } } }), 'episodes.buy.price.USD'],
  ['episode prices are in USD', series({ episodes: { buy: { active: true, price: { USD: 1, EUR: 1 } } } }), 'episodes.buy.price.EUR'],
  [
    'episodes.rent.period is required if episodes.rent.active is true',
    series({ episodes: { rent: { active: true, price: { USD: 1 } } } }),
    'episodes.rent.period',
  ],
  [
    'episodes.rent.price.USD is required if episodes.rent.active is true',
    series({ episodes: { rent: { active: true, period: '72 hour' } } }),
    'episodes.rent.price.USD',
  ],
  [
    'subscription.monthly.price.USD is required if the subscription is active',
    film({ buy: undefined, subscription: { monthly: { active: true } } }),
    'subscription.monthly.price.USD',
  ],
  [
    'the subscription is priced in USD',
    film({ buy: undefined, subscription: { monthly: { active: true, price: { USD: 5, EUR: 4 } } } }),
    'subscription.monthly.price.EUR',
  ],
  ['prices are in accepted currencies', film({ accepted_currencies: ['EUR'] }), 'buy.price.USD'],
  [
    'subscription prices are in accepted currencies too',
    film({ buy: undefined, accepted_currencies: ['EUR'], subscription: { monthly: { active: true, price: { USD: 5 } } } }),
    'subscription.monthly.price.USD',
  ],
];

for (const driver of drivers) {
  describe(`POST, GET /me/ondemand/pages, GET /ondemand/pages/{id} (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const pagesOf = async (who: Fixture, query = ''): Promise<{ total: number; names: string[] }> => {
      const r = await h.call('GET', `/me/ondemand/pages${query}`, { token: who.token });
      assert.equal(r.status, 200, r.text);
      return { total: r.body.total, names: r.body.data.map((p: { name: string }) => p.name) };
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('creation', () => {
      it('answers 201 with a typed draft page', async () => {
        const r = await h.call('POST', '/me/ondemand/pages', {
          token: alice.token,
          json: film({ link: 'My-Film', domain_link: 'Film.Example.com', content_rating: ['violence', 'language'], buy: { active: true, download: true, price: { USD: 9.99, EUR: 8.5 } } }),
        });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.page+json;version=3.4');
        const id = r.body.uri.split('/').pop();
        assert.equal(r.body.uri, `/ondemand/pages/${id}`);
        assert.equal(r.body.name, 'The Film');
        assert.equal(r.body.description, 'A film');
        assert.equal(r.body.type, 'film');
        assert.equal(r.body.link, `${h.server.url}/ondemand/pages/my-film`);
        assert.equal(r.body.domain_link, 'https://film.example.com');
        assert.deepEqual(r.body.content_rating, ['violence', 'language']);
        assert.deepEqual(r.body.genres, []);
        assert.deepEqual(r.body.accepted_currencies, ['EUR', 'USD'], 'the currencies it has prices in');
        assert.deepEqual(r.body.buy, { active: true, download: true, price: { USD: 9.99, EUR: 8.5 } });
        assert.deepEqual(r.body.rent, { active: false, period: null, price: {} });
        assert.deepEqual(r.body.subscription, { monthly: { active: false, price: {} }, active: false, price: {}, link: null });
        assert.deepEqual(r.body.episodes, { buy: { active: false, download: false, price: {} }, rent: { active: false, period: null, price: {} } }, 'a film sells no episodes');
        assert.deepEqual(r.body.published, { enabled: false, time: null });
        assert.deepEqual(r.body.preorder, { active: false, publish_time: null, time: null, cancel_time: null });
        assert.equal(r.body.publish_when_ready, false);
        assert.equal(r.body.user.uri, `/users/${alice.user.id}`);
        assert.equal(r.body.pictures.type, 'default');
        assert.equal(r.body.background, null);
        assert.equal(r.body.created_time, '2026-01-02T03:04:05+00:00');
        assert.match(r.body.resource_key, /^[0-9a-f]{40}$/);
        const videos = r.body.metadata.connections.metadata.connections.videos;
        assert.deepEqual(videos, { uri: `/ondemand/pages/${id}/videos`, options: ['GET'], total: 0, main_total: 0, extra_total: 0, viewable_total: 0 });
        assert.equal(r.body.metadata.connections.promotions.total, 0, 'the owner sees the promotions connection');
        const nothingHeld = { purchased: false, purchase_time: null, expires_time: null, download: false, price: null, currency: null };
        const purchases = `/ondemand/pages/${id}/purchases`;
        assert.deepEqual(r.body.metadata.interactions, {
          buy: { uri: purchases, options: [], active: false, reason: 'the page has no main video', ...nothingHeld },
          rent: { uri: purchases, options: [], active: false, reason: 'the page does not offer rent', ...nothingHeld },
          subscribe: { uri: purchases, options: [], active: false, reason: 'the page does not offer subscribe', ...nothingHeld },
        }, 'present for the owner too, who cannot buy their own page (no POST)');
        assert.equal((await h.call('GET', `/ondemand/pages/${id}`, { token: alice.token })).body.name, 'The Film');
      });

      it('takes a series with episode offers and a subscription, urlencoded in dot notation', async () => {
        const r = await h.call('POST', `/users/${alice.user.id}/ondemand/pages`, {
          token: alice.token,
          form: {
            name: 'Show',
            description: 'Episodes',
            type: 'series',
            content_rating: 'safe,drugs',
            'buy.active': 'false',
            'rent.active': 'false',
            'subscription.monthly.active': 'true',
            'subscription.monthly.price.USD': '4.5',
            'episodes.buy.active': 'true',
            'episodes.buy.download': 'true',
            'episodes.buy.price.USD': '1.99',
            'episodes.rent.active': 'true',
            'episodes.rent.period': '1 week',
            'episodes.rent.price.USD': '0.99',
          },
        });
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(r.body.content_rating, ['safe', 'drugs']);
        const page = `${h.server.url}/ondemand/pages/${r.body.uri.split('/').pop()}`;
        assert.deepEqual(r.body.subscription, { monthly: { active: true, price: { USD: 4.5 } }, active: true, price: { USD: 4.5 }, link: page });
        assert.deepEqual(r.body.episodes, {
          buy: { active: true, download: true, price: { USD: 1.99 } },
          rent: { active: true, period: '1 week', price: { USD: 0.99 } },
        });
        assert.deepEqual(r.body.buy, { active: false, price: {} }, 'downloads of the whole series are not a thing');
        assert.deepEqual(r.body.accepted_currencies, ['USD']);
        assert.equal(r.body.metadata.connections.seasons.total, 0);
      });

      it('answers 200 before 3.4, with episodes.purchase and regions before 3.3 and no metadata before 3.2', async () => {
        const v33 = await h.call('POST', '/me/ondemand/pages', { token: alice.token, json: series({ name: 'v3.3' }), version: '3.3' });
        assert.equal(v33.status, 200, v33.text);
        assert.equal(v33.headers.get('content-type'), 'application/vnd.reelbase.ondemand.page+json;version=3.3');
        assert.ok(v33.body.episodes.buy);
        assert.equal(v33.body.regions, undefined);
        const v32 = await h.call('POST', '/me/ondemand/pages', { token: alice.token, json: series({ name: 'v3.2' }), version: '3.2' });
        assert.equal(v32.status, 200, v32.text);
        assert.deepEqual(v32.body.episodes.purchase, { active: false, price: {} });
        assert.equal(v32.body.episodes.buy, undefined);
        assert.deepEqual(v32.body.regions, []);
        assert.deepEqual(v32.body.preorder, { active: false, publish_time: null }, 'the On Demand fields of 3.3 are not there yet');
        assert.deepEqual(v32.body.subscription, { monthly: { active: false, price: {} } });
        for (const field of ['trailer', 'thumbnail', 'colors', 'theme', 'rating']) assert.equal(field in v32.body, false, field);
        assert.equal(v32.body.metadata.connections.metadata, undefined, 'video counts by type arrived in 3.3');
        assert.equal(v32.body.metadata.interactions, undefined);
        const v31 = await h.call('POST', '/me/ondemand/pages', { token: alice.token, json: film({ name: 'v3.1' }), version: '3.1' });
        assert.equal(v31.status, 200);
        assert.equal(v31.headers.get('content-type'), 'application/json');
        assert.equal(v31.body.metadata, undefined);
      });

      for (const [rule, body, field] of violations) {
        it(`400 naming ${field} when the rule "${rule}" is broken, creating nothing`, async () => {
          const before = (await pagesOf(bob)).total;
          expectError(await h.call('POST', '/me/ondemand/pages', { token: bob.token, json: body }), 400, 2204, field);
          assert.equal((await pagesOf(bob)).total, before);
        });
      }

      it('400 naming link or domain_link when another page uses it (case-insensitively)', async () => {
        await createPage(h, alice, film({ link: 'taken', domain_link: 'taken.example.com' }));
        expectError(await h.call('POST', '/me/ondemand/pages', { token: bob.token, json: film({ link: 'TAKEN' }) }), 400, 2204, 'link');
        expectError(await h.call('POST', '/me/ondemand/pages', { token: bob.token, json: film({ domain_link: 'Taken.Example.com' }) }), 400, 2204, 'domain_link');
      });

      it('400/2205 for a body that is not an object', async () => {
        expectError(await h.call('POST', '/me/ondemand/pages', { token: bob.token, json: [film()] }), 400, 2205);
      });

      it('403 creating for another user, 404 for a missing one, 401 anonymous, 403 without the create scope', async () => {
        expectError(await h.call('POST', `/users/${bob.user.id}/ondemand/pages`, { token: alice.token, json: film() }), 403, 3200);
        expectError(await h.call('POST', '/users/999999/ondemand/pages', { token: alice.token, json: film() }), 404, 5000);
        expectError(await h.call('POST', '/me/ondemand/pages', { json: film() }), 401, 8003);
        const reader = await h.user('Reader', 'public,edit');
        expectError(await h.call('POST', '/me/ondemand/pages', { token: reader.token, json: film() }), 403, 3200);
        assert.equal((await pagesOf(reader)).total, 0);
      });
    });

    describe('lists and reads', () => {
      let carol: Fixture;
      before(async () => {
        carol = await h.user('Carol');
        h.clock.advance(60);
        await createPage(h, carol, film({ name: 'beta draft', content_rating: ['nudity'] }));
        h.clock.advance(60);
        await publishedPage(h, carol, series({ name: 'Alpha show', content_rating: ['language'] }));
        h.clock.advance(60);
        await publishedPage(h, carol, film({ name: 'Gamma film', content_rating: ['safe'] }));
      });

      it("lists the owner's pages with drafts, newest first by default", async () => {
        assert.deepEqual(await pagesOf(carol), { total: 3, names: ['Gamma film', 'Alpha show', 'beta draft'] });
        const r = await h.call('GET', '/me/ondemand/pages', { token: carol.token });
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.page+json;version=3.4');
        assert.equal(r.body.per_page, 25);
        assert.equal(r.body.paging.first, '/me/ondemand/pages?page=1&per_page=25');
      });

      it("shows others only the published pages, at /users/{user_id}/ondemand/pages, also anonymously", async () => {
        for (const token of [alice.token, undefined]) {
          const r = await h.call('GET', `/users/${carol.user.id}/ondemand/pages`, { token });
          assert.equal(r.status, 200, r.text);
          assert.equal(r.body.total, 2);
          assert.deepEqual(r.body.data.map((p: { name: string }) => p.name), ['Gamma film', 'Alpha show']);
        }
      });

      it('filters by type', async () => {
        assert.deepEqual(await pagesOf(carol, '?filter=film'), { total: 2, names: ['Gamma film', 'beta draft'] });
        assert.deepEqual(await pagesOf(carol, '?filter=series'), { total: 1, names: ['Alpha show'] });
      });

      it('sorts by every listed technique, with direction', async () => {
        const cases: [string, string[]][] = [
          ['sort=alphabetical', ['Alpha show', 'beta draft', 'Gamma film']],
          ['sort=name&direction=desc', ['Gamma film', 'beta draft', 'Alpha show']],
          ['sort=added&direction=asc', ['beta draft', 'Alpha show', 'Gamma film']],
          ['sort=date', ['Gamma film', 'Alpha show', 'beta draft']],
          ['sort=publish.time', ['Gamma film', 'Alpha show', 'beta draft']],
          ['sort=rating', ['Gamma film', 'Alpha show', 'beta draft']],
          ['sort=rating&direction=desc', ['beta draft', 'Alpha show', 'Gamma film']],
        ];
        for (const [query, names] of cases) assert.deepEqual((await pagesOf(carol, `?${query}`)).names, names, query);
        h.clock.advance(10);
        const [draftId] = (await h.call('GET', '/me/ondemand/pages?filter=film&sort=alphabetical', { token: carol.token })).body.data.map((p: { uri: string }) => p.uri);
        assert.equal((await h.call('PATCH', draftId, { token: carol.token, json: { link: 'beta' } })).status, 200);
        assert.deepEqual((await pagesOf(carol, '?sort=modified_time')).names[0], 'beta draft');
      });

      it('pages with per_page', async () => {
        const r = await h.call('GET', '/me/ondemand/pages?per_page=2&page=2', { token: carol.token });
        assert.equal(r.body.total, 3);
        assert.equal(r.body.data.length, 1);
        assert.equal(r.body.paging.previous, '/me/ondemand/pages?per_page=2&page=1');
        assert.equal(r.body.paging.next, null);
      });

      it('400 naming a sort, filter or direction the list does not take; 404 for a missing user; 401 for /me anonymously', async () => {
        expectError(await h.call('GET', '/me/ondemand/pages?sort=plays', { token: carol.token }), 400, 2204, 'sort');
        expectError(await h.call('GET', '/me/ondemand/pages?filter=embeddable', { token: carol.token }), 400, 2204, 'filter');
        expectError(await h.call('GET', '/me/ondemand/pages?direction=up', { token: carol.token }), 400, 2204, 'direction');
        expectError(await h.call('GET', '/users/999999/ondemand/pages'), 404, 5000);
        expectError(await h.call('GET', '/me/ondemand/pages'), 401, 8003);
      });

      it('reads a page by id or link; a draft only for its owner', async () => {
        const draft = await createPage(h, carol, film({ name: 'Secret', link: 'secret-film' }));
        assert.equal((await h.call('GET', `/ondemand/pages/${draft}`, { token: carol.token })).status, 200);
        const byLink = await h.call('GET', '/ondemand/pages/Secret-Film', { token: carol.token });
        assert.equal(byLink.status, 200);
        assert.equal(byLink.body.uri, `/ondemand/pages/${draft}`);
        expectError(await h.call('GET', `/ondemand/pages/${draft}`, { token: alice.token }), 404, 5000);
        expectError(await h.call('GET', '/ondemand/pages/secret-film'), 404, 5000);
        expectError(await h.call('GET', '/ondemand/pages/999999'), 404, 5000);
        const published = (await h.call('GET', `/users/${carol.user.id}/ondemand/pages`)).body.data[0];
        const r = await h.call('GET', published.uri);
        assert.equal(r.status, 200);
        assert.equal(r.body.published.enabled, true);
        assert.equal(r.body.metadata.connections.promotions, undefined, 'promotions are the owner’s business');
        const anonymous = r.body.metadata.interactions.buy;
        assert.deepEqual([anonymous.active, anonymous.reason, anonymous.options, anonymous.purchased], [true, null, [], false], 'anonymous callers hold nothing and may not POST');
        const bobView = await h.call('GET', published.uri, { token: bob.token });
        assert.deepEqual(bobView.body.metadata.interactions.buy.options, ['POST']);
        assert.equal(bobView.body.metadata.interactions.buy.purchased, false);
      });
    });
  });
}
