import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TransportResponse } from '@reelbase/http';
import type { Clock } from '../src/batch/clock';
import { backoffMs, retryAfterMs } from '../src/batch/retry';
import { runTasks, type TaskOutcome } from '../src/batch/runner';

/** A clock whose sleeps only move time forward, recording each wait. */
function fakeClock(start = 1_000_000): Clock & { waits: number[] } {
  let now = start;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    async sleep(ms) {
      waits.push(ms);
      now += ms;
    },
  };
}

const answer = (status: number, headers: Record<string, string> = {}): TransportResponse => ({ status, headers, body: status < 300 ? { ok: true } : { error_code: 9006 } });

/** Runs tasks, collecting outcomes by task. */
async function collect<T>(tasks: T[], options: Omit<Parameters<typeof runTasks<T>>[1], 'onFinish'>) {
  const outcomes = new Map<T, TaskOutcome>();
  const summary = await runTasks(tasks, { ...options, onFinish: (task, outcome) => outcomes.set(task, outcome) });
  return { summary, outcomes };
}

describe('retry timing', () => {
  it('reads Retry-After as seconds or an HTTP date, and backs off exponentially up to 30 s', () => {
    const now = Date.parse('2026-01-02T03:04:05Z');
    assert.equal(retryAfterMs({ 'retry-after': '7' }, now), 7000);
    assert.equal(retryAfterMs({ 'retry-after': '0' }, now), 0);
    assert.equal(retryAfterMs({ 'retry-after': 'Fri, 02 Jan 2026 03:04:35 GMT' }, now), 30_000);
    assert.equal(retryAfterMs({ 'retry-after': 'Fri, 02 Jan 2026 03:00:00 GMT' }, now), 0);
    assert.equal(retryAfterMs({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(retryAfterMs({}, now), undefined);
    assert.deepEqual([1, 2, 3, 4, 7, 8].map(backoffMs), [500, 1000, 2000, 4000, 30_000, 30_000]);
  });
});

describe('runTasks', () => {
  it('keeps at most `concurrency` requests in flight and finishes every task', async () => {
    let inFlight = 0;
    let most = 0;
    const { summary, outcomes } = await collect(Array.from({ length: 40 }, (_, i) => i), {
      concurrency: 3,
      async send(i) {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return answer(i % 10 === 9 ? 400 : 201);
      },
    });
    assert.equal(most, 3);
    assert.deepEqual(summary, { done: 36, failed: 4, left: 0, stopped: null });
    assert.equal(outcomes.size, 40);
    assert.deepEqual(outcomes.get(9), { ok: false, status: 400, response: answer(400), attempts: 1 });
  });

  it('holds every worker back for Retry-After after a 429, then retries the refused request', async () => {
    const clock = fakeClock();
    const sent: { task: string; at: number }[] = [];
    let refused = false;
    const waits: [number, string][] = [];
    const { summary, outcomes } = await collect(['a', 'b', 'c', 'd'], {
      concurrency: 2,
      clock,
      onWait: (ms, reason) => waits.push([ms, reason]),
      async send(task) {
        sent.push({ task, at: clock.now() });
        if (task === 'b' && !refused) {
          refused = true;
          return answer(429, { 'retry-after': '60' });
        }
        return answer(204);
      },
    });
    assert.deepEqual(summary, { done: 4, failed: 0, left: 0, stopped: null });
    assert.deepEqual(waits, [[60_000, 'rate limited (429), retry 1 of 5']]);
    const start = 1_000_000;
    // a and b go at once; b is refused; nothing more is sent until a minute later.
    assert.deepEqual(sent.slice(0, 2), [{ task: 'a', at: start }, { task: 'b', at: start }]);
    assert.ok(sent.slice(2).every((s) => s.at === start + 60_000), JSON.stringify(sent));
    assert.deepEqual(sent.map((s) => s.task).sort(), ['a', 'b', 'b', 'c', 'd']);
    assert.equal(outcomes.get('b')!.attempts, 2);
  });

  it('backs off exponentially on a 429 without Retry-After and gives up after `retries`', async () => {
    const clock = fakeClock();
    const { summary, outcomes } = await collect(['x'], { concurrency: 1, clock, retries: 3, send: async () => answer(429) });
    assert.deepEqual(summary, { done: 0, failed: 1, left: 0, stopped: null });
    assert.deepEqual(clock.waits, [500, 1000, 2000]);
    const outcome = outcomes.get('x')!;
    assert.equal(outcome.status, 429);
    assert.equal(outcome.attempts, 4);
  });

  it('retries network errors with back-off, bounded, and reports the last error', async () => {
    const clock = fakeClock();
    let calls = 0;
    const { summary, outcomes } = await collect(['flaky', 'down'], {
      concurrency: 1,
      clock,
      retries: 2,
      async send(task) {
        calls++;
        if (task === 'flaky' && calls === 1) throw new Error('cannot reach http://127.0.0.1:1: ECONNRESET');
        if (task === 'down') throw new Error('cannot reach http://127.0.0.1:1: ECONNREFUSED');
        return answer(200);
      },
    });
    assert.deepEqual(summary, { done: 1, failed: 1, left: 0, stopped: null });
    assert.equal(outcomes.get('flaky')!.attempts, 2);
    assert.deepEqual(outcomes.get('down'), { ok: false, status: null, error: 'cannot reach http://127.0.0.1:1: ECONNREFUSED', attempts: 3 });
    assert.deepEqual(clock.waits, [500, 500, 1000]);
  });

  it('--fail-fast stops starting tasks after the first failure; those in flight still finish', async () => {
    const { summary, outcomes } = await collect(Array.from({ length: 20 }, (_, i) => i), {
      concurrency: 2,
      failFast: true,
      send: async (i) => answer(i === 3 ? 500 : 200),
    });
    assert.equal(summary.stopped, 'fail-fast');
    assert.equal(summary.failed, 1);
    assert.equal(summary.done + summary.failed + summary.left, 20);
    assert.ok(summary.left >= 15, `left ${summary.left}`);
    assert.deepEqual([...outcomes.keys()].sort((a, b) => a - b), Array.from({ length: outcomes.size }, (_, i) => i));
  });

  it('an abort stops starting tasks and cuts a back-off short; requests in flight are reported, unsent ones left', async () => {
    const stop = new AbortController();
    const clock: Clock = { now: () => 0, sleep: (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true })) };
    let finishA!: () => void;
    const { summary, outcomes } = await collect(['a', 'b', 'c', 'd', 'e'], {
      concurrency: 2,
      clock,
      signal: stop.signal,
      onWait() {
        // Ctrl-C while b waits out an hour-long Retry-After and a is still in flight.
        stop.abort();
        finishA();
      },
      async send(task) {
        if (task === 'a') await new Promise<void>((resolve) => (finishA = resolve));
        return task === 'b' ? answer(429, { 'retry-after': '3600' }) : answer(200);
      },
    });
    assert.deepEqual([...outcomes.keys()], ['a']);
    assert.deepEqual(summary, { done: 1, failed: 0, left: 4, stopped: 'signal' });
  });

  it('stops and rethrows when a result cannot be recorded', async () => {
    let sent = 0;
    await assert.rejects(
      runTasks([1, 2, 3, 4], {
        concurrency: 1,
        send: async () => (sent++, answer(200)),
        onFinish: () => {
          throw new Error('ENOSPC: no space left on device');
        },
      }),
      /ENOSPC/,
    );
    assert.equal(sent, 1);
  });
});
