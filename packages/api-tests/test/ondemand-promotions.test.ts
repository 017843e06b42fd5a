import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createToken, parseScopes } from '@reelbase/core';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { createPage, film, publishedPage } from '../src/ondemand';

type Body = Record<string, unknown>;

/** A valid single promotion: 10 uses of one code, a week of access. */
const single = (extra: Body = {}): Body => ({ type: 'single', total: 10, download: false, stream_period: '1_week', ...extra });
const batch = (extra: Body = {}): Body => ({ type: 'batch', total: 3, download: true, stream_period: '30_day', ...extra });

/** One violating request per rule of the promotion table, and the field the 400 must name. */
const violations: [rule: string, body: Body, field: string][] = [
  ['type is required', single({ type: undefined }), 'type'],
  ['type is batch or single', single({ type: 'double' }), 'type'],
  ['type must be batch when access_type is vip', single({ access_type: 'vip' }), 'type'],
  ['total is required', single({ total: undefined }), 'total'],
  ['total is a positive integer', single({ total: 0 }), 'total'],
  ['total of a batch is at most 1000 codes', batch({ total: 1001 }), 'total'],
  ['download is required', single({ download: undefined }), 'download'],
  ['download is a boolean', single({ download: 'maybe' }), 'download'],
  ['stream_period is required', single({ stream_period: undefined }), 'stream_period'],
  ['stream_period uses underscores', single({ stream_period: '1 week' }), 'stream_period'],
  ['access_type is default or vip', single({ access_type: 'gold' }), 'access_type'],
  ['code is letters, digits, - and _', single({ code: 'TWO WORDS' }), 'code'],
  ['discount_type is free or percent', single({ discount_type: 'dollars' }), 'discount_type'],
  ['discount_type must be free when access_type is vip', batch({ access_type: 'vip', discount_type: 'percent', percent_off: 10 }), 'discount_type'],
  ['percent_off is required when discount_type is percent', single({ discount_type: 'percent' }), 'percent_off'],
  ['percent_off is 1 to 100', single({ discount_type: 'percent', percent_off: 150 }), 'percent_off'],
  ['product_type is from the list', single({ product_type: 'gift' }), 'product_type'],
  ['vip allows only buy and rent', batch({ access_type: 'vip', product_type: 'subscribe' }), 'product_type'],
  ['episode products need a series', single({ product_type: 'rent_episode' }), 'product_type'],
  ['start_time is a timestamp', single({ start_time: 'tomorrow' }), 'start_time'],
  ['end_time is a timestamp', single({ end_time: '2026-13-45' }), 'end_time'],
  ['end_time comes after start_time', single({ start_time: '2026-03-01T00:00:00+00:00', end_time: '2026-02-01T00:00:00+00:00' }), 'end_time'],
];

for (const driver of drivers) {
  describe(`POST, GET, DELETE /ondemand/pages/{id}/promotions (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let pageId: string;
    const create = (body: Body, who: Fixture = alice, page = pageId) => h.call('POST', `/ondemand/pages/${page}/promotions`, { token: who.token, json: body });
    const totalOf = async (page = pageId): Promise<number> =>
      (await h.call('GET', `/ondemand/pages/${page}`, { token: alice.token })).body.metadata.connections.promotions.total;
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      pageId = await publishedPage(h, alice);
    });
    after(() => h.stop());

    it('creates a single promotion: 200 with the Promotion and its defaults', async () => {
      const r = await create(single({ code: 'Spring-24', label: 'ignored for single' }));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.promotion+json;version=3.4');
      const id = r.body.uri.split('/').pop();
      assert.equal(r.body.uri, `/ondemand/pages/${pageId}/promotions/${id}`);
      assert.deepEqual(
        { ...r.body, uri: undefined, resource_key: undefined },
        {
          uri: undefined,
          type: 'single',
          total: 10,
          uses: 0,
          download: false,
          stream_period: '1_week',
          access_type: 'default',
          code: 'SPRING-24',
          label: null,
          discount_type: 'free',
          percent_off: null,
          product_type: 'any',
          start_time: '2026-01-02T03:04:05+00:00',
          end_time: null,
          created_time: '2026-01-02T03:04:05+00:00',
          resource_key: undefined,
          metadata: { connections: { codes: { uri: `${r.body.uri}/codes`, options: ['GET'], total: 1 } } },
        },
      );
      const codes = await h.call('GET', `${r.body.uri}/codes`, { token: alice.token });
      assert.deepEqual(codes.body.data, [{ code: 'SPRING-24', uses: 0, total: 10 }]);
      assert.equal((await h.call('GET', r.body.uri, { token: alice.token })).body.code, 'SPRING-24');
    });

    it('makes a random code for a single promotion without one', async () => {
      const r = await create(single({ discount_type: 'percent', percent_off: 25, end_time: '2026-06-01T00:00:00Z' }));
      assert.match(r.body.code, /^[A-Z2-9]{10}$/);
      assert.equal(r.body.percent_off, 25);
      assert.equal(r.body.end_time, '2026-06-01T00:00:00+00:00');
    });

    it('creates a batch of one-use codes; code is ignored and label kept', async () => {
      const r = await create(batch({ code: 'IGNORED', label: 'Festival guests', product_type: 'buy', start_time: '2026-02-01T10:00:00+02:00' }));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.code, null);
      assert.equal(r.body.label, 'Festival guests');
      assert.equal(r.body.start_time, '2026-02-01T08:00:00+00:00');
      assert.equal(r.body.metadata.connections.codes.total, 3);
      const codes = await h.call('GET', `${r.body.uri}/codes`, { token: alice.token });
      assert.equal(codes.body.total, 3);
      assert.ok(codes.body.data.every((c: { code: string; uses: number; total: number }) => /^[A-Z2-9]{10}$/.test(c.code) && c.uses === 0 && c.total === 1));
      assert.equal(new Set(codes.body.data.map((c: { code: string }) => c.code)).size, 3);
    });

    it('vip access: a free batch, rent by default', async () => {
      const r = await create(batch({ access_type: 'vip' }));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.discount_type, 'free');
      assert.equal(r.body.product_type, 'rent');
      assert.equal((await create(batch({ access_type: 'vip', product_type: 'buy', discount_type: 'free' }))).body.product_type, 'buy');
    });

    for (const [rule, body, field] of violations) {
      it(`400 naming ${field} when the rule "${rule}" is broken, creating nothing`, async () => {
        const before = await totalOf();
        expectError(await create(body), 400, 2204, field);
        assert.equal(await totalOf(), before);
      });
    }

    it('400 "promo code already exists" for a code the page has (any case); other pages may use it', async () => {
      await create(single({ code: 'TWICE' }));
      const before = await totalOf();
      const r = await create(single({ code: 'twice' }));
      expectError(r, 400, 2204, 'code');
      assert.match(r.body.developer_message, /promo code already exists/);
      assert.equal(await totalOf(), before);
      const other = await createPage(h, alice, film({ name: 'Other' }));
      assert.equal((await create(single({ code: 'TWICE' }), alice, other)).status, 200);
    });

    it('lists the page’s promotions, newest first, for the owner only', async () => {
      const page = await createPage(h, alice);
      await create(single({ code: 'FIRST' }), alice, page);
      h.clock.advance(1);
      await create(single({ code: 'SECOND' }), alice, page);
      const r = await h.call('GET', `/ondemand/pages/${page}/promotions`, { token: alice.token });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data.map((p: { code: string }) => p.code), ['SECOND', 'FIRST']);
      expectError(await h.call('GET', `/ondemand/pages/${pageId}/promotions`, { token: bob.token }), 403, 3200);
    });

    it('404 for a missing page, 403 for another user’s page, 403 without the promo_codes scope', async () => {
      expectError(await create(single(), alice, '999999'), 404, 5000);
      const before = await totalOf();
      expectError(await create(single(), bob), 403, 3200);
      const creator = await h.user('Creator', 'public,create,edit,delete');
      expectError(await create(single(), creator), 403, 3200);
      expectError(await h.call('POST', `/ondemand/pages/${pageId}/promotions`, { json: single() }), 401, 8003);
      const draft = await createPage(h, alice);
      expectError(await create(single(), bob, draft), 404, 5000);
      assert.equal(await totalOf(), before);
    });

    it('from 3.4 creating also needs the create scope and deleting the delete scope; before 3.4 promo_codes alone', async () => {
      /** Another token of Alice's, with only these scopes. */
      const aliceWith = async (scopes: string): Promise<Fixture> =>
        ({ user: alice.user, token: (await createToken(h.service.store, h.clock.now(), alice.user.id, parseScopes(scopes))).token });
      const codesOnly = await aliceWith('public,promo_codes');
      const before = await totalOf();
      let r = await create(single({ code: 'LATER-FORM' }), codesOnly);
      expectError(r, 403, 3200);
      assert.match(r.body.developer_message, /"create"/);
      assert.equal(await totalOf(), before);
      r = await h.call('POST', `/ondemand/pages/${pageId}/promotions`, { token: codesOnly.token, json: single({ code: 'EARLIER-FORM' }), version: '3.3' });
      assert.equal(r.status, 200, r.text);
      const uri: string = r.body.uri;
      assert.equal(await totalOf(), before + 1);
      r = await h.call('DELETE', uri, { token: codesOnly.token });
      expectError(r, 403, 3200);
      assert.match(r.body.developer_message, /"delete"/);
      assert.equal((await h.call('GET', uri, { token: codesOnly.token })).status, 200, 'reading needs promo_codes only');
      assert.equal((await h.call('DELETE', uri, { token: codesOnly.token, version: '3.3' })).status, 204);
      const full = await aliceWith('public,promo_codes,create,delete');
      const made = await create(single({ code: 'CURRENT-FORM' }), full);
      assert.equal(made.status, 200, made.text);
      assert.equal((await h.call('DELETE', made.body.uri, { token: full.token })).status, 204);
      assert.equal(await totalOf(), before);
    });

    describe('DELETE', () => {
      it('answers 204 and deletes its codes; then 404', async () => {
        const uri = (await create(batch({ total: 2 }))).body.uri;
        const before = await totalOf();
        const r = await h.call('DELETE', uri, { token: alice.token });
        assert.equal(r.status, 204);
        assert.equal(await totalOf(), before - 1);
        expectError(await h.call('GET', uri, { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', uri, { token: alice.token }), 404, 5000);
        const id = uri.split('/').pop();
        assert.equal(await h.service.store.count('ondemand_promo_codes', { field: 'promotion_id', op: 'eq', value: id }), 0);
      });

      it('404 for a missing page or a promotion of another page, 403 for another user', async () => {
        const uri = (await create(single())).body.uri;
        expectError(await h.call('DELETE', uri, { token: bob.token }), 403, 3200);
        expectError(await h.call('DELETE', uri.replace(`/pages/${pageId}/`, '/pages/999999/'), { token: alice.token }), 404, 5000);
        const other = await createPage(h, alice);
        expectError(await h.call('DELETE', uri.replace(`/pages/${pageId}/`, `/pages/${other}/`), { token: alice.token }), 404, 5000);
        expectError(await h.call('DELETE', `/ondemand/pages/${pageId}/promotions/999999`, { token: alice.token }), 404, 5000);
        const noScope = await h.user('NoScope', 'public,delete,edit');
        expectError(await h.call('DELETE', uri, { token: noScope.token }), 403, 3200);
        assert.equal((await h.call('GET', uri, { token: alice.token })).status, 200);
      });
    });
  });
}
