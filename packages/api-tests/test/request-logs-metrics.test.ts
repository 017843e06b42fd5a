import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '@reelbase/http';
import type { JobRecord } from '@reelbase/core';
import { drivers } from '../src/drivers';
import { Harness, type Fixture } from '../src/harness';
import { makeClip } from '../src/clips';
import { createTusVideo } from '../src/media';
import { account, approve, authorizeUrl, basic, FormBrowser, registerApp } from '../src/oauth';

/**
 * Issue 47: one pino line per request (its operation, route, caller, id; secrets never), the
 * request's id carried into the job lines of the transcode it queued, and the Prometheus series on
 * the metrics listener moving with requests, an upload, a transcode, a 429 and a failed sign-in,
 * while 100 scrapes under read load change nothing else.
 */
type Line = Record<string, unknown>;

/** The log as lines, and a wait for the line a test expects (lines are written as each answer closes). */
class LogCapture {
  readonly lines: Line[] = [];
  text = '';
  readonly #waiting = new Set<() => void>();
  readonly logger = createLogger({ level: 'info', format: 'json' }, (chunk) => {
    this.text += chunk;
    for (const line of chunk.split('\n').filter(Boolean)) this.lines.push(JSON.parse(line) as Line);
    for (const wake of [...this.#waiting]) wake();
  });

  async find(match: (line: Line) => boolean): Promise<Line> {
    for (;;) {
      const found = this.lines.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiting.delete(wake);
          resolve();
        };
        this.#waiting.add(wake);
      });
    }
  }
}

/** Prometheus text as `name{labels}` → value. */
const parse = (text: string): Map<string, number> =>
  new Map(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const at = l.lastIndexOf(' ');
        return [l.slice(0, at), Number(l.slice(at + 1))] as const;
      }),
  );

for (const driver of drivers) {
  describe(`request logs and metrics (${driver.name})`, () => {
    const log = new LogCapture();
    let h: Harness;
    let owner: Fixture;
    let video: string;
    let metricsUrl: string;
    const scrape = async (): Promise<Map<string, number>> => {
      const r = await fetch(`${metricsUrl}/metrics`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
      return parse(await r.text());
    };
    before(async () => {
      h = await Harness.start(driver, { rateLimit: { max: 150, windowSeconds: 600 }, pullAllowPrivate: true }, { serve: { logger: await log.logger, metrics: { port: 0 }, worker: { idleMs: 50 } } });
      metricsUrl = h.server.metricsUrl!;
      owner = await h.user('Owner');
      video = await h.video(owner);
    });
    after(() => h.stop());

    it('logs one line per request: id, method, route template, path, status, ms, bytes, operation, user, app, ip', async () => {
      const r = await h.call('GET', `/videos/${video}?fields=uri,name`, { token: owner.token, headers: { 'x-request-id': 'trace-abc.1_2-3' } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-request-id'), 'trace-abc.1_2-3');
      const line = await log.find((l) => l.req_id === 'trace-abc.1_2-3');
      const { time, ms, ...rest } = line;
      assert.match(String(time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof ms, 'number');
      assert.deepEqual(rest, {
        level: 30,
        msg: 'request',
        req_id: 'trace-abc.1_2-3',
        method: 'GET',
        route: '/videos/{video_id}',
        path: `/videos/${video}?fields=uri%2Cname`,
        status: 200,
        bytes: Buffer.byteLength(r.text),
        operation: 'videos.get',
        user: owner.user.id,
        app: null,
        ip: '127.0.0.1',
      });
      assert.equal(log.lines.filter((l) => l.req_id === 'trace-abc.1_2-3').length, 1);
    });

    it('makes an id where the request has none or an unsafe one, and gives unmatched paths no route', async () => {
      for (const given of [undefined, 'has space', 'x'.repeat(129), 'quote"d']) {
        const r = await h.call('GET', '/no/such/thing', given === undefined ? {} : { headers: { 'x-request-id': given } });
        assert.equal(r.status, 404);
        const id = r.headers.get('x-request-id')!;
        assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        const line = await log.find((l) => l.req_id === id);
        assert.deepEqual([line.route, line.operation, line.status, line.user, line.path], [null, null, 404, null, '/no/such/thing']);
      }
    });

    it('carries the id of the request that finished an upload into its transcode job and the job lines', async () => {
      const clip = await makeClip({ seconds: 1, audio: false });
      const { id, link } = await createTusVideo(h, owner.token, clip.length);
      const patch = await fetch(link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'X-Request-Id': `upload-${driver.name}` },
        body: clip,
      });
      assert.equal(patch.status, 204);
      assert.equal(patch.headers.get('x-request-id'), `upload-${driver.name}`);
      const done = await log.find((l) => l.msg === 'job finished' && l.kind === 'transcode' && l.video === id);
      const started = await log.find((l) => l.msg === 'job started' && l.job_id === done.job_id);
      assert.equal(done.outcome, 'done', JSON.stringify(done));
      assert.equal(done.req_id, `upload-${driver.name}`);
      assert.equal(started.req_id, `upload-${driver.name}`);
      assert.equal(typeof done.ms, 'number');
      assert.equal(done.level, 30);
      const job = await h.service.store.get<JobRecord>('jobs', String(done.job_id));
      assert.equal(job?.request_id, `upload-${driver.name}`);
      const upload = await log.find((l) => l.req_id === `upload-${driver.name}` && l.msg === 'request');
      assert.deepEqual([upload.route, upload.operation, upload.status], ['/uploads/tus/{upload}', 'uploads.tus', 204]);

      const m = await scrape();
      assert.equal(m.get(`reelbase_upload_bytes_total{approach="tus"}`), clip.length);
      assert.equal(m.get(`reelbase_job_runs_total{kind="transcode",outcome="done"}`), 1);
      assert.equal(m.get(`reelbase_job_duration_seconds_count{kind="transcode"}`), 1);
      assert.ok(m.get(`reelbase_blob_operations_total{op="put",outcome="ok"}`)! >= 1);
      assert.ok(m.get('reelbase_store_transaction_duration_seconds_count')! >= 1);
      assert.equal(m.get(`reelbase_jobs{kind="transcode",state="queued"}`), 0);
      assert.equal(m.get(`reelbase_jobs{kind="transcode",state="failed"}`), 0);
      assert.equal(m.get(`reelbase_job_oldest_due_seconds{kind="transcode"}`), 0);
      assert.ok(m.get(`reelbase_http_requests_total{operation="videos.get",method="GET",status="200"}`)! >= 1);
      assert.ok(m.get(`reelbase_http_request_duration_seconds_count{operation="videos.get"}`)! >= 1);
      assert.ok(m.get(`reelbase_http_requests_total{operation="unmatched",method="GET",status="404"}`)! >= 4);
      assert.equal(m.get('reelbase_http_requests_in_flight'), 0);
      assert.ok(m.has('process_cpu_user_seconds_total') && m.has('nodejs_heap_size_used_bytes'));
    });

    it('counts the bytes of a pull upload, which no request carries, once fetched', async () => {
      const clip = await makeClip({ seconds: 1, audio: false });
      const origin = createServer((_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip));
      await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
      try {
        const before = await scrape();
        const link = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/clip.mp4`;
        const r = await h.call('POST', '/me/videos', { token: owner.token, json: { name: 'Pulled', upload: { approach: 'pull', link } } });
        assert.equal(r.status, 201, r.text);
        const id = String(r.body.uri).split('/').pop();
        // Its transcode is queued once the file is fetched and probed.
        await log.find((l) => l.msg === 'job finished' && l.kind === 'transcode' && l.video === id);
        const m = await scrape();
        assert.equal(m.get(`reelbase_upload_bytes_total{approach="pull"}`)! - (before.get(`reelbase_upload_bytes_total{approach="pull"}`) ?? 0), clip.length);
      } finally {
        await new Promise((resolve) => origin.close(resolve));
      }
    });

    it('counts a 429 and a failed sign-in', async () => {
      const before = await scrape();
      const caller = await h.user('Busy');
      let status = 200;
      for (let i = 0; status !== 429 && i <= 150; i++) status = (await h.call('GET', '/me', { token: caller.token })).status;
      assert.equal(status, 429);
      const app = await registerApp(h, owner.user);
      await account(h, 'Signer', 'signer@example.com', 'right horse battery');
      const browser = new FormBrowser(h.server.url);
      const page = await browser.get(authorizeUrl(app));
      assert.equal((await browser.submit(page, '/oauth/sign_in', { email: 'signer@example.com', password: 'wrong' })).status, 400);
      const m = await scrape();
      assert.equal(m.get('reelbase_rate_limited_total')! - before.get('reelbase_rate_limited_total')!, 1);
      assert.equal(m.get('reelbase_sign_in_failures_total')! - before.get('reelbase_sign_in_failures_total')!, 1);
      assert.equal(m.get(`reelbase_http_requests_total{operation="users.get",method="GET",status="429"}`), 1);
    });

    it('scraping 100 times under read load changes nothing but what the reads moved', async () => {
      const key = `reelbase_http_requests_total{operation="videos.get",method="GET",status="200"}`;
      const before = await scrape();
      const lines = log.lines.length;
      await Promise.all([
        ...Array.from({ length: 100 }, () => scrape()),
        ...Array.from({ length: 100 }, async () => assert.equal((await fetch(`${h.server.url}/videos/${video}`)).status, 200)),
      ]);
      await log.find(() => log.lines.length >= lines + 100);
      const after = await scrape();
      assert.equal(after.get(key)! - before.get(key)!, 100);
      const ours = (m: Map<string, number>) => [...m.keys()].filter((k) => k.startsWith('reelbase_')).sort();
      assert.deepEqual(ours(after), ours(before), 'no series came or went');
      assert.equal(log.lines.length, lines + 100, 'scrapes are not logged');
    });

    it('never logs a token, password, client secret, code, cookie, CSRF token or webhook secret', async () => {
      const app = await registerApp(h, owner.user);
      const password = 'correct horse battery staple';
      await account(h, 'Alice', 'alice@example.com', password);
      const browser = new FormBrowser(h.server.url);
      const state = 'state-secret-4711';
      const page = await browser.get(authorizeUrl(app, { state }));
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1];
      assert.ok(csrf, 'the sign-in form has a CSRF token');
      const at = await approve(browser, authorizeUrl(app, { state }), { email: 'alice@example.com', password });
      const code = at.searchParams.get('code')!;
      const exchanged = await h.call('POST', '/oauth/access_token', {
        form: { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri },
        headers: { authorization: basic(app.clientId, app.secret!) },
      });
      assert.equal(exchanged.status, 200, exchanged.text);
      const token: string = exchanged.body.access_token;
      const me = await h.call('GET', `/me?token=${token}&password=${encodeURIComponent(password)}&code=${code}&client_secret=${app.secret}&state=${state}&fields=name`, { token });
      assert.equal(me.status, 200);
      const line = await log.find((l) => l.req_id === me.headers.get('x-request-id'));
      assert.equal(line.path, '/me?token=[redacted]&password=[redacted]&code=[redacted]&client_secret=[redacted]&state=[redacted]&fields=name');
      assert.equal(line.app, app.app.id);
      const hook = await h.call('POST', '/me/webhooks', { token: owner.token, json: { url: 'https://hooks.example/reelbase' } });
      assert.equal(hook.status, 201, hook.text);
      await log.find((l) => l.req_id === hook.headers.get('x-request-id'));
      const cookies = [...browser.cookies.values()];
      assert.ok(cookies.length > 0, 'the browser holds a session cookie');
      const secrets = { token, owner: owner.token, password, clientSecret: app.secret!, code, csrf, state, webhook: String(hook.body.secret), ...Object.fromEntries(cookies.map((c, i) => [`cookie${i}`, c])) };
      for (const [name, secret] of Object.entries(secrets)) {
        assert.ok(secret.length >= 8, `${name} is a real secret`);
        assert.ok(!log.text.includes(secret) && !log.text.includes(encodeURIComponent(secret)), `the ${name} was logged`);
      }
    });
  });
}
