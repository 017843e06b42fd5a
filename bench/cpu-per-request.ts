/**
 * `npm run bench:cpu`: the server CPU time a token read of GET /videos/{id} costs, bare node:http
 * beside reelbase (anonymous, with the owner's token; request logs and metrics off, on, or one of
 * them), in turns: what a loaded machine can still measure, where req/s means little. Each case
 * gets `BENCH_REQUESTS` requests a turn (default 4,000) from autocannon at BENCH_CONNECTIONS, over
 * BENCH_ROUNDS rounds (default 5); it prints each case's median µs of CPU a request (user + system,
 * all the process's threads, from /proc) and its ratio to bare's. BENCH_PROFILE=DIR also writes a
 * V8 CPU profile of each reelbase server (`--cpu-prof`) there; BENCH_BEFORE=DIR (another checkout,
 * built) adds its server, anonymous and with the token, logs and metrics off and on, beside this one's.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { quickPopulation, seedStore, tokensFor } from './populations';
import { startAll, startPeer, startReelbase, stopAll, type ServerProcess } from './processes';
import { answer, publicVideos } from './cases/token-reads';
import { readSettings } from './settings';

const settings = readSettings();
const requests = Number(process.env.BENCH_REQUESTS ?? 4000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const profileDir = process.env.BENCH_PROFILE;
const before = process.env.BENCH_BEFORE;
const videosRead = 500;

const quiet = { REELBASE_LOG_LEVEL: 'silent' };
const logs = { REELBASE_LOG_LEVEL: 'info', REELBASE_LOG_FORMAT: 'json' };
const metrics = { REELBASE_METRICS_PORT: '0' };

const dir = join(settings.dir, `cpu-${process.pid}`);
mkdirSync(dir, { recursive: true });
try {
  const db = join(dir, 'quick.db');
  const summary = await seedStore('sqlite', db, quickPopulation(Math.min(settings.videos, 2000)));
  const owner = summary.busiest.user?.id;
  if (!owner) throw new Error('the population has no busiest user');
  const { owner: token } = await tokensFor(db, owner);
  const headers = { authorization: `Bearer ${token}` };
  const store = `sqlite:${db}`;
  const setup = await startReelbase(store, quiet);
  const paths = (await publicVideos(setup.url, owner, videosRead).finally(() => setup.stop())).map((id) => `/videos/${id}`);
  const prepare = await startReelbase(store, quiet);
  const body = join(dir, 'bare.json');
  writeFileSync(body, await answer(prepare.url + paths[0], headers).finally(() => prepare.stop()));
  const profiled = (name: string) => (profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`] : []);
  const configurations: { name: string; env?: Record<string, string>; token: boolean; checkout?: string }[] = [
    { name: 'bare node:http', token: false },
    { name: 'anonymous, off', env: quiet, token: false },
    { name: 'token, off', env: quiet, token: true },
    { name: 'token, logs+metrics', env: { ...logs, ...metrics }, token: true },
    { name: 'token, logs only', env: logs, token: true },
    { name: 'token, metrics only', env: { ...quiet, ...metrics }, token: true },
    ...(before
      ? [
          { name: 'before: anonymous, off', env: quiet, token: false, checkout: before },
          { name: 'before: token, off', env: quiet, token: true, checkout: before },
          { name: 'before: token, on', env: { ...logs, ...metrics }, token: true, checkout: before },
        ]
      : []),
  ];
  const servers: ServerProcess[] = await startAll(
    configurations.map((c, i) => () => (c.env ? startReelbase(store, c.env, { node: profiled(`case-${i}`), checkout: c.checkout }) : startPeer('bare', [body]))),
  );
  const micros: number[][] = configurations.map(() => []);
  // Each case's measured turns by thread name: the main thread's share, and what runs beside it (GC helpers, libuv's pool).
  const threads: Record<string, number>[] = configurations.map(() => ({}));
  const measured = configurations.map(() => 0);
  try {
    const turn = async (i: number, amount: number, record: boolean) => {
      const server = servers[i];
      const before = server.cpuSeconds()!;
      const threadsBefore = server.threadSeconds() ?? {};
      const r = await autocannon({ url: server.url, connections: settings.connections, amount, ...(i > 0 ? { requests: paths.map((path) => ({ method: 'GET', path })) } : {}), ...(configurations[i].token ? { headers } : {}) });
      if (r.non2xx || r.errors) throw new Error(`${configurations[i].name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      if (record) {
        for (const [name, seconds] of Object.entries(server.threadSeconds() ?? {})) threads[i][name] = (threads[i][name] ?? 0) + seconds - (threadsBefore[name] ?? 0);
        measured[i] += r.requests.total;
      }
      return ((server.cpuSeconds()! - before) / r.requests.total) * 1e6;
    };
    for (let i = 0; i < servers.length; i++) await turn(i, requests, false);
    for (let round = 0; round < rounds; round++) {
      const order = configurations.map((_, i) => (i + round) % configurations.length);
      for (const i of round % 2 ? order.reverse() : order) micros[i].push(await turn(i, requests, true));
    }
  } finally {
    await stopAll(servers);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // On a loaded machine a turn's CPU a request swells with the others' work (caches, switches): the least is the closest to the path's own.
  const least = (xs: number[]) => Math.min(...xs);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${requests} requests a turn, ${rounds} rounds, c=${settings.connections}; /proc CPU has 10 ms ticks`);
  for (const [i, c] of configurations.entries()) {
    const m = median(micros[i]);
    const l = least(micros[i]);
    const ratios = (to: (xs: number[]) => number) => `${((to(micros[0]) / to(micros[i])) * 100).toFixed(0)}%`;
    const vsOff = (to: (xs: number[]) => number) => `${((to(micros[2]) / to(micros[i])) * 100).toFixed(0)}%`;
    console.log(
      `${c.name.padEnd(24)} median ${m.toFixed(0).padStart(4)} µs, least ${l.toFixed(0).padStart(4)} µs a request; bare/this ${ratios(median)} (least ${ratios(least)})` +
        `${c.token && i > 2 ? `; token off/this ${vsOff(median)} (least ${vsOff(least)})` : ''}  [${micros[i].map((x) => x.toFixed(0)).join(' ')}]`,
    );
  }
  console.log('by thread, µs a request over all measured turns:');
  for (const [i, c] of configurations.entries()) {
    const shares = Object.entries(threads[i]).filter(([, seconds]) => seconds > 0).sort((a, b) => b[1] - a[1]);
    console.log(`${c.name.padEnd(24)} ${shares.map(([name, seconds]) => `${name} ${((seconds / measured[i]) * 1e6).toFixed(1)}`).join(', ')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
