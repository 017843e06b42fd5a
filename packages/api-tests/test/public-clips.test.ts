import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, type Fixture } from '../src/index';

// Anonymous Clips are remembered per stored document on SQLite (domain/videos.ts), and their JSON
// text per Clip (http/json-payload.ts): every change to what a Clip shows must show at once, and
// each caller's version its own form.
for (const driver of drivers) {
  describe(`anonymous reads of a video follow every change (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let id: string;
    const anonymous = async (version?: string) => {
      const r = await h.call('GET', `/videos/${id}`, { version });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    before(async () => {
      h = await Harness.start(driver);
      alice = await h.user('Alice');
      id = await h.video(alice, { name: 'First' });
    });
    after(() => h.stop());

    it('answers the same Clip to repeated reads, and the new one after the video or its owner changes', async () => {
      const first = await anonymous();
      assert.deepEqual(await anonymous(), first);
      assert.equal(first.name, 'First');
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { name: 'Second' } })).status, 200);
      assert.equal((await anonymous()).name, 'Second');
      assert.equal((await h.call('PATCH', '/me', { token: alice.token, json: { name: 'Alice B.' } })).status, 200);
      assert.equal((await anonymous()).user.name, 'Alice B.');
      assert.equal((await h.call('PUT', `/videos/${id}/tags/harbour`, { token: alice.token })).status, 204);
      assert.deepEqual((await anonymous()).tags.map((t: { name: string }) => t.name), ['harbour']);
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { privacy: { view: 'nobody' } } })).status, 200);
      assert.equal((await h.call('GET', `/videos/${id}`)).status, 404);
    });

    it('sends the remembered text with its length in bytes, and the new text after a change', async () => {
      const texts = async () => {
        const r = await h.call('GET', `/videos/${id}`);
        assert.equal(Number(r.headers.get('content-length')), Buffer.byteLength(r.text));
        return r.text;
      };
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { name: 'Tōkyō ✓ 東京', privacy: { view: 'anybody' } } })).status, 200);
      const first = await texts();
      assert.equal(JSON.parse(first).name, 'Tōkyō ✓ 東京');
      assert.equal(await texts(), first);
      const head = await h.call('HEAD', `/videos/${id}`);
      assert.equal(head.status, 200);
      assert.equal(Number(head.headers.get('content-length')), Buffer.byteLength(first));
      assert.equal((await h.call('PATCH', `/videos/${id}`, { token: alice.token, json: { description: 'Changed' } })).status, 200);
      assert.equal(JSON.parse(await texts()).description, 'Changed');
    });

    it('answers each version its own form of the Clip', async () => {
      const v34 = await anonymous('3.4');
      const v32 = await anonymous('3.2');
      assert.equal(v34.review_page.active, true);
      assert.equal(v32.review_page, undefined);
      assert.equal(v32.review_link, null);
      assert.equal(v32.pictures.default, true);
      assert.equal(v34.pictures.default, undefined);
      assert.deepEqual(await anonymous('3.4'), v34);
      const owner = await h.call('GET', `/videos/${id}`, { token: alice.token });
      assert.equal(v34.metadata.interactions.like, undefined);
      assert.ok(owner.body.metadata.interactions.like, 'the owner gets their interactions, not the anonymous Clip');
    });
  });
}
