import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { BlobUnavailableError, type BlobStore } from '@reelbase/core';
import { FsBlobStore } from '@reelbase/blobs-fs';
import { drivers } from '../src/drivers';
import { Harness } from '../src/harness';
import { pausePostgres } from '../src/postgres-pause';
import { killed, patchInFlight, startServerProcess } from '../src/server-process';
import { until } from '../src/held-patch';

/**
 * How long past its check's own 2 s timeout a readiness answer may take. The store or bucket never
 * answers while it hangs here, so any answer shows the check gave up, and its error ('no answer
 * within 2 s') names the timer that did; the bound tells a slow machine (load 20: the event loop
 * waits its turn for the CPU) from a check that waited on something else.
 */
const gaveUpMs = 10_000;

/**
 * Issue 47: liveness (`/health`) and readiness (`/health/ready`) on the API port and the metrics
 * port, needing no token and spending no rate limit; readiness failing, naming the check, within
 * 2.5 s when the store (a frozen PostgreSQL) or the blob store hangs or fails, and back after;
 * and at 503 from a SIGTERM while the request in flight still completes.
 */
const get = async (url: string): Promise<{ status: number; body: { status: string; checks?: Record<string, { status: string; error?: string }> }; ms: number }> => {
  const started = performance.now();
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as never, ms: performance.now() - started };
};

for (const driver of drivers) {
  describe(`health checks (${driver.name})`, () => {
    let h: Harness;
    before(async () => {
      // Two requests a window: the checks must not spend them.
      h = await Harness.start(driver, { rateLimit: { max: 2, windowSeconds: 600 } }, { serve: { metrics: { port: 0 } } });
    });
    after(() => h.stop());

    it('answers liveness and readiness on both ports, without a token and outside the rate limit', async () => {
      for (const base of [h.server.url, h.server.metricsUrl!]) {
        for (let i = 0; i < 3; i++) {
          const live = await fetch(`${base}/health`);
          assert.equal(live.status, 200);
          assert.equal(live.headers.get('x-ratelimit-remaining'), null);
          assert.deepEqual(await live.json(), { status: 'ok' });
          const ready = await get(`${base}/health/ready`);
          assert.equal(ready.status, 200);
          assert.equal(ready.body.status, 'ready');
          assert.deepEqual(Object.keys(ready.body.checks!).sort(), ['blobs', 'store']);
          for (const check of Object.values(ready.body.checks!)) assert.equal(check.status, 'ok');
        }
      }
      assert.equal((await h.call('GET', '/categories')).status, 200, 'the allowance is whole after 12 checks');
    });

    if (driver.name === 'postgres') {
      it('answers 503 naming the store when its 2 s check gives up on a frozen PostgreSQL, and 200 once it is back', async () => {
        const thaw = pausePostgres(process.env.REELBASE_TEST_POSTGRES!);
        try {
          const ready = await get(`${h.server.url}/health/ready`);
          assert.equal(ready.status, 503);
          assert.ok(ready.ms < gaveUpMs, `answered in ${ready.ms} ms`);
          assert.deepEqual([ready.body.status, ready.body.checks!.store.status, ready.body.checks!.store.error, ready.body.checks!.blobs.status], ['unavailable', 'failing', 'no answer within 2 s', 'ok']);
          const live = await get(`${h.server.url}/health`);
          assert.equal(live.status, 200);
        } finally {
          thaw();
        }
        await until(async () => (await get(`${h.server.url}/health/ready`)).status === 200, 'readiness back once PostgreSQL is');
      });
    }
  });
}

describe('readiness with the blob store down', () => {
  let h: Harness;
  let mode: 'up' | 'hang' | 'fail' = 'up';
  const hung: (() => void)[] = [];
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelbase-blobs-'));
    const files = new FsBlobStore(dir);
    // The filesystem store, whose `stat` hangs or fails on demand as a stalled or refusing bucket would.
    const blobs = new Proxy(files, {
      get(target, name, receiver) {
        if (name !== 'stat') return Reflect.get(target, name, receiver);
        return (key: string) =>
          mode === 'hang'
            ? new Promise((resolve) => hung.push(() => resolve(null)))
            : mode === 'fail'
              ? Promise.reject(new BlobUnavailableError('the bucket refused the connection'))
              : target.stat(key);
      },
    }) as BlobStore;
    h = await Harness.start(drivers[0], {}, { blobs });
  });
  after(async () => {
    for (const release of hung) release();
    await h.stop();
  });

  it('answers 503 naming the blob store when it hangs (its 2 s check gives up) or fails, and 200 once it answers', async () => {
    mode = 'hang';
    const hanging = await get(`${h.server.url}/health/ready`);
    assert.equal(hanging.status, 503);
    assert.ok(hanging.ms < gaveUpMs, `answered in ${hanging.ms} ms`);
    assert.deepEqual(hanging.body.checks!.blobs, { status: 'failing', error: 'no answer within 2 s' });
    assert.equal(hanging.body.checks!.store.status, 'ok');
    mode = 'fail';
    const failing = await get(`${h.server.url}/health/ready`);
    assert.equal(failing.status, 503);
    assert.deepEqual(failing.body.checks!.blobs, { status: 'failing', error: 'the bucket refused the connection' });
    mode = 'up';
    for (const release of hung.splice(0)) release();
    assert.equal((await get(`${h.server.url}/health/ready`)).status, 200);
  });
});

describe('draining on SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-drain-'));
  const children: ChildProcess[] = [];
  after(async () => {
    for (const c of children) await killed(c);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers readiness 503 while still serving, completes the request in flight with 200, then exits 0', async () => {
    const server = await startServerProcess('sqlite', join(dir, 'reelbase.db'), undefined, { REELBASE_DRAIN_SECONDS: '2' });
    children.push(server.child);
    // The request is in flight, its body held back, when the signal lands.
    const slow = await patchInFlight(server, 'written while draining');
    const draining = new Promise<void>((resolve) => {
      const lines = createInterface({ input: server.child.stderr! });
      lines.on('line', (line) => line.includes('draining for 2 s') && (lines.close(), resolve()));
    });
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    await draining;
    const ready = await get(`${server.base}/health/ready`);
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body.checks!.shutdown, { status: 'failing', error: 'the server is shutting down' });
    assert.equal((await get(`${server.base}/health`)).status, 200, 'still serving while draining');
    const r = await slow.send();
    assert.equal(r.status, 200, r.text);
    assert.equal(JSON.parse(r.text).bio, 'written while draining');
    assert.equal(await exited, 0);
  });
});
