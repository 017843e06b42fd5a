import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeImage, putFile, type Answer, type Fixture } from '../src/index';
import { appoint, createChannel, subscribe } from '../src/channels';
import { addGenre, addPageVideo, createPage, film, publishedPage, series } from '../src/ondemand';

/**
 * The hosted API's published required fields of channels, albums and On Demand pages (issue 22,
 * item 2), each with its exact value: what the store holds, the empty form where reelbase has no
 * such feature, interactions true for the viewer (owner, another user, nobody) and connections
 * whose `total` is what their `uri` lists.
 */

const ok = (r: Answer, status = 200) => {
  assert.equal(r.status, status, `${status} expected: ${r.text.slice(0, 300)}`);
  return r.body;
};

for (const driver of drivers) {
  describe(`published fields of collections (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    const get = async (path: string, who: Fixture | null, version?: string) => ok(await h.call('GET', path, { token: who?.token, version }));

    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
    });
    after(() => h.stop());

    describe('Channel', () => {
      let channel: string;
      let uri: string;
      before(async () => {
        channel = await createChannel(h, alice, 'Published');
        uri = `/channels/${channel}`;
        await appoint(h, alice, channel, carol);
        await subscribe(h, bob, channel);
      });
      const interactions = async (who: Fixture | null) => (await get(uri, who)).metadata.interactions;

      it("owner: may add moderators and moderate videos; follows as a moderator", async () => {
        assert.deepEqual(await interactions(alice), {
          add_moderators: { uri: `${uri}/moderators`, options: ['GET', 'PUT', 'PATCH', 'DELETE'] },
          moderate_videos: { uri: `${uri}/videos`, options: ['GET', 'PUT', 'DELETE'] },
          add_to: null,
          follow: { uri: `/users/${alice.user.id}/channels/${channel}`, options: ['GET', 'PUT', 'DELETE'], added: true, added_time: '2026-01-02T03:04:05+00:00', type: 'moderator' },
        });
      });

      it('a moderator who does not follow: moderates videos only, and is a moderator all the same', async () => {
        const seen = await interactions(carol);
        assert.deepEqual(seen.add_moderators.options, ['GET']);
        assert.deepEqual(seen.moderate_videos.options, ['GET', 'PUT', 'DELETE']);
        assert.deepEqual(seen.follow, { uri: `/users/${carol.user.id}/channels/${channel}`, options: ['GET', 'PUT', 'DELETE'], added: false, added_time: null, type: 'moderator' });
        // What the options say holds: a moderator may add a video, and may not add moderators.
        assert.equal((await h.call('PUT', `${uri}/videos/${await h.video(carol)}`, { token: carol.token })).status, 204);
        expectError(await h.call('PUT', `${uri}/moderators/${bob.user.id}`, { token: carol.token }), 403, 3200);
      });

      it('a subscriber: follows as a subscriber and may do nothing else; a stranger is neither', async () => {
        const seen = await interactions(bob);
        assert.deepEqual([seen.add_moderators.options, seen.moderate_videos.options, seen.add_to], [['GET'], ['GET'], null]);
        assert.equal(seen.follow.type, 'subscriber');
        assert.equal(seen.follow.added, true);
        const stranger = await h.user('Stranger');
        const theirs = await interactions(stranger);
        assert.deepEqual([theirs.follow.added, theirs.follow.type], [false, null]);
        expectError(await h.call('PUT', `${uri}/videos/${await h.video(bob)}`, { token: bob.token }), 403, 3200);
      });

      it('nobody: the lists to read, and no follow (there is nobody to follow as)', async () => {
        assert.deepEqual(await interactions(null), {
          add_moderators: { uri: `${uri}/moderators`, options: ['GET'] },
          moderate_videos: { uri: `${uri}/videos`, options: ['GET'] },
          add_to: null,
        });
      });

      it('privacy_users: the view list of a users channel, with its exact total; empty and taking no method elsewhere', async () => {
        assert.deepEqual((await get(uri, alice)).metadata.connections.privacy_users, { uri: `${uri}/privacy/users`, options: [], total: 0 });
        const listed = await createChannel(h, alice, 'Listed', { privacy: 'user' });
        ok(await h.call('PUT', `/channels/${listed}/privacy/users`, { token: alice.token, json: { users: [`/users/${bob.user.id}`, carol.user.id] } }));
        const connection = { uri: `/channels/${listed}/privacy/users`, options: ['GET', 'PUT'], total: 2 };
        assert.deepEqual((await get(`/channels/${listed}`, alice)).metadata.connections.privacy_users, connection);
        assert.deepEqual((await get(`/channels/${listed}`, bob)).metadata.connections.privacy_users, connection, 'the same for someone on the list');
        assert.equal((await get(connection.uri, alice)).total, 2);
        // Made public, the channel has no list to show (its operations answer 404/2204), whatever rows remain.
        ok(await h.call('PATCH', `/channels/${listed}`, { token: alice.token, json: { privacy: 'anybody' } }));
        assert.deepEqual((await get(`/channels/${listed}`, alice)).metadata.connections.privacy_users, { ...connection, options: [], total: 0 });
        expectError(await h.call('GET', connection.uri, { token: alice.token }), 404, 2204);
      });

      it('add_to: on the channels a video may be added to, what the viewer may do with that video in each', async () => {
        const mine = await createChannel(h, carol, 'Carols own');
        const video = await h.video(bob, { name: 'Addable' });
        // Carol put this one in her channel before its owner locked others out.
        const locked = await h.video(bob, { name: 'Locked' });
        assert.equal((await h.call('PUT', `/channels/${mine}/videos/${locked}`, { token: carol.token })).status, 204);
        ok(await h.call('PATCH', `/videos/${locked}`, { token: bob.token, json: { privacy: { add: false } } }));
        const addTo = async (v: string) =>
          Object.fromEntries(
            (await get(`/videos/${v}/available_channels`, carol)).data.map((c: { uri: string; metadata: { interactions: { add_to: unknown } } }) => [c.uri, c.metadata.interactions.add_to]),
          );
        assert.deepEqual(await addTo(video), {
          [uri]: { uri: `${uri}/videos/${video}`, options: ['PUT'] },
          [`/channels/${mine}`]: { uri: `/channels/${mine}/videos/${video}`, options: ['PUT'] },
        });
        assert.equal((await h.call('PUT', `/channels/${mine}/videos/${video}`, { token: carol.token })).status, 204);
        assert.deepEqual((await addTo(video))[`/channels/${mine}`], { uri: `/channels/${mine}/videos/${video}`, options: ['GET', 'PUT', 'DELETE'] });
        assert.equal((await h.call('GET', `/channels/${mine}/videos/${video}`, { token: carol.token })).status, 200);
        assert.deepEqual(await addTo(locked), { [`/channels/${mine}`]: { uri: `/channels/${mine}/videos/${locked}`, options: ['GET', 'DELETE'] } });
        expectError(await h.call('PUT', `/channels/${mine}/videos/${locked}`, { token: carol.token }), 403, 3200);
        assert.equal((await h.call('DELETE', `/channels/${mine}/videos/${locked}`, { token: carol.token })).status, 204);
      });

      it('versions: the new connection and interactions come with metadata (3.2); 3.1 has none', async () => {
        const v32 = await get(uri, alice, '3.2');
        assert.equal(v32.metadata.connections.privacy_users.total, 0);
        assert.equal(v32.metadata.interactions.follow.type, 'moderator');
        assert.equal((await get(uri, alice, '3.1')).metadata, undefined);
      });
    });

    describe('Album', () => {
      let album: string;
      before(async () => {
        album = ok(await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Showcase', description: '' } }), 201).uri;
      });

      it("another user and nobody: the album's actions are the owner's; they may only list its videos", async () => {
        for (const who of [bob, null]) {
          assert.deepEqual((await get(album, who)).metadata.interactions, {
            add_videos: { uri: `${album}/videos`, options: ['GET'] },
            add_logos: { uri: `${album}/logos`, options: [] },
            add_custom_thumbnails: { uri: `${album}/custom_thumbnails`, options: [] },
            add_to: null,
          });
        }
        expectError(await h.call('POST', `${album}/logos`, { token: bob.token }), 403, 3200);
        expectError(await h.call('POST', `${album}/custom_thumbnails`, { token: bob.token }), 403, 3200);
      });

      it('the custom domain: stored in lower case, opted in only with one, removed with an empty string', async () => {
        const patch = (json: Record<string, unknown>) => h.call('PATCH', album, { token: alice.token, json });
        expectError(await patch({ use_custom_domain: true }), 400, 2204, 'use_custom_domain');
        expectError(await patch({ domain: 'not a domain' }), 400, 2204, 'domain');
        let r = ok(await patch({ domain: 'Showcase.Example.com', use_custom_domain: true }));
        assert.deepEqual([r.domain, r.use_custom_domain], ['showcase.example.com', true]);
        r = await get(album, bob);
        assert.deepEqual([r.domain, r.use_custom_domain, r.url], ['showcase.example.com', true, null]);
        r = ok(await patch({ use_custom_domain: false }));
        assert.deepEqual([r.domain, r.use_custom_domain], ['showcase.example.com', false]);
        r = ok(await patch({ use_custom_domain: true }));
        assert.equal(r.use_custom_domain, true, 'the stored domain is enough');
        r = ok(await patch({ domain: '' }));
        assert.deepEqual([r.domain, r.use_custom_domain], [null, false]);
      });

      it('the brand colour: shown in the album player (embed_brand_color) once set', async () => {
        assert.equal((await get(album, bob)).embed_brand_color, false);
        const r = ok(await h.call('PATCH', album, { token: alice.token, json: { brand_color: '#AA3300' } }));
        assert.deepEqual([r.brand_color, r.embed_brand_color, r.web_brand_color], ['#aa3300', true, false]);
      });

      it("custom_logo is the active logo; the player shows it (embed_custom_logo) once it has an image", async () => {
        const logo = ok(await h.call('POST', `${album}/logos`, { token: alice.token }), 201);
        assert.equal((await get(album, bob)).custom_logo, null, 'an inactive logo is not the custom logo');
        ok(await h.call('PATCH', logo.uri, { token: alice.token, json: { active: true } }));
        let seen = await get(album, bob);
        assert.deepEqual([seen.custom_logo.uri, seen.custom_logo.active, seen.custom_logo.type, seen.embed_custom_logo], [logo.uri, true, 'custom', false]);
        assert.equal((await putFile(logo.link, await makeImage('png', 400, 225), alice.token, 'image/png')).status < 300, true);
        seen = await get(album, bob);
        assert.equal(seen.embed_custom_logo, true);
        assert.match(seen.custom_logo.link, /\/media\/pictures\/\d+\/u1-/, 'the uploaded image');
        assert.deepEqual((await get(album, alice)).custom_logo, await get(logo.uri, alice), 'the logo as its own address answers it');
        assert.equal((await h.call('DELETE', logo.uri, { token: alice.token })).status, 204);
        seen = await get(album, bob);
        assert.deepEqual([seen.custom_logo, seen.embed_custom_logo], [null, false]);
      });

      it("custom thumbnails: the owner's, like logos; the active one is the album's picture", async () => {
        const thumbnails = `${album}/custom_thumbnails`;
        const first = ok(await h.call('POST', thumbnails, { token: alice.token }), 201);
        assert.match(first.uri, new RegExp(`^${thumbnails}/\\d+$`));
        assert.deepEqual([first.active, first.type], [false, 'custom']);
        h.clock.advance(1);
        const second = ok(await h.call('POST', thumbnails, { token: alice.token }), 201);
        const list = await get(thumbnails, alice);
        assert.deepEqual([list.total, list.data.map((p: { uri: string }) => p.uri)], [2, [second.uri, first.uri]]);
        assert.equal((await get(album, bob)).pictures.type, 'default');
        ok(await h.call('PATCH', first.uri, { token: alice.token, json: { active: true } }));
        ok(await h.call('PATCH', second.uri, { token: alice.token, json: { active: true } }));
        assert.deepEqual((await get(thumbnails, alice)).data.map((p: { active: boolean }) => p.active), [true, false], 'one active at a time');
        const pictures = (await get(album, bob)).pictures;
        assert.deepEqual([pictures.uri, pictures.active, pictures.type], [second.uri, true, 'custom']);
        assert.equal((await get(album, bob)).custom_logo, null, 'a thumbnail is no logo');
        expectError(await h.call('GET', second.uri, { token: bob.token }), 403, 3200);
        expectError(await h.call('GET', second.uri.replace('custom_thumbnails', 'logos'), { token: alice.token }), 404, 5000);
        assert.equal((await h.call('DELETE', second.uri, { token: alice.token })).status, 204);
        assert.equal((await get(album, bob)).pictures.type, 'default', 'the placeholder again');
        expectError(await h.call('GET', second.uri, { token: alice.token }), 404, 5000);
      });

      it('deleting the album deletes its logos and custom thumbnails', async () => {
        const doomed = ok(await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Doomed', description: '' } }), 201).uri;
        const thumbnail = ok(await h.call('POST', `${doomed}/custom_thumbnails`, { token: alice.token }), 201);
        const logo = ok(await h.call('POST', `${doomed}/logos`, { token: alice.token }), 201);
        assert.equal((await h.call('DELETE', doomed, { token: alice.token })).status, 204);
        for (const picture of [thumbnail, logo]) assert.equal(await h.service.store.get('pictures', picture.uri.split('/').pop()), null);
      });

      it("the player's fixed settings, a password album without embed code, and 3.1 without metadata", async () => {
        const seen = await get(album, null);
        assert.deepEqual(
          [seen.autoplay, seen.loop, seen.allow_continuous_play, seen.allow_downloads, seen.allow_share, seen.hide_vimeo_logo, seen.web_custom_logo],
          [false, false, true, false, false, true, false],
        );
        assert.equal(seen.share_link, `${h.server.url}/albums/${album.split('/').pop()}/embed`);
        assert.ok(seen.embed.html.startsWith(`<iframe src="${seen.share_link}" `));
        const locked = ok(await h.call('POST', '/me/albums', { token: alice.token, json: { name: 'Locked', description: '', privacy: 'password', password: 'pw' } }), 201);
        assert.equal(locked.embed.html, null);
        const old = await get(album, alice, '3.1');
        assert.equal(old.metadata, undefined);
        assert.deepEqual([old.share_link, old.custom_logo, old.hide_vimeo_logo], [seen.share_link, null, true], 'no version names these fields: every one has them');
      });
    });

    describe('On Demand page', () => {
      let id: string;
      let uri: string;
      let main: string;
      let hiddenExtra: string;
      let trailer: string;
      before(async () => {
        id = await publishedPage(h, alice, film({ subscription: { monthly: { active: true, price: { USD: 5 } } } }));
        uri = `/ondemand/pages/${id}`;
        [main] = (await get(`${uri}/videos`, alice)).data.map((v: { uri: string }) => v.uri.split('/').pop());
        hiddenExtra = await h.video(alice, { name: 'Hidden extra', privacy: { view: 'nobody' } });
        ok(await h.call('PUT', `${uri}/videos/${hiddenExtra}`, { token: alice.token, json: { type: 'extra' } }));
        trailer = await addPageVideo(h, alice, id, { type: 'trailer' });
        await addGenre(h, alice, id, 'comedy');
        // Bob likes and comments on the main video; Carol on the extra only its owner may see.
        assert.equal((await h.call('PUT', `/me/likes/${main}`, { token: bob.token })).status, 204);
        ok(await h.call('POST', `/videos/${main}/comments`, { token: bob.token, json: { text: 'Great film' } }), 201);
        ok(await h.call('POST', `/videos/${hiddenExtra}/comments`, { token: alice.token, json: { text: 'Note to self' } }), 201);
        await h.service.store.insert('likes', { user_id: carol.user.id, video_id: hiddenExtra, created_time: '2026-01-02T03:04:05+00:00' });
      });

      it('the empty forms of what reelbase has no feature for, and a film that sells no episodes', async () => {
        const page = await get(uri, bob);
        assert.deepEqual(
          { colors: page.colors, theme: page.theme, rating: page.rating, thumbnail: page.thumbnail, episodes: page.episodes },
          {
            colors: { primary: null, secondary: null },
            theme: null,
            rating: null,
            thumbnail: null,
            episodes: { buy: { active: false, download: false, price: {} }, rent: { active: false, period: null, price: {} } },
          },
        );
      });

      it('subscription: active and priced as the page offers it, sold at the page', async () => {
        assert.deepEqual((await get(uri, bob)).subscription, {
          monthly: { active: true, price: { USD: 5 } },
          active: true,
          price: { USD: 5 },
          link: `${h.server.url}/ondemand/pages/${id}`,
        });
      });

      it('trailer: the trailer video as a Clip (the On Demand Video before 3.4), null for a viewer who may not see it', async () => {
        const page = await get(uri, bob);
        assert.equal(page.trailer.uri, `/videos/${trailer}`);
        assert.equal(page.trailer.ondemand.type, 'trailer');
        assert.deepEqual(page.trailer, await get(`${uri}/videos/${trailer}`, bob));
        const v33 = await get(uri, bob, '3.3');
        assert.deepEqual([v33.trailer.uri, v33.trailer.type, v33.trailer.video.uri], [`${uri}/videos/${trailer}`, 'trailer', `/videos/${trailer}`]);
        ok(await h.call('PATCH', `/videos/${trailer}`, { token: alice.token, json: { privacy: { view: 'nobody' } } }));
        assert.equal((await get(uri, bob)).trailer, null);
        assert.equal((await get(uri, alice)).trailer.uri, `/videos/${trailer}`);
        ok(await h.call('PATCH', `/videos/${trailer}`, { token: alice.token, json: { privacy: { view: 'anybody' } } }));
        const noTrailer = await publishedPage(h, alice, series());
        assert.equal((await get(`/ondemand/pages/${noTrailer}`, bob)).trailer, null);
      });

      it("the doubled connections: each total what its list gives this viewer", async () => {
        const expected = (viewable: number, likes: number, comments: number, owner: boolean) => ({
          videos: { uri: `${uri}/videos`, options: ['GET'], total: 3, main_total: 1, extra_total: 1, viewable_total: viewable },
          genres: { uri: `${uri}/genres`, options: ['GET'], total: 2 },
          likes: { uri: `${uri}/likes`, options: ['GET'], total: likes },
          comments: { uri: `${uri}/comments`, options: ['GET'], total: comments },
          pictures: { uri: `${uri}/pictures`, options: owner ? ['GET', 'POST'] : ['GET'], total: 0 },
          seasons: { uri: `${uri}/seasons`, options: ['GET'], total: 0 },
        });
        for (const [who, [viewable, likes, comments]] of [
          [alice, [3, 2, 2]],
          [bob, [2, 1, 1]],
          [null, [2, 1, 1]],
        ] as const) {
          const connections = (await get(uri, who)).metadata.connections.metadata.connections;
          assert.deepEqual(connections, expected(viewable, likes, comments, who === alice));
          for (const [name, total] of [['videos', viewable], ['genres', 2], ['likes', likes], ['comments', comments], ['seasons', 0]] as const) {
            assert.equal((await get(`${uri}/${name}`, who)).total, total, `${name} as ${who?.user.name ?? 'nobody'}`);
          }
        }
        const comments = await get(`${uri}/comments`, bob);
        assert.deepEqual(comments.data.map((c: { text: string; uri: string }) => [c.text, c.uri.split('/comments/')[0]]), [['Great film', `/videos/${main}`]]);
      });

      it("genres: each says it is the page's, and what the viewer may do about it; GET checks one", async () => {
        const genre = (name: string, options: string[]) => ({ page: { uri: `${uri}/genres/${name}`, options, added: true } });
        assert.deepEqual((await get(uri, alice)).genres.map((g: { interactions: unknown }) => g.interactions), [genre('drama', ['GET', 'PUT', 'DELETE']), genre('comedy', ['GET', 'PUT', 'DELETE'])]);
        assert.deepEqual((await get(uri, bob)).genres.map((g: { interactions: unknown }) => g.interactions), [genre('drama', ['GET']), genre('comedy', ['GET'])]);
        const list = await get(`${uri}/genres`, null);
        assert.deepEqual([list.total, list.data.map((g: { canonical: string }) => g.canonical)], [2, ['drama', 'comedy']]);
        assert.equal((await get(`${uri}/genres/comedy`, null)).canonical, 'comedy');
        expectError(await h.call('GET', `${uri}/genres/horror`), 404, 5000);
        expectError(await h.call('GET', `${uri}/genres/no-such-genre`), 404, 5000);
        assert.equal((await get('/ondemand/genres/comedy', alice)).interactions, undefined, 'off a page a genre has no page to speak of');
        assert.equal((await get(uri, alice, '3.2')).genres[0].interactions, undefined, 'an On Demand field of 3.3');
      });

      it("a draft's lists answer only its owner", async () => {
        const draft = await createPage(h, alice);
        for (const list of ['genres', 'comments']) {
          assert.equal((await get(`/ondemand/pages/${draft}/${list}`, alice)).total, 0);
          expectError(await h.call('GET', `/ondemand/pages/${draft}/${list}`, { token: bob.token }), 404, 5000);
        }
      });
    });
  });
}
