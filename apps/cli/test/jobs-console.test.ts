import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createService, createToken, createUser, createWorker, enqueue, markDone, parseScopes, type JobRecord, type Service, type Store } from '@reelbase/core';
import { serve, type RunningServer } from '@reelbase/http';
import { scratchDatabase } from '@reelbase/store-postgres';
import { openStore, parseStoreSpec } from '../src/store-spec';
import { cli, stdoutJson, tempDir, type Outcome } from './cli-harness';

// PostgreSQL joins when REELBASE_TEST_POSTGRES names a server (scripts/with-postgres.sh sets it).
const postgres = process.env.REELBASE_TEST_POSTGRES;
const database = postgres ? scratchDatabase(postgres) : undefined;
if (database) after(() => database.drop());

/** The stores the console is tested on: a spec `--store` takes, made in `dir`. */
const drivers: { name: string; spec(dir: string): Promise<string> }[] = [
  { name: 'sqlite', spec: async (dir) => `sqlite:${join(dir, 'r.db')}` },
  { name: 'json', spec: async (dir) => `json:${join(dir, 'r.json')}` },
  ...(database ? [{ name: 'postgres', spec: () => database.freshUrl() }] : []),
];

/** How a scenario reaches the console (`reelbase jobs …` with its target flags) and the store behind it. */
interface Console {
  jobs(args: string[]): Promise<Outcome>;
  withStore<R>(fn: (store: Store) => Promise<R>): Promise<R>;
}

/**
 * A job of kind `<phase>.flaky` that fails while `failing` is set (its one attempt spent, it is
 * failed for good), and one of `<phase>.idle` no worker runs; a worker that runs the flaky kind.
 */
function phaseJobs(phase: string) {
  let failing = true;
  const flaky = `${phase}.flaky`;
  const idle = `${phase}.idle`;
  return {
    flaky,
    idle,
    recover: () => void (failing = false),
    async queue(store: Store): Promise<{ flakyJob: JobRecord; idleJob: JobRecord }> {
      const now = new Date();
      const flakyJob = await store.transaction((tx) => enqueue(tx, { kind: flaky, subject: '5', payload: {}, max_attempts: 1 }, now));
      const idleJob = await store.transaction((tx) => enqueue(tx, { kind: idle, subject: '6', payload: {} }, now));
      return { flakyJob, idleJob };
    },
    work(store: Store): Promise<number> {
      const run = async (job: JobRecord) => {
        if (failing) throw new Error('the bucket was down');
        await markDone(store, job, new Date());
      };
      return createWorker({ store, handlers: { [flaky]: { run, failed: async () => {} } }, now: () => new Date() }).drain();
    },
  };
}

/** List with filters, show, retry of a failed job that then succeeds, cancel of a queued one, and the refusals. */
function scenario(phase: string, open: () => Console) {
  const p = phaseJobs(phase);
  let c: Console;
  let ids: { flaky: string; idle: string };
  const ok = async (args: string[]) => {
    const outcome = await c.jobs([...args, '--json']);
    assert.equal(outcome.code, 0, outcome.stderr);
    return stdoutJson(outcome);
  };

  before(async () => {
    c = open();
    const queued = await c.withStore((store) => p.queue(store));
    ids = { flaky: queued.flakyJob.id, idle: queued.idleJob.id };
    assert.equal(await c.withStore((store) => p.work(store)), 1, 'the flaky job ran once and failed');
  });

  it('lists jobs newest first, by state, kind and video', async () => {
    const mine = (body: { data: { id: string }[] }) => body.data.map((j) => j.id).filter((id) => id === ids.flaky || id === ids.idle);
    assert.deepEqual(mine(await ok(['list'])), [ids.idle, ids.flaky]);
    const failed = await ok(['list', '--state', 'failed', '--kind', p.flaky]);
    assert.equal(failed.total, 1);
    assert.deepEqual(failed.data.map((j: { id: string }) => j.id), [ids.flaky]);
    const byVideo = await ok(['list', '--video', '6', '--kind', p.idle]);
    assert.deepEqual(byVideo.data.map((j: { id: string; state: string }) => [j.id, j.state]), [[ids.idle, 'queued']]);
    assert.equal((await ok(['list', '--state', 'running', '--kind', p.flaky])).total, 0);
    const table = await c.jobs(['list', '--kind', p.flaky]);
    assert.match(table.stdout, new RegExp(`^ID +KIND +STATE +SUBJECT +ATTEMPTS +LAST_ERROR +CREATED_TIME\\n${ids.flaky} +${p.flaky.replace('.', '\\.')} +failed +5 +1/1 +the bucket was down +\\d{4}-`));
  });

  it('shows a job: attempts, last error and times', async () => {
    const job = await ok(['show', ids.flaky]);
    assert.deepEqual(
      { state: job.state, attempts: job.attempts, max_attempts: job.max_attempts, last_error: job.last_error, subject: job.subject, uri: job.uri, due_time: job.due_time },
      { state: 'failed', attempts: 1, max_attempts: 1, last_error: 'the bucket was down', subject: '5', uri: `/admin/jobs/${ids.flaky}`, due_time: null },
    );
    assert.ok(job.finished_time >= job.created_time);
    const missing = await c.jobs(['show', '999999']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /error 5000 \(HTTP 404\)/);
  });

  it('retries a failed job, which then succeeds', async () => {
    const retried = await ok(['retry', ids.flaky]);
    assert.deepEqual([retried.state, retried.attempts, retried.max_attempts, retried.finished_time], ['queued', 1, 2, null]);
    p.recover();
    assert.equal(await c.withStore((store) => p.work(store)), 1);
    assert.equal((await ok(['show', ids.flaky])).state, 'done');
    const again = await c.jobs(['retry', ids.flaky]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /error 2204 \(HTTP 409\).*only a failed or queued job can be retried/);
  });

  it('cancels a queued job for good; a finished one cannot be', async () => {
    const said = await c.jobs(['cancel', ids.idle]);
    assert.equal(said.code, 0, said.stderr);
    assert.equal(said.stdout, `Job ${ids.idle} (${p.idle}, subject 6) is cancelled: failed.\n`);
    const job = await ok(['show', ids.idle]);
    assert.deepEqual([job.state, job.last_error], ['failed', 'cancelled by an operator']);
    const again = await c.jobs(['cancel', ids.idle]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /HTTP 409/);
  });
}

for (const driver of drivers) {
  describe(`the job console (${driver.name})`, () => {
    let dir: string;
    let cleanup: () => void;
    let spec: string;
    before(async () => {
      ({ dir, cleanup } = tempDir());
      spec = await driver.spec(dir);
    });
    after(() => cleanup());

    describe('offline on the store, as its operator', () => {
      // Opened only between commands: a JSON store is one process's at a time.
      scenario('offline', () => ({
        jobs: (args) => cli(['jobs', ...args, '--store', spec]),
        async withStore(fn) {
          const store = await openStore(parseStoreSpec(spec, dir));
          try {
            return await fn(store);
          } finally {
            await store.close();
          }
        },
      }));
    });

    describe('through a running server, with an admin token', () => {
      let service: Service;
      let server: RunningServer;
      let admin: string;
      let plain: string;
      before(async () => {
        service = createService({ store: await openStore(parseStoreSpec(spec, dir)), config: { rateLimit: null } });
        server = await serve(service, { port: 0, host: '127.0.0.1', filesDir: join(dir, 'files'), worker: false });
        const user = await createUser(service.store, new Date(), { name: 'ops' });
        admin = (await createToken(service.store, new Date(), user.id, parseScopes('all,admin'))).token;
        plain = (await createToken(service.store, new Date(), user.id, parseScopes('all'))).token;
      });
      after(() => server.close());

      scenario('http', () => ({
        jobs: (args) => cli(['jobs', ...args, '--base-url', server.url, '--token', admin]),
        withStore: (fn) => fn(service.store),
      }));

      it('refuses a token without the admin scope (all does not include it)', async () => {
        const refused = await cli(['jobs', 'list', '--base-url', server.url, '--token', plain]);
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /error 3200 \(HTTP 403\).*"admin" scope/);
      });
    });
  });
}
