import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, type Fixture } from '../src/index';
import { addGenre, addPageVideo, createPage, film, series } from '../src/ondemand';

/**
 * The Clip's fields of the hosted API's published description that reelbase added (issue 22,
 * item 2): each with its real value for the caller, or its documented empty form.
 */
for (const driver of drivers) {
  describe(`the Clip's published fields (${driver.name})`, () => {
    let h: Harness;
    let owner: Fixture;
    let other: Fixture;
    let video: string;
    before(async () => {
      h = await Harness.start(driver);
      owner = await h.user('Owner');
      other = await h.user('Other');
      video = await h.video(owner, { name: 'Plain' });
    });
    after(() => h.stop());

    const clip = async (id: string, token?: string, version?: string) => {
      const r = await h.call('GET', `/videos/${id}`, { token, version });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('context: uploaded by its owner', async () => {
      for (const token of [undefined, other.token, owner.token]) {
        assert.deepEqual((await clip(video, token)).context, {
          action: 'Uploaded by',
          resource: { uri: `/users/${owner.user.id}`, name: 'Owner', link: `${h.server.url}/users/${owner.user.id}` },
          resource_type: 'user',
        });
      }
    });

    it('embed: logos.vimeo is the service logo, speed comes with the playbar', async () => {
      let embed = (await clip(video)).embed;
      assert.equal(embed.logos.vimeo, true);
      assert.equal(embed.logos.service, true);
      assert.equal(embed.speed, true);
      const r = await h.call('PATCH', `/videos/${video}`, { token: owner.token, json: { embed: { logos: { service: false }, playbar: false } } });
      assert.equal(r.status, 200, r.text);
      embed = (await clip(video)).embed;
      assert.deepEqual([embed.logos.vimeo, embed.logos.service, embed.speed], [false, false, false]);
    });

    it('connections.playback answers the playback of the video to whoever may see it', async () => {
      const connection = (await clip(video, other.token)).metadata.connections.playback;
      assert.deepEqual(connection, { uri: `/videos/${video}/playback`, options: ['GET'] });
      for (const token of [undefined, other.token]) {
        const r = await h.call('GET', connection.uri, { token });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body, { status: 'unavailable', progressive: [], hls: null, storyboard: null });
      }
      const hidden = await h.video(owner, { privacy: { view: 'nobody' } });
      expectError(await h.call('GET', `/videos/${hidden}/playback`, { token: other.token }), 404, 5000);
      assert.equal((await h.call('GET', `/videos/${hidden}/playback`, { token: owner.token })).status, 200);
    });

    it("connections.related is the recommendations list from 3.3, null before", async () => {
      assert.deepEqual((await clip(video)).metadata.connections.related, { uri: `/videos/${video}/recommendations`, options: ['GET'] });
      assert.equal((await clip(video, undefined, '3.2')).metadata.connections.related, null);
      assert.equal((await h.call('GET', `/videos/${video}/recommendations`)).status, 200);
    });

    it("connections.available_albums counts and lists the caller's albums the video may be added to", async () => {
      const total = async (token?: string) => (await clip(video, token)).metadata.connections.available_albums;
      assert.deepEqual(await total(), { uri: `/videos/${video}/available_albums`, options: ['GET'], total: 0 });
      assert.equal((await total(other.token)).total, 0);
      for (const name of ['One', 'Two']) assert.equal((await h.call('POST', '/me/albums', { token: other.token, json: { name, description: 'd' } })).status, 201);
      assert.equal((await h.call('POST', '/me/albums', { token: owner.token, json: { name: 'Mine', description: 'd' } })).status, 201);
      assert.equal((await total(other.token)).total, 2);
      assert.equal((await total(owner.token)).total, 1);
      const listed = await h.call('GET', `/videos/${video}/available_albums?sort=alphabetical`, { token: other.token });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.data.map((a: { name: string }) => a.name),
        ['One', 'Two'],
      );
      assert.equal(listed.body.total, 2);
      // Where the owner does not let others add it, the stranger may add it to none of theirs.
      assert.equal((await h.call('PATCH', `/videos/${video}`, { token: owner.token, json: { privacy: { add: false } } })).status, 200);
      assert.equal((await total(other.token)).total, 0);
      const none = await h.call('GET', `/videos/${video}/available_albums`, { token: other.token });
      assert.deepEqual([none.status, none.body.total, none.body.data], [200, 0, []]);
      assert.equal((await total(owner.token)).total, 1);
      expectError(await h.call('GET', `/videos/${video}/available_albums`), 401, 8003);
      await h.call('PATCH', `/videos/${video}`, { token: owner.token, json: { privacy: { add: true } } });
    });

    it('interactions: no channel context, reporting in its empty form; none at all for nobody', async () => {
      const interactions = (await clip(video, other.token)).metadata.interactions;
      assert.equal(interactions.channel, null);
      assert.deepEqual(interactions.report, { uri: null, options: [], reason: [] });
      assert.equal(interactions.buy, null);
      assert.equal(interactions.rent, null);
      assert.deepEqual((await clip(video)).metadata.interactions, {});
    });

    it('a video on no On Demand page has null ondemand, season and trailer connections', async () => {
      const { connections } = (await clip(video, owner.token)).metadata;
      assert.deepEqual([connections.ondemand, connections.season, connections.trailer], [null, null, null]);
    });

    describe('a video on an On Demand page', () => {
      let page: string;
      let episode: string;
      let trailer: string;
      before(async () => {
        page = await createPage(h, owner, series({ buy: { active: true, price: { USD: 12 } } }));
        await addGenre(h, owner, page);
        episode = await addPageVideo(h, owner, page, { type: 'main', season: 1, buy: { price: { USD: 2.5 } } });
      });

      it('names its page and season to the owner while the page is a draft, and to nobody else', async () => {
        const { connections } = (await clip(episode, owner.token)).metadata;
        assert.equal(connections.ondemand.uri, `/ondemand/pages/${page}`);
        assert.deepEqual(connections.ondemand.options, ['GET']);
        assert.match(connections.ondemand.resource_key, /^[0-9a-f]{40}$/);
        assert.equal(connections.season.name, 'Season 1');
        assert.match(connections.season.uri, new RegExp(`^/ondemand/pages/${page}/seasons/\\d+$`));
        assert.equal(connections.trailer, null);
        for (const uri of [connections.ondemand.uri, connections.season.uri]) assert.equal((await h.call('GET', uri, { token: owner.token })).status, 200, uri);
        const others = (await clip(episode, other.token)).metadata;
        assert.deepEqual([others.connections.ondemand, others.connections.season, others.interactions.buy], [null, null, null]);
      });

      it('once published: the page, season and trailer to everybody, and what buying or renting it means to this viewer', async () => {
        trailer = await addPageVideo(h, owner, page, { type: 'trailer' });
        const published = await h.call('PATCH', `/ondemand/pages/${page}`, { token: owner.token, json: { publish: { active: true } } });
        assert.equal(published.status, 200, published.text);
        const { connections, interactions } = (await clip(episode, other.token)).metadata;
        assert.equal(connections.ondemand.uri, `/ondemand/pages/${page}`);
        assert.equal(connections.season.name, 'Season 1');
        assert.deepEqual(connections.trailer, { uri: `/ondemand/pages/${page}/videos/${trailer}`, options: ['GET'], resource_key: connections.trailer.resource_key });
        for (const uri of [connections.ondemand.uri, connections.season.uri, connections.trailer.uri]) assert.equal((await h.call('GET', uri, { token: other.token })).status, 200, uri);
        const link = `${h.server.url}/ondemand/pages/${page}`;
        assert.deepEqual(interactions.buy, {
          uri: `/ondemand/pages/${page}/purchases`,
          options: ['POST'],
          link,
          price: 2.5,
          display_price: '2.50',
          currency: 'USD',
          drm: false,
          purchase_time: null,
          stream: 'available',
          download: 'unavailable',
        });
        assert.deepEqual(interactions.rent, {
          uri: `/ondemand/pages/${page}/purchases`,
          options: ['POST'],
          link,
          price: 3,
          display_price: '3.00',
          currency: 'USD',
          drm: false,
          purchase_time: null,
          stream: 'available',
          expires_time: null,
        });
        // The owner does not buy their own page.
        assert.deepEqual((await clip(episode, owner.token)).metadata.interactions.buy.options, []);
      });

      it("the viewer's purchase shows in their next read of the video", async () => {
        const bought = await h.call('POST', `/ondemand/pages/${page}/purchases`, { token: other.token, json: { type: 'rent' } });
        assert.equal(bought.status, 201, bought.text);
        const { rent, buy } = (await clip(episode, other.token)).metadata.interactions;
        assert.equal(rent.stream, 'purchased');
        assert.equal(rent.purchase_time, bought.body.metadata.interactions.rent.purchase_time);
        assert.equal(rent.expires_time, bought.body.metadata.interactions.rent.expires_time);
        assert.equal(buy.stream, 'available');
        // Another viewer has bought nothing.
        const third = await h.user('Third');
        assert.equal((await clip(episode, third.token)).metadata.interactions.rent.stream, 'available');
        // Read a second before the rental runs out and a second after, with nothing stored changed
        // (and within one day, whose links a Clip's base is built for): a remembered Clip does not outlive it.
        h.clock.advance((Date.parse(rent.expires_time) - h.clock.now().getTime()) / 1000 - 1);
        assert.equal((await clip(episode, other.token)).metadata.interactions.rent.stream, 'purchased');
        h.clock.advance(2);
        const expired = (await clip(episode, other.token)).metadata.interactions.rent;
        assert.deepEqual([expired.stream, expired.expires_time], ['available', rent.expires_time]);
      });

      it('follows the video off and back onto its page, and off a deleted page; a video stored before it said where it was is looked up', async () => {
        const connections = async (id: string) => (await clip(id, owner.token)).metadata.connections;
        const again = await addPageVideo(h, owner, page, { type: 'extra' });
        assert.equal((await connections(again)).ondemand.uri, `/ondemand/pages/${page}`);
        assert.equal((await h.call('DELETE', `/ondemand/pages/${page}/videos/${again}`, { token: owner.token })).status, 204);
        assert.equal((await connections(again)).ondemand, null);
        assert.equal((await h.call('PUT', `/ondemand/pages/${page}/videos/${again}`, { token: owner.token, json: { type: 'extra' } })).status, 200);
        assert.equal((await connections(again)).ondemand.uri, `/ondemand/pages/${page}`);
        // As a store written before videos named their page keeps them.
        await h.service.store.update('videos', again, { ondemand_page_id: undefined });
        assert.equal('ondemand_page_id' in (await h.service.store.get('videos', again))!, false);
        assert.equal((await connections(again)).ondemand.uri, `/ondemand/pages/${page}`);
        const doomed = await createPage(h, owner, film());
        const onDoomed = await addPageVideo(h, owner, doomed);
        assert.equal((await connections(onDoomed)).ondemand.uri, `/ondemand/pages/${doomed}`);
        assert.equal((await h.call('DELETE', `/ondemand/pages/${doomed}`, { token: owner.token })).status, 204);
        assert.equal((await connections(onDoomed)).ondemand, null);
        assert.equal((await h.service.store.get<{ ondemand_page_id: string | null } & { id: string }>('videos', onDoomed))!.ondemand_page_id, null);
      });

      it('a page that does not offer a kind of purchase has none to show', async () => {
        const filmPage = await createPage(h, owner, film());
        const main = await addPageVideo(h, owner, filmPage);
        const { interactions } = (await clip(main, owner.token)).metadata;
        assert.equal(interactions.rent, null);
        assert.equal(interactions.buy.price, 9.99);
        // A draft sells nothing yet.
        assert.equal(interactions.buy.stream, 'unavailable');
      });
    });
  });
}
