import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { createPage, film, publishedPage, readyPage } from '../src/ondemand';

type Body = Record<string, unknown>;

for (const driver of drivers) {
  describe(`On Demand purchases (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    /** A film sold, rented and by subscription, in USD and EUR. */
    let shop: string;
    const buy = (who: Fixture, json: Body, page = shop) => h.call('POST', `/ondemand/pages/${page}/purchases`, { token: who.token, json });
    const promo = async (json: Body, page = shop): Promise<string> => {
      const r = await h.call('POST', `/ondemand/pages/${page}/promotions`, { token: alice.token, json: { download: false, stream_period: '72_hour', ...json } });
      assert.equal(r.status, 200, r.text);
      return r.body.uri;
    };
    const at = (seconds: number) => new Date(h.clock.time + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      shop = await publishedPage(
        h,
        alice,
        film({
          name: 'Shop',
          accepted_currencies: ['USD', 'EUR'],
          buy: { active: true, download: true, price: { USD: 9.99, EUR: 8.5 } },
          rent: { active: true, period: '48 hour', price: { USD: 2.99 } },
          subscription: { monthly: { active: true, price: { USD: 5 } } },
        }),
      );
    });
    after(() => h.stop());

    describe('POST /ondemand/pages/{id}/purchases', () => {
      it('buys: 201 with the page, whose buy interaction records the purchase', async () => {
        const bob = await h.user('Bob');
        const r = await buy(bob, { type: 'buy' });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.page+json;version=3.4');
        assert.equal(r.body.uri, `/ondemand/pages/${shop}`);
        assert.deepEqual(r.body.metadata.interactions.buy, {
          uri: `/ondemand/pages/${shop}/purchases`,
          options: ['POST'],
          active: true,
          reason: null,
          purchased: true,
          purchase_time: at(0),
          expires_time: null,
          download: true,
          price: 9.99,
          currency: 'USD',
        });
        assert.equal(r.body.metadata.interactions.rent.purchased, false);
        expectError(await buy(bob, { type: 'buy' }), 400, 2204, 'type');
      });

      it('rents for the page’s rental period, and may rent again once it ran out', async () => {
        const bob = await h.user('Renter');
        const r = await buy(bob, { type: 'rent' });
        assert.equal(r.status, 201);
        assert.deepEqual(
          { ...r.body.metadata.interactions.rent, purchase_time: undefined },
          { uri: `/ondemand/pages/${shop}/purchases`, options: ['POST'], active: true, reason: null, purchased: true, purchase_time: undefined, expires_time: at(48 * 3600), download: false, price: 2.99, currency: 'USD' },
        );
        expectError(await buy(bob, { type: 'rent' }), 400, 2204, 'type');
        h.clock.advance(48 * 3600);
        const page = (await h.call('GET', `/ondemand/pages/${shop}`, { token: bob.token })).body;
        assert.equal(page.metadata.interactions.rent.purchased, false);
        assert.equal(page.metadata.interactions.rent.download, false);
        assert.equal((await buy(bob, { type: 'rent' })).status, 201);
      });

      it('subscribes for a month; pays in another accepted currency', async () => {
        const bob = await h.user('Subscriber');
        const sub = await buy(bob, { type: 'subscribe' });
        assert.equal(sub.status, 201);
        const month = new Date(h.clock.time);
        month.setUTCMonth(month.getUTCMonth() + 1);
        assert.equal(sub.body.metadata.interactions.subscribe.expires_time, month.toISOString().replace(/\.\d{3}Z$/, '+00:00'));
        const eur = await buy(bob, { type: 'buy', currency: 'EUR' });
        assert.equal(eur.body.metadata.interactions.buy.price, 8.5);
        assert.equal(eur.body.metadata.interactions.buy.currency, 'EUR');
      });

      it('400 naming the field for what the page does not sell', async () => {
        const bob = await h.user('Picky');
        expectError(await buy(bob, { type: 'rent', currency: 'EUR' }), 400, 2204, 'currency');
        expectError(await buy(bob, { type: 'buy', currency: 'GBP' }), 400, 2204, 'currency');
        expectError(await buy(bob, { type: 'steal' }), 400, 2204, 'type');
        expectError(await buy(bob, {}), 400, 2204, 'type');
        const buyOnly = await publishedPage(h, alice, film({ name: 'Buy only' }));
        expectError(await buy(bob, { type: 'rent' }, buyOnly), 400, 2204, 'type');
        expectError(await buy(bob, { type: 'subscribe' }, buyOnly), 400, 2204, 'type');
        const r = await h.call('GET', '/me/ondemand/purchases', { token: bob.token });
        assert.equal(r.body.total, 0, 'nothing was recorded');
      });

      it('403 for the owner, 404 for a draft or missing page, 403 without the purchased scope, 401 anonymous', async () => {
        expectError(await buy(alice, { type: 'buy' }), 403, 3200);
        const bob = await h.user('Early');
        const draft = await createPage(h, alice);
        expectError(await buy(bob, { type: 'buy' }, draft), 404, 5000);
        expectError(await buy(bob, { type: 'buy' }, '999999'), 404, 5000);
        const noScope = await h.user('NoScope', 'public,interact');
        expectError(await buy(noScope, { type: 'buy' }), 403, 3200);
        expectError(await h.call('POST', `/ondemand/pages/${shop}/purchases`, { json: { type: 'buy' } }), 401, 8003);
      });

      it('pre-orders can only be bought', async () => {
        const page = await readyPage(h, alice, film({ name: 'Soon', rent: { active: true, period: '24 hour', price: { USD: 1 } } }));
        await h.call('PATCH', `/ondemand/pages/${page}`, { token: alice.token, json: { preorder: { active: true, publish_time: at(3600) } } });
        const bob = await h.user('Fan');
        expectError(await buy(bob, { type: 'rent' }, page), 400, 2204, 'type');
        assert.equal((await buy(bob, { type: 'buy' }, page)).status, 201);
      });
    });

    describe('promo codes', () => {
      it('a percent discount, with the promotion’s stream period and download, counting its uses until used up', async () => {
        const uri = await promo({ type: 'single', total: 2, code: 'QUARTER', discount_type: 'percent', percent_off: 25, download: true, product_type: 'buy' });
        const first = await h.user('First');
        const r = await buy(first, { type: 'buy', promo_code: 'quarter' });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.metadata.interactions.buy.price, 7.49);
        assert.equal(r.body.metadata.interactions.buy.expires_time, at(72 * 3600));
        assert.equal(r.body.metadata.interactions.buy.download, true);
        expectError(await buy(await h.user('Renter2'), { type: 'rent', promo_code: 'QUARTER' }), 400, 2204, 'promo_code');
        assert.equal((await buy(await h.user('Second'), { type: 'buy', promo_code: 'QUARTER' })).status, 201);
        expectError(await buy(await h.user('Third'), { type: 'buy', promo_code: 'QUARTER' }), 400, 2204, 'promo_code');
        const promotion = (await h.call('GET', uri, { token: alice.token })).body;
        assert.equal(promotion.uses, 2);
        assert.deepEqual((await h.call('GET', `${uri}/codes`, { token: alice.token })).body.data, [{ code: 'QUARTER', uses: 2, total: 2 }]);
      });

      it('free codes, their time window, unknown codes', async () => {
        await promo({ type: 'single', total: 5, code: 'LATER', start_time: at(3600), end_time: at(7200) });
        const bob = await h.user('Timely');
        expectError(await buy(bob, { type: 'rent', promo_code: 'LATER' }), 400, 2204, 'promo_code');
        h.clock.advance(3600);
        const r = await buy(bob, { type: 'rent', promo_code: 'LATER' });
        assert.equal(r.status, 201);
        assert.equal(r.body.metadata.interactions.rent.price, 0);
        h.clock.advance(3600);
        expectError(await buy(await h.user('Late'), { type: 'rent', promo_code: 'LATER' }), 400, 2204, 'promo_code');
        expectError(await buy(await h.user('Guess'), { type: 'rent', promo_code: 'NOPE' }), 400, 2204, 'promo_code');
      });

      it('vip batch codes grant free access even to what the page does not sell, once each', async () => {
        const buyOnly = await publishedPage(h, alice, film({ name: 'VIP film' }));
        const uri = await promo({ type: 'batch', total: 2, access_type: 'vip' }, buyOnly);
        const codes = (await h.call('GET', `${uri}/codes`, { token: alice.token })).body.data.map((c: { code: string }) => c.code);
        const vip = await h.user('Vip');
        const r = await buy(vip, { type: 'rent', promo_code: codes[0] }, buyOnly);
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.metadata.interactions.rent.price, 0);
        assert.equal(r.body.metadata.interactions.rent.purchased, true);
        expectError(await buy(await h.user('Vip2'), { type: 'rent', promo_code: codes[0] }, buyOnly), 400, 2204, 'promo_code');
        expectError(await buy(await h.user('Vip3'), { type: 'rent', promo_code: codes[1] }), 400, 2204, 'promo_code');
      });
    });

    describe('GET purchases', () => {
      let dana: Fixture;
      let second: string;
      before(async () => {
        dana = await h.user('Dana');
        await buy(dana, { type: 'rent' });
        h.clock.advance(60);
        second = await publishedPage(h, alice, film({ name: 'Another film' }));
        await buy(dana, { type: 'buy' }, second);
      });

      it('GET /me/ondemand/purchases lists the pages bought or rented, latest purchase first', async () => {
        const r = await h.call('GET', '/me/ondemand/purchases', { token: dana.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.page+json;version=3.4');
        assert.equal(r.body.total, 2);
        assert.deepEqual(r.body.data.map((p: { name: string }) => p.name), ['Another film', 'Shop']);
        assert.equal(r.body.data[1].metadata.interactions.rent.purchased, true);
        const alpha = await h.call('GET', `/users/${dana.user.id}/ondemand/purchases?sort=alphabetical`, { token: dana.token });
        assert.deepEqual(alpha.body.data.map((p: { name: string }) => p.name), ['Another film', 'Shop']);
        const again = await buy(dana, { type: 'subscribe' });
        assert.equal(again.status, 201);
        const reordered = await h.call('GET', '/me/ondemand/purchases', { token: dana.token });
        assert.deepEqual(reordered.body.data.map((p: { name: string }) => p.name), ['Shop', 'Another film'], 'one entry per page, moved up');
      });

      it('GET /me/ondemand/purchases/{ondemand_id} answers the page when bought, 404 otherwise', async () => {
        const r = await h.call('GET', `/me/ondemand/purchases/${second}`, { token: dana.token });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.uri, `/ondemand/pages/${second}`);
        assert.equal(r.body.metadata.interactions.buy.purchased, true);
        assert.equal((await h.call('GET', `/users/${dana.user.id}/ondemand/purchases/${second}`, { token: dana.token })).status, 200);
        const unbought = await publishedPage(h, alice, film({ name: 'Unbought' }));
        expectError(await h.call('GET', `/me/ondemand/purchases/${unbought}`, { token: dana.token }), 404, 5000);
        expectError(await h.call('GET', '/me/ondemand/purchases/999999', { token: dana.token }), 404, 5000);
      });

      it('403 for another user, 404 for a missing user, 403 without the purchased scope, 401 anonymous', async () => {
        const eve = await h.user('Eve');
        expectError(await h.call('GET', `/users/${dana.user.id}/ondemand/purchases`, { token: eve.token }), 403, 3200);
        expectError(await h.call('GET', `/users/${dana.user.id}/ondemand/purchases/${second}`, { token: eve.token }), 403, 3200);
        expectError(await h.call('GET', '/users/999999/ondemand/purchases', { token: eve.token }), 404, 5000);
        const noScope = await h.user('Peek', 'public,private');
        expectError(await h.call('GET', '/me/ondemand/purchases', { token: noScope.token }), 403, 3200);
        expectError(await h.call('GET', '/me/ondemand/purchases'), 401, 8003);
        expectError(await h.call('GET', `/users/${dana.user.id}/ondemand/purchases`), 401, 8003);
      });
    });
  });
}
