import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from '@reelbase/core';
import { drivers, expectError, Harness, type Answer, type Fixture } from '../src/index';

const spamWords = ['viagra', 'free money'];

for (const driver of drivers) {
  describe(`video comments and replies (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let carol: Fixture;
    let video: string;
    /** The Clip's comments total, as its owner sees it. */
    const clipTotal = async (id: string): Promise<number> =>
      (await h.call('GET', `/videos/${id}`, { token: alice.token })).body.metadata.connections.comments.total;
    const post = async (who: Fixture, id: string, text: string): Promise<Answer['body']> => {
      const r = await h.call('POST', `/videos/${id}/comments`, { token: who.token, json: { text } });
      assert.equal(r.status, 201, r.text);
      h.clock.advance(1);
      return r.body;
    };
    const reply = async (who: Fixture, commentUri: string, text: string): Promise<Answer['body']> => {
      const r = await h.call('POST', `${commentUri}/replies`, { token: who.token, json: { text } });
      assert.equal(r.status, 201, r.text);
      h.clock.advance(1);
      return r.body;
    };
    const texts = (r: Answer): string[] => r.body.data.map((c: { text: string }) => c.text);

    before(async () => {
      h = await Harness.start(driver, { spamWords });
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      carol = await h.user('Carol');
      video = await h.video(alice);
    });
    after(() => h.stop());

    describe('POST /videos/{video_id}/comments', () => {
      it('answers 201 with the Comment and counts it on the Clip', async () => {
        const vid = await h.video(alice);
        const at = h.clock.now();
        const r = await h.call('POST', `/videos/${vid}/comments`, { token: bob.token, json: { text: '  Lovely light  ' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.comment+json;version=3.4');
        const c = r.body;
        const id = c.uri.split('/').pop();
        assert.match(c.uri, new RegExp(`^/videos/${vid}/comments/\\d+$`));
        assert.equal(c.type, 'comment');
        assert.equal(c.text, 'Lovely light');
        assert.equal(c.created_on, at.toISOString().replace('.000Z', '+00:00'));
        assert.equal(c.link, `${h.server.url}/videos/${vid}#comment_${id}`);
        assert.equal(c.user.uri, `/users/${bob.user.id}`);
        assert.equal(c.user.name, 'Bob');
        assert.match(c.resource_key, /^[0-9a-f]{40}$/);
        assert.deepEqual(c.metadata, { connections: { replies: { uri: `${c.uri}/replies`, options: ['GET', 'POST'], total: 0 } } });
        assert.equal(await clipTotal(vid), 1);
        const clip = await h.call('GET', `/videos/${vid}`);
        assert.deepEqual(clip.body.metadata.connections.comments, { uri: `/videos/${vid}/comments`, options: ['GET', 'POST'], total: 1 });
      });

      it('reads a urlencoded body too', async () => {
        const r = await h.call('POST', `/videos/${video}/comments`, { token: bob.token, form: { text: 'From a form' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.text, 'From a form');
      });

      it('answers 400/2207 when text is missing or blank, and adds nothing', async () => {
        const before = await clipTotal(video);
        for (const json of [{}, { text: '' }, { text: ' \n\t ' }]) {
          expectError(await h.call('POST', `/videos/${video}/comments`, { token: bob.token, json }), 400, 2207, 'text');
        }
        expectError(await h.call('POST', `/videos/${video}/comments`, { token: bob.token, form: { text: '' } }), 400, 2207, 'text');
        assert.equal(await clipTotal(video), before);
      });

      it('answers 400/2204 naming text when it is not a string or too long', async () => {
        expectError(await h.call('POST', `/videos/${video}/comments`, { token: bob.token, json: { text: 12 } }), 400, 2204, 'text');
        expectError(await h.call('POST', `/videos/${video}/comments`, { token: bob.token, json: { text: 'x'.repeat(10_001) } }), 400, 2204, 'text');
        expectError(await h.call('POST', `/videos/${video}/comments`, { token: bob.token, raw: '[1,2]', headers: { 'content-type': 'application/json' } }), 400, 2205);
      });

      it('answers 401/8003 to an anonymous caller or a bad token, 8000 before 3.4', async () => {
        expectError(await h.call('POST', `/videos/${video}/comments`, { json: { text: 'hi' } }), 401, 8003);
        const bad = await h.call('POST', `/videos/${video}/comments`, { token: 'not-a-token', json: { text: 'hi' } });
        expectError(bad, 401, 8003);
        assert.equal(bad.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
        for (const version of ['3.3', '3.2', '3.1']) {
          expectError(await h.call('POST', `/videos/${video}/comments`, { json: { text: 'hi' }, version }), 401, 8000);
          expectError(await h.call('POST', `/videos/${video}/comments`, { token: 'not-a-token', json: { text: 'hi' }, version }), 401, 8000);
        }
        expectError(await h.call('GET', `/videos/${video}/comments`, { token: 'not-a-token', version: '3.3' }), 401, 8000);
        expectError(await h.call('GET', `/videos/${video}/comments`, { token: 'not-a-token' }), 401, 8003);
      });

      it('answers 403 to a token without the interact scope', async () => {
        const reader = await h.user('Reader', 'public,private,edit,delete');
        const r = await h.call('POST', `/videos/${video}/comments`, { token: reader.token, json: { text: 'hi' } });
        expectError(r, 403, 3200);
        assert.match(r.body.developer_message, /"interact"/);
      });

      it('answers 403/3413 when the video has comments disabled, for its owner too', async () => {
        const vid = await h.video(alice, { privacy: { comments: 'nobody' } });
        expectError(await h.call('POST', `/videos/${vid}/comments`, { token: bob.token, json: { text: 'hi' } }), 403, 3413);
        expectError(await h.call('POST', `/videos/${vid}/comments`, { token: alice.token, json: { text: 'hi' } }), 403, 3413);
        assert.equal(await clipTotal(vid), 0);
      });

      it('answers 403/3411 to an unverified user', async () => {
        const unverified = await h.user('Unverified', 'all', { verified: false });
        expectError(await h.call('POST', `/videos/${video}/comments`, { token: unverified.token, json: { text: 'hi' } }), 403, 3411);
      });

      it('answers 403/3412 on a contacts video to anyone the owner does not follow', async () => {
        const owner = await h.user('Contacts owner');
        const friend = await h.user('Friend');
        const follower = await h.user('Follower');
        await h.follow(owner, friend);
        await h.follow(follower, owner);
        const vid = await h.video(owner, { privacy: { comments: 'contacts' } });
        expectError(await h.call('POST', `/videos/${vid}/comments`, { token: follower.token, json: { text: 'hi' } }), 403, 3412);
        expectError(await h.call('POST', `/videos/${vid}/comments`, { token: carol.token, json: { text: 'hi' } }), 403, 3412);
        await post(friend, vid, 'from a friend');
        await post(owner, vid, 'from the owner');
        assert.equal((await h.call('GET', `/videos/${vid}`)).body.metadata.connections.comments.total, 2);
      });

      it('answers 403/3301 when the text holds a spam word of the config, as a whole word in any case', async () => {
        const vid = await h.video(alice);
        for (const text of ['Buy VIAGRA now', 'viagra', 'Get FREE Money!', 'x (Viagra) y']) {
          expectError(await h.call('POST', `/videos/${vid}/comments`, { token: bob.token, json: { text } }), 403, 3301);
        }
        assert.equal(await clipTotal(vid), 0);
        await post(bob, vid, 'viagras and freemoney are not whole words');
        assert.equal(await clipTotal(vid), 1);
      });

      it('answers 404 for a missing video and for a video the caller may not see', async () => {
        expectError(await h.call('POST', '/videos/999999/comments', { token: bob.token, json: { text: 'hi' } }), 404, 5000);
        expectError(await h.call('POST', '/videos/abc/comments', { token: bob.token, json: { text: 'hi' } }), 404, 5000);
        for (const view of ['nobody', 'disable', 'contacts', 'users']) {
          const vid = await h.video(alice, { privacy: { view } });
          expectError(await h.call('POST', `/videos/${vid}/comments`, { token: bob.token, json: { text: 'hi' } }), 404, 5000);
          await post(alice, vid, 'the owner may');
        }
      });

      it('needs the password of a password video from anyone but its owner', async () => {
        const vid = await h.video(alice, { privacy: { view: 'password' }, password: 'pw' });
        expectError(await h.call('POST', `/videos/${vid}/comments`, { token: bob.token, json: { text: 'hi' } }), 403, 3200);
        expectError(await h.call('POST', `/videos/${vid}/comments`, { token: bob.token, json: { text: 'hi', password: 'no' } }), 403, 3200);
        const r = await h.call('POST', `/videos/${vid}/comments`, { token: bob.token, json: { text: 'hi', password: 'pw' } });
        assert.equal(r.status, 201, r.text);
        expectError(await h.call('GET', `/videos/${vid}/comments`, { token: bob.token }), 403, 3200);
        assert.equal((await h.call('GET', `/videos/${vid}/comments?password=pw`, { token: bob.token })).body.total, 1);
        assert.equal((await h.call('GET', `${r.body.uri}?password=pw`)).status, 200);
      });
    });

    describe('GET /videos/{video_id}/comments', () => {
      let vid: string;
      before(async () => {
        vid = await h.video(alice);
        for (const text of ['First light', 'Second thoughts', 'Third LIGHT']) await post(bob, vid, text);
        const first = (await h.call('GET', `/videos/${vid}/comments?direction=asc`)).body.data[0];
        await reply(alice, first.uri, 'a reply is not listed here');
      });

      it('lists top-level comments newest first, to anyone who may see the video', async () => {
        const r = await h.call('GET', `/videos/${vid}/comments`);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.comment+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(texts(r), ['Third LIGHT', 'Second thoughts', 'First light']);
        assert.equal(r.body.data[2].metadata.connections.replies.total, 1);
        assert.equal(r.body.data[0].user.name, 'Bob');
        assert.deepEqual(texts(await h.call('GET', `/videos/${vid}/comments?direction=asc`)), ['First light', 'Second thoughts', 'Third LIGHT']);
        // The Clip counts the whole conversation: comments and replies.
        assert.equal(await clipTotal(vid), 4);
      });

      it('pages and keeps the query in the paging links', async () => {
        const r = await h.call('GET', `/videos/${vid}/comments?per_page=2&page=2&query=light`);
        assert.equal(r.body.total, 2);
        assert.equal(r.body.page, 2);
        assert.equal(r.body.per_page, 2);
        assert.deepEqual(r.body.data, []);
        const p1 = await h.call('GET', `/videos/${vid}/comments?per_page=2`);
        assert.deepEqual(texts(p1), ['Third LIGHT', 'Second thoughts']);
        assert.equal(p1.body.paging.next, `/videos/${vid}/comments?per_page=2&page=2`);
        assert.equal(p1.body.paging.previous, null);
        assert.equal(p1.body.paging.last, `/videos/${vid}/comments?per_page=2&page=2`);
      });

      it('filters by text with query, case-insensitively', async () => {
        const r = await h.call('GET', `/videos/${vid}/comments?query=LiGhT&direction=asc`);
        assert.equal(r.body.total, 2);
        assert.deepEqual(texts(r), ['First light', 'Third LIGHT']);
        assert.equal((await h.call('GET', `/videos/${vid}/comments?query=reply`)).body.total, 0);
      });

      it('answers 400 naming a bad list parameter', async () => {
        expectError(await h.call('GET', `/videos/${vid}/comments?direction=up`), 400, 2204, 'direction');
        expectError(await h.call('GET', `/videos/${vid}/comments?per_page=101`), 400, 2204, 'per_page');
        expectError(await h.call('GET', `/videos/${vid}/comments?page=0`), 400, 2204, 'page');
      });

      it('answers 404 for a missing or hidden video', async () => {
        expectError(await h.call('GET', '/videos/999999/comments'), 404, 5000);
        const hidden = await h.video(alice, { privacy: { view: 'nobody' } });
        await post(alice, hidden, 'note to self');
        expectError(await h.call('GET', `/videos/${hidden}/comments`, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', `/videos/${hidden}/comments`, { token: alice.token })).body.total, 1);
      });

      it('still lists comments when commenting is disabled later', async () => {
        const r = await h.call('PATCH', `/videos/${vid}`, { token: alice.token, json: { privacy: { comments: 'nobody' } } });
        assert.equal(r.status, 200);
        assert.equal((await h.call('GET', `/videos/${vid}/comments`)).body.total, 3);
        await h.call('PATCH', `/videos/${vid}`, { token: alice.token, json: { privacy: { comments: 'anybody' } } });
      });
    });

    describe('GET /videos/{video_id}/comments/{comment_id}', () => {
      it('answers the comment, and a reply typed reply', async () => {
        const c = await post(bob, video, 'Get me');
        const rp = await reply(carol, c.uri, 'Me too');
        const r = await h.call('GET', c.uri);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.comment+json;version=3.4');
        assert.deepEqual({ ...r.body, metadata: undefined }, { ...c, metadata: undefined });
        assert.equal(r.body.metadata.connections.replies.total, 1);
        const got = await h.call('GET', rp.uri);
        assert.equal(got.body.type, 'reply');
        assert.equal(got.body.user.name, 'Carol');
        assert.deepEqual(got.body.metadata.connections.replies, { uri: `${rp.uri}/replies`, options: ['GET'], total: 0 });
      });

      it('answers 404/5000 for a missing comment, one of another video, or a hidden video', async () => {
        const c = await post(bob, video, 'Elsewhere');
        const other = await h.video(alice);
        const id = c.uri.split('/').pop();
        expectError(await h.call('GET', `/videos/${video}/comments/999999`), 404, 5000);
        expectError(await h.call('GET', `/videos/${video}/comments/abc`), 404, 5000);
        expectError(await h.call('GET', `/videos/${other}/comments/${id}`), 404, 5000);
        expectError(await h.call('GET', `/videos/999999/comments/${id}`), 404, 5000);
        await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'nobody' } } });
        expectError(await h.call('GET', c.uri, { token: bob.token }), 404, 5000);
        assert.equal((await h.call('GET', c.uri, { token: alice.token })).status, 200);
        await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'anybody' } } });
      });

      it('leaves out connections before 3.2 and answers plain JSON there', async () => {
        const c = await post(bob, video, 'Old clients');
        const v31 = await h.call('GET', c.uri, { version: '3.1' });
        assert.equal(v31.status, 200);
        assert.equal(v31.headers.get('content-type'), 'application/json');
        assert.equal(v31.body.metadata, undefined);
        assert.equal(v31.body.text, 'Old clients');
        const v32 = await h.call('GET', c.uri, { version: '3.2' });
        assert.equal(v32.headers.get('content-type'), 'application/vnd.reelbase.comment+json;version=3.2');
        assert.equal(v32.body.metadata.connections.replies.total, 0);
      });
    });

    describe('PATCH /videos/{video_id}/comments/{comment_id}', () => {
      it('lets the author edit the text: 200 with the Comment, 204 before 3.2', async () => {
        const c = await post(bob, video, 'Typo');
        const r = await h.call('PATCH', c.uri, { token: bob.token, json: { text: ' Fixed ' } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.comment+json;version=3.4');
        assert.deepEqual(r.body, { ...c, text: 'Fixed' });
        const old = await h.call('PATCH', c.uri, { token: bob.token, form: { text: 'Fixed again' }, version: '3.1' });
        assert.equal(old.status, 204);
        assert.equal(old.text, '');
        assert.equal((await h.call('GET', c.uri)).body.text, 'Fixed again');
      });

      it('answers 403/3414 to anyone but the author, the video owner included, and changes nothing', async () => {
        const c = await post(bob, video, 'Mine');
        expectError(await h.call('PATCH', c.uri, { token: alice.token, json: { text: 'Yours' } }), 403, 3414);
        expectError(await h.call('PATCH', c.uri, { token: carol.token, json: { text: 'Yours' } }), 403, 3414);
        assert.equal((await h.call('GET', c.uri)).body.text, 'Mine');
      });

      it('answers 400/2207 to a missing or blank text', async () => {
        const c = await post(bob, video, 'Keep');
        expectError(await h.call('PATCH', c.uri, { token: bob.token, json: {} }), 400, 2207, 'text');
        expectError(await h.call('PATCH', c.uri, { token: bob.token, json: { text: '   ' } }), 400, 2207, 'text');
        expectError(await h.call('PATCH', c.uri, { token: bob.token, json: { text: false } }), 400, 2204, 'text');
        assert.equal((await h.call('GET', c.uri)).body.text, 'Keep');
      });

      it('answers 403/3301 to spam and keeps the old text', async () => {
        const c = await post(bob, video, 'Clean');
        expectError(await h.call('PATCH', c.uri, { token: bob.token, json: { text: 'now with Viagra' } }), 403, 3301);
        assert.equal((await h.call('GET', c.uri)).body.text, 'Clean');
      });

      it('answers 403/3411 once the author is unverified', async () => {
        const dave = await h.user('Dave');
        const c = await post(dave, video, 'Before');
        await h.service.store.update('users', dave.user.id, { verified: false });
        expectError(await h.call('PATCH', c.uri, { token: dave.token, json: { text: 'After' } }), 403, 3411);
        assert.equal((await h.call('GET', c.uri)).body.text, 'Before');
      });

      it('answers 403/3412 once the author may no longer comment, 403/3413 once comments are disabled', async () => {
        const owner = await h.user('Owner');
        const friend = await h.user('Old friend');
        await h.follow(owner, friend);
        const vid = await h.video(owner, { privacy: { comments: 'contacts' } });
        const c = await post(friend, vid, 'While followed');
        await h.service.store.deleteWhere('follows', eq('user_id', owner.user.id));
        expectError(await h.call('PATCH', c.uri, { token: friend.token, json: { text: 'Unfollowed' } }), 403, 3412);
        await h.call('PATCH', `/videos/${vid}`, { token: owner.token, json: { privacy: { comments: 'nobody' } } });
        expectError(await h.call('PATCH', c.uri, { token: friend.token, json: { text: 'Disabled' } }), 403, 3413);
        assert.equal((await h.call('GET', c.uri)).body.text, 'While followed');
      });

      it('answers 404 for a missing comment or video, 403 without the edit scope, 401 anonymous', async () => {
        const c = await post(bob, video, 'Scoped');
        expectError(await h.call('PATCH', `/videos/${video}/comments/999999`, { token: bob.token, json: { text: 'x' } }), 404, 5000);
        expectError(await h.call('PATCH', `/videos/999999/comments/1`, { token: bob.token, json: { text: 'x' } }), 404, 5000);
        const noEdit = await h.user('No edit', 'public,interact,delete');
        expectError(await h.call('PATCH', c.uri, { token: noEdit.token, json: { text: 'x' } }), 403, 3200);
        expectError(await h.call('PATCH', c.uri, { json: { text: 'x' } }), 401, 8003);
        expectError(await h.call('PATCH', c.uri, { json: { text: 'x' }, version: '3.3' }), 401, 8000);
      });
    });

    describe('DELETE /videos/{video_id}/comments/{comment_id}', () => {
      it('lets the author delete: 204, gone, and the Clip count follows', async () => {
        const vid = await h.video(alice);
        const c = await post(bob, vid, 'Regret');
        assert.equal(await clipTotal(vid), 1);
        const r = await h.call('DELETE', c.uri, { token: bob.token });
        assert.equal(r.status, 204);
        assert.equal(r.text, '');
        expectError(await h.call('GET', c.uri), 404, 5000);
        assert.equal(await clipTotal(vid), 0);
      });

      it('answers 404/5000 when the comment was already deleted', async () => {
        const c = await post(bob, video, 'Twice');
        assert.equal((await h.call('DELETE', c.uri, { token: bob.token })).status, 204);
        expectError(await h.call('DELETE', c.uri, { token: bob.token }), 404, 5000);
      });

      it("lets the video's owner delete anyone's comment; 403/3415 for others", async () => {
        const c = await post(bob, video, 'Moderate me');
        expectError(await h.call('DELETE', c.uri, { token: carol.token }), 403, 3415);
        assert.equal((await h.call('GET', c.uri)).status, 200);
        const mine = await post(alice, video, "Owner's own");
        expectError(await h.call('DELETE', mine.uri, { token: bob.token }), 403, 3415);
        assert.equal((await h.call('DELETE', c.uri, { token: alice.token })).status, 204);
      });

      it('deletes a comment with its replies and keeps every count exact', async () => {
        const vid = await h.video(alice);
        const keep = await post(carol, vid, 'Stays');
        const c = await post(bob, vid, 'Thread');
        const r1 = await reply(alice, c.uri, 'one');
        await reply(carol, c.uri, 'two');
        await reply(bob, keep.uri, 'elsewhere');
        assert.equal(await clipTotal(vid), 5);
        assert.equal((await h.call('DELETE', r1.uri, { token: alice.token })).status, 204);
        assert.equal((await h.call('GET', c.uri)).body.metadata.connections.replies.total, 1);
        assert.equal((await h.call('GET', `${c.uri}/replies`)).body.total, 1);
        assert.equal(await clipTotal(vid), 4);
        assert.equal((await h.call('DELETE', c.uri, { token: bob.token })).status, 204);
        assert.equal(await clipTotal(vid), 2);
        expectError(await h.call('GET', `${c.uri}/replies`), 404, 5000);
        assert.deepEqual(texts(await h.call('GET', `/videos/${vid}/comments`)), ['Stays']);
        assert.equal((await h.call('GET', keep.uri)).body.metadata.connections.replies.total, 1);
      });

      it('answers 404 for a missing comment, a comment of another video, or a hidden video', async () => {
        const c = await post(bob, video, 'Here');
        const other = await h.video(alice);
        expectError(await h.call('DELETE', `/videos/${video}/comments/999999`, { token: bob.token }), 404, 5000);
        expectError(await h.call('DELETE', `/videos/${other}/comments/${c.uri.split('/').pop()}`, { token: bob.token }), 404, 5000);
        await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'nobody' } } });
        expectError(await h.call('DELETE', c.uri, { token: bob.token }), 404, 5000);
        await h.call('PATCH', `/videos/${video}`, { token: alice.token, json: { privacy: { view: 'anybody' } } });
        assert.equal((await h.call('GET', c.uri)).status, 200);
      });

      it('answers 403 without the delete scope and 401 anonymous', async () => {
        const c = await post(bob, video, 'Scoped');
        const noDelete = await h.user('No delete', 'public,interact,edit');
        expectError(await h.call('DELETE', c.uri, { token: noDelete.token }), 403, 3200);
        expectError(await h.call('DELETE', c.uri), 401, 8003);
        expectError(await h.call('DELETE', c.uri, { version: '3.2' }), 401, 8000);
        assert.equal((await h.call('GET', c.uri)).status, 200);
      });
    });

    describe('POST /videos/{video_id}/comments/{comment_id}/replies', () => {
      it('answers 201 with a reply and counts it on the comment and the Clip', async () => {
        const vid = await h.video(alice);
        const c = await post(bob, vid, 'Question?');
        const r = await h.call('POST', `${c.uri}/replies`, { token: alice.token, form: { text: 'Answer.' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.comment+json;version=3.4');
        assert.equal(r.body.type, 'reply');
        assert.equal(r.body.text, 'Answer.');
        assert.match(r.body.uri, new RegExp(`^/videos/${vid}/comments/\\d+$`));
        assert.equal(r.body.user.name, 'Alice');
        assert.deepEqual(r.body.metadata.connections.replies, { uri: `${r.body.uri}/replies`, options: ['GET'], total: 0 });
        assert.equal((await h.call('GET', c.uri)).body.metadata.connections.replies.total, 1);
        assert.equal(await clipTotal(vid), 2);
      });

      it('refuses a reply to a reply with 400 naming comment_id', async () => {
        const vid = await h.video(alice);
        const c = await post(bob, vid, 'Root');
        const rp = await reply(carol, c.uri, 'Level one');
        expectError(await h.call('POST', `${rp.uri}/replies`, { token: bob.token, json: { text: 'Level two' } }), 400, 2204, 'comment_id');
        assert.equal(await clipTotal(vid), 2);
        assert.equal((await h.call('GET', `${rp.uri}/replies`)).body.total, 0);
      });

      it('fails as adding a comment does, changing nothing', async () => {
        const vid = await h.video(alice, { privacy: { comments: 'contacts' } });
        const c = await post(alice, vid, 'Contacts only');
        const unverified = await h.user('Unverified replier', 'all', { verified: false });
        await h.follow(alice, unverified);
        const cases: [Fixture, Record<string, unknown>, number, number, string?][] = [
          [bob, { text: '' }, 400, 2207, 'text'],
          [bob, {}, 400, 2207, 'text'],
          [alice, { text: 'VIAGRA' }, 403, 3301],
          [bob, { text: 'not followed' }, 403, 3412],
          [unverified, { text: 'unverified' }, 403, 3411],
        ];
        for (const [who, json, status, code, field] of cases) {
          expectError(await h.call('POST', `${c.uri}/replies`, { token: who.token, json }), status, code, field);
        }
        await h.call('PATCH', `/videos/${vid}`, { token: alice.token, json: { privacy: { comments: 'nobody' } } });
        expectError(await h.call('POST', `${c.uri}/replies`, { token: alice.token, json: { text: 'disabled' } }), 403, 3413);
        const reader = await h.user('Reply reader', 'public,edit');
        expectError(await h.call('POST', `${c.uri}/replies`, { token: reader.token, json: { text: 'x' } }), 403, 3200);
        assert.equal((await h.call('GET', c.uri)).body.metadata.connections.replies.total, 0);
        assert.equal(await clipTotal(vid), 1);
      });

      it('answers 404 for a missing comment, a comment of another video, a missing or hidden video', async () => {
        const c = await post(bob, video, 'Parent');
        const other = await h.video(alice);
        const hidden = await h.video(alice, { privacy: { view: 'nobody' } });
        const id = c.uri.split('/').pop();
        for (const path of [`/videos/${video}/comments/999999`, `/videos/${other}/comments/${id}`, `/videos/999999/comments/${id}`, `/videos/${hidden}/comments/${id}`]) {
          expectError(await h.call('POST', `${path}/replies`, { token: bob.token, json: { text: 'x' } }), 404, 5000);
        }
      });

      it('answers 401 to an anonymous caller (8000 before 3.4)', async () => {
        const c = await post(bob, video, 'Anon');
        expectError(await h.call('POST', `${c.uri}/replies`, { json: { text: 'x' } }), 401, 8003);
        expectError(await h.call('POST', `${c.uri}/replies`, { json: { text: 'x' }, version: '3.1' }), 401, 8000);
      });
    });

    describe('GET /videos/{video_id}/comments/{comment_id}/replies', () => {
      it('lists the replies oldest first and pages them', async () => {
        const vid = await h.video(alice);
        const c = await post(bob, vid, 'Thread');
        for (const text of ['one', 'two', 'three']) await reply(carol, c.uri, text);
        const r = await h.call('GET', `${c.uri}/replies`);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.comment+json;version=3.4');
        assert.equal(r.body.total, 3);
        assert.deepEqual(texts(r), ['one', 'two', 'three']);
        assert.ok(r.body.data.every((x: { type: string }) => x.type === 'reply'));
        const p2 = await h.call('GET', `${c.uri}/replies?per_page=2&page=2`);
        assert.deepEqual(texts(p2), ['three']);
        assert.equal(p2.body.paging.previous, `${c.uri}/replies?per_page=2&page=1`);
        assert.equal(p2.body.paging.next, null);
        expectError(await h.call('GET', `${c.uri}/replies?per_page=0`), 400, 2204, 'per_page');
      });

      it('answers 404 for a missing comment or video and hides a hidden video', async () => {
        const hidden = await h.video(alice, { privacy: { view: 'disable' } });
        const c = await post(alice, hidden, 'Private thread');
        expectError(await h.call('GET', `/videos/${video}/comments/999999/replies`), 404, 5000);
        expectError(await h.call('GET', `/videos/999999/comments/1/replies`), 404, 5000);
        expectError(await h.call('GET', `${c.uri}/replies`, { token: bob.token }), 404, 5000);
        expectError(await h.call('GET', `${c.uri}/replies`), 404, 5000);
        assert.equal((await h.call('GET', `${c.uri}/replies`, { token: alice.token })).status, 200);
      });
    });

    it('deleting the video deletes its comments', async () => {
      const vid = await h.video(alice);
      const c = await post(bob, vid, 'Doomed');
      assert.equal((await h.call('DELETE', `/videos/${vid}`, { token: alice.token })).status, 204);
      expectError(await h.call('GET', c.uri), 404, 5000);
      assert.equal(await h.service.store.count('comments', eq('video_id', vid)), 0);
    });
  });
}
