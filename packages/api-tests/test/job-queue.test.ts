import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cancelJob, cancelledError, claimJob, createWorker, enqueue, heartbeat, markDone, PermanentJobError, type JobRecord, type Store } from '@reelbase/core';
import { drivers, TestClock } from '../src/index';

/** The durable job queue on every driver: exclusive claims, leases, back-off, bounded attempts, order per subject. */
for (const driver of drivers) {
  describe(`the job queue (${driver.name})`, () => {
    let store: Store;
    let cleanup: () => void;
    const clock = new TestClock();
    const claim = (worker: string, kinds = ['test'], ordered: string[] = []) => claimJob(store, { worker, kinds, ordered, leaseSeconds: 60, now: clock.now() });
    const add = (subject = 'a', kind = 'test', max_attempts?: number) =>
      store.transaction((tx) => enqueue(tx, { kind, subject, payload: { n: subject }, ...(max_attempts ? { max_attempts } : {}) }, clock.now()));
    const done = (job: JobRecord) => store.transaction((tx) => markDone(tx, job, clock.now()));
    before(async () => {
      ({ store, cleanup } = await driver.open());
    });
    after(async () => {
      await store.close();
      cleanup();
    });

    it('claims each job exactly once, even with claimers racing', async () => {
      for (let i = 0; i < 24; i++) await add(`race-${i}`, 'race');
      const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => claim(`w${i % 4}`, ['race'])));
      const ids = claims.filter((j): j is JobRecord => j !== null).map((j) => j.id);
      assert.equal(ids.length, 24);
      assert.equal(new Set(ids).size, 24, 'no job was handed out twice');
      for (const job of claims) if (job) assert.deepEqual([job.state, job.attempts, job.lease_until], ['running', 1, '2026-01-02T03:05:05+00:00']);
      assert.equal(await claim('late', ['race']), null);
      for (const job of claims) if (job) await done(job);
    });

    it('a lease that runs out makes the job claimable again; the first worker’s heartbeat then fails', async () => {
      const job = (await add('lease'), await claim('w1'))!;
      assert.equal(await claim('w2'), null, 'held');
      clock.advance(30);
      assert.equal(await heartbeat(store, job, 'w1', 60, clock.now()), true, 'renewed while held');
      clock.advance(61);
      const again = (await claim('w2'))!;
      assert.deepEqual([again.id, again.attempts, again.lease_owner], [job.id, 2, 'w2']);
      assert.equal(await heartbeat(store, job, 'w1', 60, clock.now()), false, 'taken over');
      await done(again);
    });

    it('a worker retries a failing job with back-off, and fails it for good after its attempts', async () => {
      await add('flaky', 'flaky', 3);
      const failures: string[] = [];
      let runs = 0;
      const worker = createWorker({
        store,
        now: clock.now,
        handlers: {
          flaky: {
            async run() {
              runs++;
              throw new Error(`attempt ${runs} broke`);
            },
            async failed(_tx, job, error) {
              failures.push(`${job.subject}: ${error}`);
            },
          },
        },
      });
      assert.equal(await worker.drain(), 1);
      clock.advance(4);
      assert.equal(await worker.drain(), 0, 'waits 5 s before the second attempt');
      clock.advance(1);
      assert.equal(await worker.drain(), 1);
      clock.advance(20);
      assert.equal(await worker.drain(), 1);
      clock.advance(3600);
      assert.equal(await worker.drain(), 0, 'spent');
      assert.equal(runs, 3);
      assert.deepEqual(failures, ['flaky: attempt 3 broke']);
      const [job] = (await store.find<JobRecord>('jobs', { where: { field: 'kind', op: 'eq', value: 'flaky' } })).items;
      assert.deepEqual([job.state, job.attempts, job.error], ['failed', 3, 'attempt 3 broke']);
    });

    it('a permanent error fails the job at once', async () => {
      await add('bad', 'bad', 5);
      let failed = '';
      const worker = createWorker({
        store,
        now: clock.now,
        handlers: {
          bad: {
            async run() {
              throw new PermanentJobError('not a video');
            },
            async failed(_tx, _job, error) {
              failed = error;
            },
          },
        },
      });
      assert.equal(await worker.drain(), 1);
      assert.equal(failed, 'not a video');
    });

    it('a job cancelled while its attempt fails stays cancelled: neither queued again nor failed by the worker', async () => {
      const job = await add('cancel-race', 'cancel-race', 3);
      const outcomes: string[] = [];
      let failed = 0;
      const worker = createWorker({
        store,
        now: clock.now,
        observer: { started() {}, finished: (_job, outcome) => outcomes.push(outcome) },
        handlers: {
          'cancel-race': {
            async run() {
              // The operator cancels between two heartbeats; then the attempt fails on its own.
              await store.transaction((tx) => cancelJob(tx, job.id, clock.now()));
              throw new Error('ffmpeg exited 1');
            },
            async failed() {
              failed++;
            },
          },
        },
      });
      assert.equal(await worker.drain(), 1);
      const after = (await store.get<JobRecord>('jobs', job.id))!;
      assert.deepEqual([after.state, after.error, after.attempts, after.lease_owner], ['failed', cancelledError, 1, null]);
      assert.deepEqual([outcomes, failed], [['lost'], 0]);
      clock.advance(3600);
      assert.equal(await worker.drain(), 0, 'nothing to run again');
    });

    it('an idle worker leaves no listener behind: many naps raise no MaxListenersExceededWarning', async () => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);
      process.on('warning', onWarning);
      let claims = 0;
      // Counts the worker's claims (one transaction each) to know it napped and woke again.
      const counted = new Proxy(store, {
        get(target, key) {
          const value = Reflect.get(target, key, target) as unknown;
          if (key === 'transaction') claims++;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const worker = createWorker({ store: counted, now: clock.now, idleMs: 3_600_000, handlers: { nothing: { async run() {}, async failed() {} } } });
      worker.start();
      for (let turns = 0; claims < 25 && turns < 100_000; turns++) {
        worker.wake();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await worker.stop();
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', onWarning);
      assert.ok(claims >= 25, `the worker woke ${claims} times`);
      assert.deepEqual(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), []);
    });

    it('jobs of an ordered kind wait for the earlier unfinished job of their subject', async () => {
      const [first, second, other] = [await add('v1', 'ordered'), await add('v1', 'ordered'), await add('v2', 'ordered')];
      const a = await claim('w', ['ordered'], ['ordered']);
      const b = await claim('w', ['ordered'], ['ordered']);
      assert.deepEqual([a?.id, b?.id], [first.id, other.id], 'the second event of v1 waits; v2 goes ahead');
      assert.equal(await claim('w', ['ordered'], ['ordered']), null);
      await done(a!);
      assert.equal((await claim('w', ['ordered'], ['ordered']))?.id, second.id);
    });
  });
}
