import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { claimJob, createWorker, enqueue, isoTime, jobPruner, markDone, markFailed, pruneBatch, pruneEverySeconds, pruneJobs, type JobRecord, type Store } from '@reelbase/core';
import { drivers, TestClock } from '../src/index';

const day = 86400;
const retention = { doneSeconds: 7 * day, failedSeconds: 30 * day };

/** Deleting finished jobs once their retention ran out, on every driver, the clock moved by hand. */
for (const driver of drivers) {
  describe(`pruning finished jobs (${driver.name})`, () => {
    let store: Store;
    let cleanup: () => void;
    let clock: TestClock;
    beforeEach(async () => {
      ({ store, cleanup } = await driver.open());
      clock = new TestClock();
    });
    afterEach(async () => {
      await store.close();
      cleanup();
    });

    /** A job of its own kind, claimed now: `kind` keeps claims apart. */
    const claimed = async (kind: string, run_after?: string) => {
      await store.transaction((tx) => enqueue(tx, { kind, subject: kind, payload: {}, ...(run_after ? { run_after } : {}) }, clock.now()));
      return (await claimJob(store, { worker: 'w', kinds: [kind], leaseSeconds: 60, now: clock.now() }))!;
    };
    const done = async (kind: string) => {
      const job = await claimed(kind);
      await store.transaction((tx) => markDone(tx, job, clock.now()));
      return job.id;
    };
    const failed = async (kind: string) => {
      const job = await claimed(kind);
      await store.transaction((tx) => markFailed(tx, job, 'it broke', clock.now(), true));
      return job.id;
    };
    const prune = (limit?: number) => pruneJobs(store, retention, clock.now(), limit);
    const left = async () => (await store.find<JobRecord>('jobs', { orderBy: [{ field: 'id', direction: 'asc' }] })).items.map((job) => `${job.id} ${job.state}`);
    /** `n` jobs as markDone (or a final markFailed) leaves them, finished at `time`: a backlog, in one insert. */
    const backlog = async (n: number, state: 'done' | 'failed' = 'done', time = isoTime(clock.now())) => {
      const row = { kind: 'bulk', subject: 'bulk', payload: {}, state, attempts: 1, max_attempts: 5, run_after: time, lease_owner: null, lease_until: null, error: null, created_time: time, finished_time: time };
      return store.insertMany<JobRecord>('jobs', Array.from({ length: n }, () => row));
    };

    it('deletes a done job once older than its retention and a failed one once older than its own; never a queued or running one', async () => {
      const oldDone = await done('done-old');
      const oldFailed = await failed('failed-old');
      const running = (await claimed('running')).id;
      const queued = (await store.transaction((tx) => enqueue(tx, { kind: 'queued', subject: 'q', payload: {} }, clock.now()))).id;
      const retried = await claimed('retried');
      await store.transaction((tx) => markFailed(tx, retried, 'try again', clock.now()));
      clock.advance(day);
      const youngDone = await done('done-young');
      const unfinished = [`${running} running`, `${queued} queued`, `${retried.id} queued`];

      clock.advance(6 * day);
      assert.equal(await prune(), 0, 'exactly 7 days old: kept');
      clock.advance(1);
      assert.equal(await prune(), 1);
      assert.equal(await store.get('jobs', oldDone), null);
      assert.deepEqual(await left(), [`${oldFailed} failed`, ...unfinished, `${youngDone} done`], 'the younger done job and the failed one are kept');
      clock.advance(day);
      assert.equal(await prune(), 1, 'the younger done job, 7 days on');
      assert.deepEqual(await left(), [`${oldFailed} failed`, ...unfinished]);
      clock.advance(22 * day);
      assert.equal(await prune(), 1, 'the failed job, 30 days on');
      clock.advance(365 * day);
      assert.equal(await prune(), 0);
      assert.deepEqual(await left(), unfinished, 'a year on, the unfinished jobs are all there');
    });

    it('deletes a backlog in batches of at most the limit per call, the oldest first, done and failed alike', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) ids.push(await done(`done-${i}`));
      for (let i = 0; i < 3; i++) ids.push(await failed(`failed-${i}`));
      clock.advance(31 * day);
      assert.equal(await prune(10), 10);
      assert.equal(await store.get('jobs', ids[9]), null);
      assert.ok(await store.get('jobs', ids[10]), 'the oldest go first');
      assert.equal(await prune(10), 10);
      assert.equal(await prune(10), 8, 'the last 5 done and the 3 failed');
      assert.equal(await prune(10), 0);
      assert.equal(await store.count('jobs'), 0);
    });

    it('a worker deletes a batch a step while batches come back full, and starts a pass at most once an hour', async () => {
      const step = jobPruner(store, retention, clock.now);
      await backlog(2 * pruneBatch + 1);
      clock.advance(7 * day + 1);
      assert.deepEqual((await Promise.all([step(), step()])).sort(), [false, true], 'two lanes idle at once: one batch');
      assert.equal(await store.count('jobs'), pruneBatch + 1);
      assert.equal(await step(), true, 'the pass goes on');
      assert.equal(await step(), false, 'and ends on a short batch');
      assert.equal(await store.count('jobs'), 0);
      const expired = isoTime(new Date(clock.now().getTime() - 8 * day * 1000));
      await backlog(1, 'done', expired);
      clock.advance(pruneEverySeconds - 1);
      assert.equal(await step(), false);
      assert.equal(await store.count('jobs'), 1, 'not an hour since the last pass started');
      clock.advance(1);
      await step();
      assert.equal(await store.count('jobs'), 0);
    });

    it('a started worker prunes when idle, batch after batch without a nap, and again after an hour', async () => {
      await backlog(pruneBatch + 3);
      clock.advance(7 * day + 1);
      // It naps an hour of real time: what it deletes it deletes between wakes.
      const worker = createWorker({ store, now: clock.now, retention, idleMs: 3_600_000, handlers: { nothing: { async run() {}, async failed() {} } } });
      const emptied = async () => {
        for (let turns = 0; (await store.count('jobs')) > 0 && turns < 10_000; turns++) await new Promise((resolve) => setImmediate(resolve));
        return store.count('jobs');
      };
      worker.start();
      try {
        assert.equal(await emptied(), 0);
        await backlog(1, 'done', isoTime(new Date(0)));
        clock.advance(pruneEverySeconds);
        worker.wake();
        assert.equal(await emptied(), 0);
      } finally {
        await worker.stop();
      }
    });

    it('two pruners at once delete each expired job once and leave the rest', async () => {
      await backlog(45);
      await backlog(7, 'failed');
      clock.advance(8 * day);
      const young = await backlog(5);
      const queued = (await store.transaction((tx) => enqueue(tx, { kind: 'queued', subject: 'q', payload: {}, run_after: isoTime(new Date(0)) }, clock.now()))).id;
      const untilShort = async () => {
        let removed = 0;
        let n: number;
        do removed += n = await prune(10);
        while (n === 10);
        return removed;
      };
      const [a, b] = await Promise.all([untilShort(), untilShort()]);
      assert.equal(a + b, 45, 'each expired done job once; the failed ones are within their 30 days');
      assert.deepEqual((await store.find<JobRecord>('jobs', { where: { field: 'state', op: 'eq', value: 'done' } })).items.map((job) => job.id), young);
      assert.equal(await store.count('jobs'), 5 + 7 + 1);
      clock.advance(30 * day);
      await Promise.all([jobPruner(store, retention, clock.now)(), jobPruner(store, retention, clock.now)()]);
      assert.deepEqual(await left(), [`${queued} queued`]);
    });
  });
}
