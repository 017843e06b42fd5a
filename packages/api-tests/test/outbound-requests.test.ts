import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq, type JobRecord, type VideoRecord } from '@reelbase/core';
import { drivers, Harness, makeClip, until, type Fixture } from '../src/index';

/** What every failure to reach an address reads, a refused address and a closed port alike (no port oracle). */
const unreachable = 'the address could not be reached';
const pullUnreachable = `fetching the link failed: ${unreachable}`;

/** A public address a hostile name server answers first, then loopback (a rebinding attempt). */
const publicAddress = '93.184.215.14';

/**
 * A name server of the test's own (config.outboundLookup), counting what it is asked:
 * `localhost.` as resolvers commonly answer it, `rebind.test` a public address then loopback,
 * `loopback.test` loopback; any other name is not found.
 */
function resolver(): { lookup: LookupFunction; asked: string[] } {
  const names: Record<string, LookupAddress[]> = {
    'localhost.': [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }],
    'rebind.test': [{ address: publicAddress, family: 4 }, { address: '127.0.0.1', family: 4 }],
    'loopback.test': [{ address: '127.0.0.1', family: 4 }],
  };
  const asked: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    asked.push(hostname);
    const found = names[hostname];
    process.nextTick(() => {
      if (!found) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      else if (options.all) callback(null, found);
      else callback(null, found[0].address, found[0].family);
    });
  };
  return { lookup, asked };
}

/**
 * Spellings of the server's own machine (and of its networks) that a user may give as a link;
 * the first ones reach the loopback listener when the operator allows private addresses.
 */
const reaching = ['127.1', '2130706433', '0177.0.0.1', '0x7f.1', 'localhost.', '[::ffff:127.0.0.1]', '[::1]', '0.0.0.0', '[::]'];
const refusedHosts = [
  ...reaching,
  '127.0.0.1',
  '[::127.0.0.1]',
  '[::ffff:7f00:1]',
  '[64:ff9b::127.0.0.1]',
  '[fec0::1]',
  '[fd00::1]',
  '10.0.0.1',
  '192.168.0.1',
  '169.254.169.254',
  'rebind.test',
  'nowhere.test',
];

for (const driver of drivers) {
  describe(`outbound requests: pull uploads and webhooks reach only public addresses (${driver.name})`, () => {
    let mp4: Buffer;
    /**
     * A listener on loopback, recording each request: one port on 127.0.0.1 and ::1, so every IPv4
     * and IPv6 spelling of loopback arrives (and nothing from another machine).
     */
    let listeners: Server[];
    let port: number;
    let closedPort: number;
    const hits: string[] = [];
    let dns: ReturnType<typeof resolver>;
    /** Defaults: no private addresses. */
    let strict: Harness;
    /** The operator's opt-ins (pullAllowPrivate, webhookAllowPrivate). */
    let open: Harness;
    before(async () => {
      mp4 = await makeClip({ width: 160, height: 120, seconds: 1, audio: false });
      const answer = (req: IncomingMessage, res: ServerResponse) => {
        hits.push(`${req.method} ${req.url}`);
        req.resume();
        if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/clip.mp4` }).end();
        else if (req.url === '/clip.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4);
        else res.writeHead(200).end();
      };
      listeners = [createServer(answer), createServer(answer)];
      await new Promise<void>((resolve) => listeners[0].listen(0, '127.0.0.1', resolve));
      port = (listeners[0].address() as AddressInfo).port;
      await new Promise<void>((resolve) => listeners[1].listen(port, '::1', resolve));
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      dns = resolver();
      strict = await Harness.start(driver, { outboundLookup: dns.lookup, pullTimeoutMs: 5000 });
      open = await Harness.start(driver, { outboundLookup: dns.lookup, pullTimeoutMs: 5000, pullAllowPrivate: true, webhookAllowPrivate: true });
    });
    after(async () => {
      await strict.stop();
      await open.stop();
      await Promise.all(listeners.map((l) => new Promise((resolve) => l.close(resolve))));
    });

    /** Links to every refused host, over http and (through the https agent, which guards the same way) a few over https. */
    const refusedOrigins = (): string[] => [...refusedHosts.map((host) => `http://${host}:${port}`), `https://[::ffff:127.0.0.1]:${port}`, `https://rebind.test:${port}`];
    /** What the resolver is asked for those: each name once per connection. */
    const refusedNames = ['localhost.', 'nowhere.test', 'rebind.test', 'rebind.test'];

    /** Pulls each link as a new video of a fresh user; answers each upload's status and recorded error once settled. */
    const pulls = async (h: Harness, links: string[]): Promise<[string, string | undefined][]> => {
      const who = await h.user('Puller');
      const ids = await Promise.all(links.map((link) => h.video(who, { upload: { approach: 'pull', link } })));
      return Promise.all(ids.map((id) => settledPull(h, id)));
    };

    /**
     * Registers each URL as the webhook of a user of its own (one video's deliveries run in order,
     * so a failing one would hold back the next), makes an event for each (a video deleted) and
     * runs the deliveries; answers each delivery's last error (null: delivered).
     */
    const deliveries = async (h: Harness, urls: string[]): Promise<(string | null)[]> => {
      const videos = await Promise.all(
        urls.map(async (url) => {
          const who: Fixture = await h.user('Hooked');
          const r = await h.call('POST', '/me/webhooks', { token: who.token, json: { url, events: ['video.deleted'] } });
          assert.equal(r.status, 201, r.text);
          const video = await h.video(who);
          assert.equal((await h.call('DELETE', `/videos/${video}`, { token: who.token })).status, 204);
          return video;
        }),
      );
      await h.settle();
      return Promise.all(
        videos.map(async (video) => {
          const [job] = (await h.service.store.find<JobRecord>('jobs', { where: eq('subject', video) })).items.filter((j) => j.kind === 'webhook');
          return job.state === 'done' ? null : job.error;
        }),
      );
    };

    it('refuses a pull from every spelling of loopback and private addresses, with the error of an unresolvable name; nothing reaches the listener', async () => {
      hits.length = 0;
      dns.asked.length = 0;
      const links = refusedOrigins().map((origin) => `${origin}/clip.mp4`);
      assert.deepEqual(await pulls(strict, links), links.map(() => ['error', pullUnreachable]));
      assert.deepEqual(hits, []);
      // One resolution per name, made by the connection itself: no second answer to rebind to.
      assert.deepEqual(dns.asked.sort(), refusedNames);
    });

    it('refuses a webhook delivery to every spelling, with the same error; nothing reaches the listener', async () => {
      hits.length = 0;
      dns.asked.length = 0;
      const urls = refusedOrigins().map((origin) => `${origin}/hooks`);
      assert.deepEqual(await deliveries(strict, urls), urls.map(() => unreachable));
      assert.deepEqual(hits, []);
      assert.deepEqual(dns.asked.sort(), refusedNames);
    });

    it('with the opt-ins, those spellings do reach loopback (so the refusals above are the policy’s), through the configured resolver', async () => {
      hits.length = 0;
      dns.asked.length = 0;
      assert.deepEqual(await deliveries(open, reaching.map((host, i) => `http://${host}:${port}/hooks/${i}`)), reaching.map(() => null));
      assert.deepEqual(hits.sort(), reaching.map((_, i) => `POST /hooks/${i}`).sort());
      const [[status]] = await pulls(open, [`http://loopback.test:${port}/clip.mp4`]);
      assert.equal(status, 'complete');
      assert.deepEqual(dns.asked.sort(), ['localhost.', 'loopback.test']);
    });

    it('a closed port reads as a refused address: the same error for pulls and webhooks', async () => {
      assert.deepEqual(await pulls(open, [`http://127.0.0.1:${closedPort}/clip.mp4`]), [['error', pullUnreachable]]);
      assert.deepEqual(await deliveries(open, [`http://127.0.0.1:${closedPort}/hooks`]), [unreachable]);
    });

    it('follows no redirect: a link that redirects to loopback fails, and its target is never asked', async () => {
      hits.length = 0;
      assert.deepEqual(await pulls(open, [`http://127.0.0.1:${port}/redirect`]), [['error', 'the link answered 302']]);
      assert.deepEqual(await deliveries(open, [`http://127.0.0.1:${port}/redirect`]), ['the receiver answered 302']);
      assert.deepEqual(hits, ['GET /redirect', 'POST /redirect']);
      hits.length = 0;
      assert.deepEqual(await pulls(strict, [`http://rebind.test:${port}/redirect`]), [['error', pullUnreachable]]);
      assert.deepEqual(hits, []);
    });
  });
}

/** Waits for a pull (real network I/O in the background) to settle, then reads its upload from the store. */
async function settledPull(h: Harness, id: string): Promise<[string, string | undefined]> {
  type Upload = VideoRecord['upload'] & { error?: string };
  const read = async () => (await h.service.store.get<VideoRecord>('videos', id))!.upload as Upload;
  await until(async () => (await read()).status !== 'in_progress', `video ${id} to finish its pull`);
  const { status, error } = await read();
  return [status, error];
}
