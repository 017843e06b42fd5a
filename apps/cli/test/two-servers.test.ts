import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { createService, createToken, createUser, parseScopes, schema, where, type Service, type Store } from '@reelbase/core';
import { expectError, type Answer } from '@reelbase/api-tests';
import { cliCommand } from '@reelbase/api-tests/bundled-commands';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { tempDir } from './cli-harness';
import { beforeNodeEndOfLife } from './worker-processes';

// Several servers, one database (issue #12): two real `reelbase serve` processes on one fresh
// PostgreSQL schema, driven at once. Selected by REELBASE_TEST_POSTGRES (scripts/with-postgres.sh sets it).
const server = process.env.REELBASE_TEST_POSTGRES;
const database = server ? scratchDatabase(server) : undefined;
if (database) after(() => database.drop());

// Both servers' clocks stand still (REELBASE_TEST_CLOCK) ten minutes into an hour-long rate-limit
// window; the fixtures are made ten minutes earlier, before the pre-order's time comes.
const setupTime = '2030-01-01T00:00:00Z';
const serveTime = '2030-01-01T00:10:00Z';
const windowEnd = '2030-01-01T01:00:00+00:00';
const preorderTime = '2030-01-01T00:05:00+00:00';
const rateLimit = 20;

interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** What it printed up to "Stop with Ctrl-C." (the first-run token, if it made one). */
  output: string;
}

/** `reelbase serve` in a process of its own on `store`; resolves once it listens and has said all it says on starting. */
async function startServe(store: string, cwd: string, files: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...cliCommand, 'serve', '--port', '0'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', REELBASE_STORE: store, REELBASE_FILES: files, REELBASE_RATE_LIMIT: `${rateLimit}/3600`, REELBASE_TEST_CLOCK: serveTime, ...beforeNodeEndOfLife },
  });
  child.stderr!.pipe(process.stderr);
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`serve exited with ${code} before listening`)));
  const started = new Promise<ServeProcess>((resolve) => {
    let output = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output += `${line}\n`;
      const url = /^reelbase serving (\S+) /m.exec(output)?.[1];
      if (line === 'Stop with Ctrl-C.' && url) resolve({ child, url, output });
    });
  });
  return Promise.race([started, exited]);
}

async function stopServe({ child }: ServeProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exit;
  assert.equal(code, 0);
}

/** One request to `base`, as a test reads it. */
async function call(base: string, method: string, path: string, token?: string, json?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

/** A user and an all-scopes token, straight in the store. */
async function account(store: Store, name: string): Promise<{ id: string; token: string }> {
  const now = new Date(setupTime);
  const user = await createUser(store, now, { name });
  return { id: user.id, token: (await createToken(store, now, user.id, parseScopes('all'))).token };
}

/** A request through the in-process service the fixtures are made with; fails unless it answers `status`. */
async function setup(service: Service, token: string, method: string, url: string, status: number, json?: unknown): Promise<Record<string, unknown>> {
  const r = await service.handle(token, { method, url, ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }) });
  assert.equal(r.status, status, JSON.stringify(r.body));
  return r.body as Record<string, unknown>;
}

const idOf = (body: Record<string, unknown>): string => String(body.uri).split('/').pop()!;
const tally = (answers: Answer[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
};

describe('two reelbase servers on one PostgreSQL database', { skip: server ? false : 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)' }, () => {
  let cleanup: () => void;
  let store: Store;
  let fixtures: Service;
  let servers: ServeProcess[] = [];
  /** The server that request `i` of a burst goes to: they alternate. */
  const via = (i: number): string => servers[i % 2].url;

  before(async () => {
    const dirs = tempDir();
    cleanup = dirs.cleanup;
    const url = await database!.freshUrl();
    store = await openPostgresStore({ schema, url });
    fixtures = createService({ store, clock: () => new Date(setupTime), config: { rateLimit: null } });
    servers = await Promise.all([startServe(url, dirs.dir, `${dirs.dir}/files`), startServe(url, dirs.dir, `${dirs.dir}/files`)]);
  });
  after(async () => {
    await Promise.all(servers.map(stopServe));
    await store?.close();
    cleanup?.();
  });

  it('starts both on the empty database at once: exactly one creates the first-run admin', async () => {
    assert.deepEqual(servers.map((s) => s.output.includes('First run: created user "admin"')).sort(), [false, true]);
    assert.equal(await store.count('users'), 1);
  });

  it('counts concurrent likes of one video through both servers exactly: 24 users, each liking through both at once', async () => {
    const owner = await account(store, 'Filmmaker');
    const video = idOf(await setup(fixtures, owner.token, 'POST', '/me/videos', 201, { name: 'Liked everywhere' }));
    const likers = await store.transaction(async (tx) => {
      const made = [];
      for (let i = 0; i < 24; i++) made.push(await account(tx, `Liker ${i}`));
      return made;
    });
    const puts = await Promise.all(likers.flatMap((u) => [0, 1].map((s) => call(via(s), 'PUT', `/me/likes/${video}`, u.token))));
    assert.deepEqual(tally(puts), { 204: 48 });
    const seen = await call(via(0), 'GET', `/videos/${video}?fields=metadata.connections.likes.total`, owner.token);
    assert.equal(seen.body.metadata.connections.likes.total, 24);
    assert.equal((await call(via(1), 'GET', `/videos/${video}/likes?per_page=1`)).body.total, 24);
    const states = await Promise.all(likers.map((u, i) => call(via(i), 'GET', `/videos/${video}?fields=metadata.interactions.like.added`, u.token)));
    assert.deepEqual(new Set(states.map((r) => r.body.metadata.interactions.like.added)), new Set([true]));
    assert.equal(await store.count('likes', where({ video_id: video })), 24);
  });

  it("holds one user's follow budget across both servers: 12 batches of 100 at once, exactly 1000 follows and 429/9006 for the rest", async () => {
    const follower = await account(store, 'Follower');
    const targets = await store.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < 1200; i++) ids.push((await createUser(tx, new Date(setupTime), { name: `Target ${i}` })).id);
      return ids;
    });
    const batches = Array.from({ length: 12 }, (_, b) => targets.slice(b * 100, b * 100 + 100).map((id) => `/users/${id}`));
    const answers = await Promise.all(batches.map((users, i) => call(via(i), 'POST', '/me/following', follower.token, { users })));
    assert.deepEqual(tally(answers), { 204: 10, 429: 2 });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expectError(refused, 429, 9006);
      assert.equal(refused.headers.get('retry-after'), '3600');
    }
    const me = await call(via(0), 'GET', '/me?fields=metadata.connections.following.total', follower.token);
    assert.equal(me.body.metadata.connections.following.total, 1000);
    assert.equal((await call(via(1), 'GET', '/me/following?per_page=1', follower.token)).body.total, 1000);
    assert.equal(await store.count('follows', where({ user_id: follower.id })), 1000);
    assert.equal(await store.count('follow_log', where({ user_id: follower.id })), 1000);
  });

  it(`shares the request limit: ${rateLimit + 10} requests of one token at once through both servers, exactly ${rateLimit} allowed`, async () => {
    const caller = await account(store, 'Busy');
    const answers = await Promise.all(Array.from({ length: rateLimit + 10 }, (_, i) => call(via(i), 'GET', '/me?fields=name', caller.token)));
    assert.deepEqual(tally(answers), { 200: rateLimit, 429: 10 });
    const allowed = answers.filter((a) => a.status === 200);
    assert.deepEqual(
      allowed.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b),
      Array.from({ length: rateLimit }, (_, i) => i),
      'each allowed request saw its own place in the one count',
    );
    for (const a of answers) {
      assert.equal(a.headers.get('x-ratelimit-limit'), String(rateLimit));
      assert.equal(a.headers.get('x-ratelimit-reset'), windowEnd);
    }
    for (const refused of answers.filter((a) => a.status === 429)) {
      expectError(refused, 429, 9000);
      assert.deepEqual(Object.keys(refused.body).sort(), ['developer_message', 'error', 'error_code', 'link']);
      assert.equal(refused.body.link, null);
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(refused.headers.get('retry-after'), '3000');
    }
    // Another token's allowance is whole on either server.
    const other = await account(store, 'Calm');
    assert.equal((await call(via(1), 'GET', '/me', other.token)).headers.get('x-ratelimit-remaining'), String(rateLimit - 1));
  });

  it('publishes a due pre-order exactly once when both servers see it due at the same time', async () => {
    const owner = await account(store, 'Studio');
    const viewer = await account(store, 'Viewer');
    const film = { name: 'Premiere', description: 'A film', type: 'film', content_rating: ['safe'], buy: { active: true, price: { USD: 9.99 } } };
    const page = idOf(await setup(fixtures, owner.token, 'POST', '/me/ondemand/pages', 201, film));
    await setup(fixtures, owner.token, 'PUT', `/ondemand/pages/${page}/genres/drama`, 201);
    const video = idOf(await setup(fixtures, owner.token, 'POST', '/me/videos', 201, { name: 'Feature' }));
    await setup(fixtures, owner.token, 'PUT', `/ondemand/pages/${page}/videos/${video}`, 200, { type: 'main' });
    const scheduled = await setup(fixtures, owner.token, 'PATCH', `/ondemand/pages/${page}`, 200, { preorder: { active: true, publish_time: preorderTime } });
    // `time` is when it went up for pre-order (the fixtures' clock); no pre-order was called off.
    assert.deepEqual(scheduled.preorder, { active: true, publish_time: preorderTime, time: '2030-01-01T00:00:00+00:00', cancel_time: null });

    const reads = await Promise.all(Array.from({ length: 20 }, (_, i) => call(via(i), 'GET', `/ondemand/pages/${page}`, (i >> 1) % 2 ? viewer.token : owner.token)));
    assert.deepEqual(tally(reads), { 200: 20 });
    for (const r of reads) assert.deepEqual(r.body.published, { enabled: true, time: preorderTime });
    assert.equal((await store.get(`ondemand_pages`, page))?.status, 'published');
    assert.equal(await store.count('activities', where({ type: 'ondemand_publish', subject: page })), 1, 'one announcement, however many requests raced');
  });
});
