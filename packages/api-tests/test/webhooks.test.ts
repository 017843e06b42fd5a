import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drivers, expectError, Harness, makeClip, uploadByTus, WebhookReceiver, type Fixture } from '../src/index';

for (const driver of drivers) {
  describe(`webhooks (extension) (${driver.name})`, () => {
    let h: Harness;
    let alice: Fixture;
    let bob: Fixture;
    let clip: Buffer;
    let receiver: WebhookReceiver;
    before(async () => {
      h = await Harness.start(driver, { webhookAllowPrivate: true });
      alice = await h.user('Alice');
      bob = await h.user('Bob');
      clip = await makeClip({ width: 320, height: 240, seconds: 1 });
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      await h.stop();
      await receiver.close();
    });
    /** A fresh receiver state and one webhook of Alice's pointing at it. */
    const hook = async (events?: string[]): Promise<{ uri: string; secret: string }> => {
      receiver.deliveries.length = 0;
      const r = await h.call('POST', '/me/webhooks', { token: alice.token, json: { url: receiver.url, ...(events ? { events } : {}) } });
      assert.equal(r.status, 201, r.text);
      return r.body;
    };
    const drop = async (uri: string) => assert.equal((await h.call('DELETE', uri, { token: alice.token })).status, 204);

    it('POST /me/webhooks answers 201 with the secret; GET lists and reads it; DELETE removes it; another user cannot see it', async () => {
      const r = await h.call('POST', '/me/webhooks', { token: alice.token, json: { url: 'https://hooks.example.com/reelbase', events: ['video.available'] } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('content-type'), 'application/vnd.reelbase.webhook+json;version=3.4');
      assert.deepEqual({ ...r.body, secret: typeof r.body.secret, resource_key: typeof r.body.resource_key }, {
        uri: `/users/${alice.user.id}/webhooks/${r.body.uri.split('/').pop()}`,
        url: 'https://hooks.example.com/reelbase',
        events: ['video.available'],
        secret: 'string',
        signature_header: 'Reelbase-Signature',
        created_time: '2026-01-02T03:04:05+00:00',
        resource_key: 'string',
      });
      assert.match(r.body.secret, /^whsec_[\w-]{32}$/);
      const list = await h.call('GET', '/me/webhooks', { token: alice.token });
      assert.deepEqual(list.body.data.map((w: { uri: string }) => w.uri), [r.body.uri]);
      assert.equal((await h.call('GET', r.body.uri, { token: alice.token })).body.secret, r.body.secret);
      assert.equal((await h.call('GET', r.body.uri, { token: bob.token })).status, 403);
      assert.equal((await h.call('GET', `/me/webhooks/${r.body.uri.split('/').pop()}`, { token: bob.token })).status, 404);
      assert.equal((await h.call('GET', `/users/${alice.user.id}/webhooks`, { token: bob.token })).status, 403);
      await drop(r.body.uri);
      assert.equal((await h.call('GET', r.body.uri, { token: alice.token })).status, 404);
    });

    it('refuses a URL that is not http(s) and an unknown event, naming the field', async () => {
      expectError(await h.call('POST', '/me/webhooks', { token: alice.token, json: { url: 'ftp://example.com/x' } }), 400, 2204, 'url');
      expectError(await h.call('POST', '/me/webhooks', { token: alice.token, json: { url: 'not a url' } }), 400, 2204, 'url');
      expectError(await h.call('POST', '/me/webhooks', { token: alice.token, json: { url: 'https://example.com', events: ['video.exploded'] } }), 400, 2204, 'events.0');
      expectError(await h.call('POST', '/me/webhooks', { token: alice.token, json: {} }), 400, 2204, 'url');
    });

    it('delivers video.available once per upload, signed with the secret', async () => {
      const { uri, secret } = await hook();
      const ids = [await uploadByTus(h, alice.token, clip), await uploadByTus(h, alice.token, clip)];
      assert.equal(receiver.deliveries.length, 0, 'nothing before the transcodes complete');
      await h.settle();
      const available = receiver.deliveries.filter((d) => d.event.type === 'video.available');
      assert.deepEqual(available.map((d) => d.event.data.video.uri).sort(), ids.map((id) => `/videos/${id}`).sort());
      for (const d of available) {
        assert.ok(WebhookReceiver.signed(d, secret), 'the signature is the HMAC-SHA256 of the body');
        assert.equal(d.headers['reelbase-event'], 'video.available');
        assert.equal(d.headers['reelbase-delivery'], d.event.id);
        assert.equal(d.headers['content-type'], 'application/json');
        assert.equal(d.event.data.video.status, 'available');
      }
      assert.equal(await h.settle(), 0);
      assert.equal(receiver.deliveries.length, 2, 'once each');
      await drop(uri);
    });

    it('redelivers after the receiver answered 500, with back-off; the event keeps its id', async () => {
      const { uri, secret } = await hook(['video.available']);
      receiver.answers.push(500);
      const id = await uploadByTus(h, alice.token, clip);
      await h.settle();
      assert.equal(receiver.deliveries.length, 1, 'the first attempt got a 500');
      h.clock.advance(4);
      assert.equal(await h.settle(), 0, 'not due before its back-off');
      h.clock.advance(1);
      await h.settle();
      assert.equal(receiver.deliveries.length, 2);
      const [first, second] = receiver.deliveries;
      assert.equal(second.event.id, first.event.id);
      assert.equal(second.event.data.video.uri, `/videos/${id}`);
      assert.ok(WebhookReceiver.signed(second, secret));
      await drop(uri);
    });

    it('tells of transcode errors and deletions, in order per video even when a delivery is retried', async () => {
      const { uri } = await hook();
      const broken = await uploadByTus(h, alice.token, Buffer.from('no video here\n'.repeat(30)));
      await h.settle();
      assert.deepEqual(receiver.deliveries.map((d) => [d.event.type, d.event.data.video.uri]), [['video.transcode_error', `/videos/${broken}`]]);
      assert.match(receiver.deliveries[0].event.data.video.error!, /not a video|no video stream/);
      receiver.deliveries.length = 0;
      receiver.answers.push(500);
      const id = await uploadByTus(h, alice.token, clip);
      await h.settle();
      assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
      await h.settle();
      assert.deepEqual(receiver.deliveries.map((d) => d.event.type), ['video.available'], 'video.deleted waits for the earlier event of its video');
      h.clock.advance(5);
      await h.settle();
      assert.deepEqual(receiver.deliveries.map((d) => d.event.type), ['video.available', 'video.available', 'video.deleted']);
      await drop(uri);
    });

    it('drops the events of a deleted webhook; other users’ videos send nothing to it', async () => {
      const { uri } = await hook();
      await uploadByTus(h, bob.token, clip);
      await uploadByTus(h, alice.token, clip);
      await drop(uri);
      await h.settle();
      assert.equal(receiver.deliveries.length, 0);
    });
  });
}
