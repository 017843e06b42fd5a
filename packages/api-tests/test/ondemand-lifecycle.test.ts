import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { where } from '@reelbase/core';
import { drivers, expectError, Harness, makeClip, sendByTus, uploadByTus, type Fixture } from '../src/index';
import { addGenre, addPageVideo, addUploadingVideo, createPage, film, publishedPage, readyPage } from '../src/ondemand';

for (const driver of drivers) {
  describe(`On Demand page lifecycle: PATCH, DELETE, pre-order, publish_when_ready (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    const patch = (id: string, json: Record<string, unknown>, who: Fixture = alice) => h.call('PATCH', `/ondemand/pages/${id}`, { token: who.token, json });
    const read = async (id: string, who: Fixture | null = alice) => {
      const r = await h.call('GET', `/ondemand/pages/${id}`, { token: who?.token });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    /** ISO time `seconds` from the test clock's now. */
    const inSeconds = (seconds: number) => new Date(h.clock.time + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
    });
    after(() => h.stop());

    describe('PATCH', () => {
      it('publishes a ready draft: 200 with the page, published now', async () => {
        const id = await readyPage(h, alice);
        h.clock.advance(30);
        const r = await patch(id, { publish: { active: true } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.ondemand.page+json;version=3.4');
        assert.deepEqual(r.body.published, { enabled: true, time: inSeconds(0) });
        assert.equal(r.body.modified_time, inSeconds(0));
        assert.deepEqual((await read(id, null)).published, { enabled: true, time: inSeconds(0) });
      });

      it('400 naming publish.active while the page has no genre; nothing changes', async () => {
        const id = await createPage(h, alice);
        await addPageVideo(h, alice, id);
        expectError(await patch(id, { publish: { active: true }, link: 'never-saved' }), 400, 2204, 'publish.active');
        const page = await read(id);
        assert.equal(page.published.enabled, false);
        assert.equal(page.link, `${h.server.url}/ondemand/pages/${id}`, 'the failed write changed nothing');
        await addGenre(h, alice, id);
        assert.equal((await patch(id, { publish: { active: true } })).status, 200);
      });

      // Issue 22 (item 4): SPEC.md's state table allows publishing a draft with no further condition.
      it('publishes a page without a main video; its interactions say it sells nothing until it has one', async () => {
        const id = await createPage(h, alice, film({ name: 'Coming soon' }));
        await addGenre(h, alice, id);
        await addPageVideo(h, alice, id, { type: 'trailer' });
        const r = await patch(id, { publish: { active: true } });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.published, { enabled: true, time: inSeconds(0) });
        /** Whether the page sells `kind` now, why not, and what the caller may do. */
        const offer = (body: { metadata: { interactions: Record<string, { active: boolean; reason: string | null; options: string[] }> } }, kind = 'buy') => {
          const { active, reason, options } = body.metadata.interactions[kind];
          return { active, reason, options };
        };
        const unsold = { active: false, reason: 'the page has no main video', options: [] };
        assert.deepEqual(offer(r.body), unsold, 'the owner is told what the page lacks');
        const seen = await read(id, bob);
        assert.deepEqual(offer(seen), unsold);
        assert.deepEqual(offer(seen, 'rent'), { ...unsold, reason: 'the page does not offer rent' });
        assert.deepEqual(offer(await read(id, null)), unsold);
        expectError(await h.call('POST', `/ondemand/pages/${id}/purchases`, { token: bob.token, json: { type: 'buy' } }), 400, 2204, 'type');
        const announced = () => h.service.store.count('activities', where({ type: 'ondemand_publish', subject: id }));
        assert.equal(await announced(), 0, 'nothing to announce yet');
        await addPageVideo(h, alice, id);
        assert.deepEqual(offer(await read(id, bob)), { active: true, reason: null, options: ['POST'] });
        assert.equal(await announced(), 1, 'the page reaches the feed with its first main video');
        assert.equal((await h.call('POST', `/ondemand/pages/${id}/purchases`, { token: bob.token, json: { type: 'buy' } })).status, 201);
      });

      it('400 naming publish.active when unpublishing; publish.active false on a draft changes nothing', async () => {
        const published = await publishedPage(h, alice);
        expectError(await patch(published, { publish: { active: false } }), 400, 2204, 'publish.active');
        const draft = await createPage(h, alice);
        const r = await patch(draft, { publish: { active: false } });
        assert.equal(r.status, 200);
        assert.equal(r.body.published.enabled, false);
      });

      it('sets, changes and removes the link; 400 naming link when invalid or taken', async () => {
        const id = await createPage(h, alice);
        await createPage(h, bob, film({ link: 'bobs-film' }));
        let r = await patch(id, { link: 'Alice_Film' });
        assert.equal(r.status, 200);
        assert.equal(r.body.link, `${h.server.url}/ondemand/pages/alice_film`);
        assert.equal((await h.call('GET', '/ondemand/pages/alice_film', { token: alice.token })).body.uri, `/ondemand/pages/${id}`);
        r = await patch(id, { link: 'alice_film' });
        assert.equal(r.status, 200, 'its own link is not taken');
        expectError(await patch(id, { link: 'Bobs-Film' }), 400, 2204, 'link');
        expectError(await patch(id, { link: 'no spaces' }), 400, 2204, 'link');
        expectError(await patch(id, { link: '777' }), 400, 2204, 'link');
        r = await patch(id, { link: '' });
        assert.equal(r.body.link, `${h.server.url}/ondemand/pages/${id}`);
        expectError(await h.call('GET', '/ondemand/pages/alice_film', { token: alice.token }), 404, 5000);
      });

      it('rejects bad pre-order requests, each a 400 naming the field', async () => {
        const id = await readyPage(h, alice);
        expectError(await patch(id, { preorder: { active: true } }), 400, 2204, 'preorder.publish_time');
        expectError(await patch(id, { preorder: { active: true, publish_time: inSeconds(-60) } }), 400, 2204, 'preorder.publish_time');
        expectError(await patch(id, { preorder: { active: true, publish_time: 'next tuesday' } }), 400, 2204, 'preorder.publish_time');
        expectError(await patch(id, { preorder: { active: true, publish_time: inSeconds(60) }, publish: { active: true } }), 400, 2204, 'preorder.active');
        const noGenre = await createPage(h, alice);
        await addPageVideo(h, alice, noGenre);
        expectError(await patch(noGenre, { preorder: { active: true, publish_time: inSeconds(60) } }), 400, 2204, 'preorder.active');
        const published = await publishedPage(h, alice);
        expectError(await patch(published, { preorder: { active: true } }), 400, 2204, 'preorder.active');
        expectError(await patch(published, { preorder: { publish_time: inSeconds(60) } }), 400, 2204, 'preorder.publish_time');
        assert.deepEqual((await read(id)).preorder, { active: false, publish_time: null, time: null, cancel_time: null });
      });

      it('404 for a missing page or another user’s draft, 403 for another user’s published page, 403 without the edit scope', async () => {
        expectError(await patch('999999', { link: 'x1' }), 404, 5000);
        const draft = await createPage(h, alice);
        expectError(await patch(draft, { link: 'bob-was-here' }, bob), 404, 5000);
        const published = await publishedPage(h, alice);
        expectError(await patch(published, { link: 'bob-was-here' }, bob), 403, 3200);
        const reader = await h.user('Reader', 'public,delete');
        expectError(await h.call('PATCH', `/ondemand/pages/${published}`, { token: reader.token, json: { link: 'r' } }), 403, 3200);
        expectError(await h.call('PATCH', `/ondemand/pages/${published}`, { json: { link: 'r' } }), 401, 8003);
      });
    });

    describe('pre-order', () => {
      it('enables a pre-order and publishes at preorder.publish_time as the clock passes it', async () => {
        const id = await readyPage(h, alice);
        const at = inSeconds(3600);
        const started = inSeconds(0);
        const r = await patch(id, { preorder: { active: true, publish_time: at } });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.preorder, { active: true, publish_time: at, time: started, cancel_time: null });
        assert.deepEqual(r.body.published, { enabled: false, time: null });
        const listed = await h.call('GET', `/users/${alice.user.id}/ondemand/pages`, { token: bob.token });
        assert.ok(listed.body.data.some((p: { uri: string }) => p.uri === `/ondemand/pages/${id}`), 'a pre-order is public');
        h.clock.advance(3599);
        assert.equal((await read(id, bob)).published.enabled, false);
        h.clock.advance(2);
        const page = await read(id, bob);
        assert.deepEqual(page.published, { enabled: true, time: at });
        assert.deepEqual(page.preorder, { active: false, publish_time: at, time: started, cancel_time: null }, 'when the pre-order began stays');
        expectError(await h.call('DELETE', `/ondemand/pages/${id}`, { token: alice.token }), 403, 3200);
      });

      it('pre-orders a page without a main video and publishes it at preorder.publish_time; it sells once it has one', async () => {
        const id = await createPage(h, alice, film({ name: 'Pre-order, film to come' }));
        await addGenre(h, alice, id);
        const at = inSeconds(600);
        const started = inSeconds(0);
        const r = await patch(id, { preorder: { active: true, publish_time: at } });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.preorder, { active: true, publish_time: at, time: started, cancel_time: null });
        assert.equal(r.body.metadata.interactions.buy.reason, 'the page has no main video');
        expectError(await h.call('POST', `/ondemand/pages/${id}/purchases`, { token: bob.token, json: { type: 'buy' } }), 400, 2204, 'type');
        h.clock.advance(601);
        const page = await read(id, bob);
        assert.deepEqual(page.published, { enabled: true, time: at });
        assert.deepEqual(page.preorder, { active: false, publish_time: at, time: started, cancel_time: null });
        assert.equal(page.metadata.interactions.buy.active, false);
        await addPageVideo(h, alice, id);
        const sold = (await read(id, bob)).metadata.interactions.buy;
        assert.deepEqual([sold.active, sold.reason], [true, null]);
      });

      it('publishes a due pre-order exactly once when many requests see it due at the same time', async () => {
        const id = await readyPage(h, alice, film({ name: 'Crowded premiere' }));
        await patch(id, { preorder: { active: true, publish_time: inSeconds(60) } });
        h.clock.advance(61);
        const reads = await Promise.all(Array.from({ length: 20 }, () => h.call('GET', `/ondemand/pages/${id}`, { token: bob.token })));
        assert.deepEqual(new Set(reads.map((r) => `${r.status} ${r.body.published.enabled}`)), new Set(['200 true']));
        // One main video: one ondemand_publish event in the feed's log, however many requests raced.
        assert.equal(await h.service.store.count('activities', where({ type: 'ondemand_publish', subject: id })), 1);
      });

      it('publishes due pre-orders seen through lists too, and a new time reschedules', async () => {
        const id = await readyPage(h, alice, film({ name: 'Listed pre-order' }));
        await patch(id, { preorder: { active: true, publish_time: inSeconds(100) } });
        const later = inSeconds(500);
        assert.deepEqual((await patch(id, { preorder: { publish_time: later } })).body.preorder, { active: true, publish_time: later, time: inSeconds(0), cancel_time: null });
        h.clock.advance(200);
        const find = async () =>
          (await h.call('GET', `/users/${alice.user.id}/ondemand/pages?per_page=100`)).body.data.find((p: { uri: string }) => p.uri === `/ondemand/pages/${id}`);
        assert.equal((await find()).published.enabled, false);
        h.clock.advance(300);
        assert.deepEqual((await find()).published, { enabled: true, time: later });
      });

      it("shows a bought pre-order as published in the buyer's purchases once its time comes", async () => {
        const id = await readyPage(h, alice, film({ name: 'Bought early' }));
        const at = inSeconds(600);
        assert.equal((await patch(id, { preorder: { active: true, publish_time: at } })).status, 200);
        assert.equal((await h.call('POST', `/ondemand/pages/${id}/purchases`, { token: bob.token, json: { type: 'buy' } })).status, 201);
        h.clock.advance(601);
        const r = await h.call('GET', '/me/ondemand/purchases', { token: bob.token });
        assert.equal(r.status, 200, r.text);
        const bought = r.body.data.find((p: { uri: string }) => p.uri === `/ondemand/pages/${id}`);
        assert.deepEqual(bought.published, { enabled: true, time: at });
      });

      it('turns a pre-order back into a draft until someone pre-orders it', async () => {
        const id = await readyPage(h, alice);
        const started = inSeconds(0);
        await patch(id, { preorder: { active: true, publish_time: inSeconds(1000) } });
        h.clock.advance(10);
        const r = await patch(id, { preorder: { active: false } });
        assert.equal(r.status, 200);
        assert.deepEqual(r.body.preorder, { active: false, publish_time: inSeconds(990), time: started, cancel_time: inSeconds(0) });
        expectError(await h.call('GET', `/ondemand/pages/${id}`, { token: bob.token }), 404, 5000);
        h.clock.advance(10);
        // A new pre-order starts afresh: nothing called it off (yet).
        assert.deepEqual((await patch(id, { preorder: { active: true } })).body.preorder, { active: true, publish_time: inSeconds(980), time: inSeconds(0), cancel_time: null });
        const bought = await h.call('POST', `/ondemand/pages/${id}/purchases`, { token: bob.token, json: { type: 'buy' } });
        assert.equal(bought.status, 201, bought.text);
        expectError(await patch(id, { preorder: { active: false } }), 400, 2204, 'preorder.active');
        assert.equal((await read(id)).preorder.active, true);
      });
    });

    describe('publish_when_ready', () => {
      /** A real 1 s 320x240 clip: a page waits for its videos to be transcoded. */
      let file: Buffer;
      before(async () => {
        file = await makeClip({ width: 320, height: 240, seconds: 1 });
      });
      const status = async (videoId: string) => (await h.call('GET', `/videos/${videoId}`, { token: alice.token })).body.status;

      it('publishes once the last video of the page is transcoded', async () => {
        const id = await createPage(h, alice);
        await addGenre(h, alice, id);
        const main = await addUploadingVideo(h, alice, id, file.length);
        const trailer = await addUploadingVideo(h, alice, id, file.length, { type: 'trailer' });
        const r = await patch(id, { publish_when_ready: true });
        assert.equal(r.status, 200);
        assert.equal(r.body.publish_when_ready, true);
        assert.equal(r.body.published.enabled, false);
        h.clock.advance(10);
        await sendByTus(main.link, file);
        assert.equal(await status(main.id), 'transcode_starting');
        assert.equal((await read(id)).published.enabled, false, 'the main video is still transcoding');
        assert.equal(await h.settle(), 1);
        assert.equal(await status(main.id), 'available');
        assert.equal((await read(id)).published.enabled, false, 'the trailer is still uploading');
        expectError(await h.call('GET', `/ondemand/pages/${id}`, { token: bob.token }), 404, 5000);
        await sendByTus(trailer.link, file);
        assert.equal((await read(id)).published.enabled, false, 'the trailer is uploaded but still transcoding');
        h.clock.advance(10);
        assert.equal(await h.settle(), 1);
        const page = await read(id, bob);
        assert.deepEqual(page.published, { enabled: true, time: inSeconds(0) });
        expectError(await h.call('DELETE', `/ondemand/pages/${id}`, { token: alice.token }), 403, 3200);
      });

      // SPEC.md: "all videos finished transcoding". A page without a main video is not ready
      // (ondemand-lifecycle.ts, videosReady): the flag never publishes an empty page at once.
      it('waits for a main video, and publishes when an available one is added', async () => {
        const id = await createPage(h, alice);
        await addGenre(h, alice, id);
        await patch(id, { publish_when_ready: true });
        assert.equal((await read(id)).published.enabled, false, 'nothing to sell yet');
        const videoId = await uploadByTus(h, alice.token, file);
        await h.settle();
        assert.equal(await status(videoId), 'available');
        const put = await h.call('PUT', `/ondemand/pages/${id}/videos/${videoId}`, { token: alice.token, json: { type: 'main' } });
        assert.equal(put.status, 200);
        assert.equal((await read(id)).published.enabled, true);
      });

      it('stays a draft when turned off before the videos finish', async () => {
        const id = await createPage(h, alice);
        await addGenre(h, alice, id);
        const main = await addUploadingVideo(h, alice, id, file.length);
        await patch(id, { publish_when_ready: true });
        await patch(id, { publish_when_ready: false });
        await sendByTus(main.link, file);
        await h.settle();
        assert.equal(await status(main.id), 'available');
        assert.equal((await read(id)).published.enabled, false);
      });
    });

    describe('DELETE', () => {
      it('deletes a draft with everything hanging off it: 204, then 404', async () => {
        const id = await readyPage(h, alice);
        await h.call('POST', `/ondemand/pages/${id}/pictures`, { token: alice.token });
        await h.call('PUT', `/ondemand/pages/${id}/regions/DE`, { token: alice.token });
        const promo = await h.call('POST', `/ondemand/pages/${id}/promotions`, {
          token: alice.token,
          json: { type: 'single', total: 5, download: false, stream_period: '1_week', code: 'GONE' },
        });
        assert.equal(promo.status, 200, promo.text);
        const r = await h.call('DELETE', `/ondemand/pages/${id}`, { token: alice.token });
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        expectError(await h.call('GET', `/ondemand/pages/${id}`, { token: alice.token }), 404, 5000);
        const store = h.service.store;
        for (const collection of ['ondemand_page_genres', 'ondemand_regions', 'ondemand_videos', 'ondemand_promotions', 'ondemand_promo_codes']) {
          assert.equal(await store.count(collection, { field: 'page_id', op: 'eq', value: id }), 0, collection);
        }
        assert.equal(await store.count('pictures', { field: 'owner_id', op: 'eq', value: id }), 0);
      });

      it('403 for a published page or another user’s page, 404 for a missing one or another user’s draft', async () => {
        const published = await publishedPage(h, alice);
        expectError(await h.call('DELETE', `/ondemand/pages/${published}`, { token: alice.token }), 403, 3200);
        expectError(await h.call('DELETE', `/ondemand/pages/${published}`, { token: bob.token }), 403, 3200);
        const draft = await createPage(h, alice);
        expectError(await h.call('DELETE', `/ondemand/pages/${draft}`, { token: bob.token }), 404, 5000);
        expectError(await h.call('DELETE', '/ondemand/pages/999999', { token: alice.token }), 404, 5000);
        const noDelete = await h.call('DELETE', `/ondemand/pages/${draft}`, { token: (await h.user('NoDelete', 'public,edit')).token });
        expectError(noDelete, 403, 3200);
        assert.equal((await read(draft)).uri, `/ondemand/pages/${draft}`);
      });
    });
  });
}
