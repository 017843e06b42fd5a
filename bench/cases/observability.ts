import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { percent, record, type Bench, type QuickWorld } from '../context';
import { measureInterleaved, pairedRatio, type InterleavedMeasure } from '../load';
import { tokensFor } from '../populations';
import { startAll, startPeer, startReelbase, stopAll } from '../processes';
import { answer, publicVideos } from './token-reads';

/** Each configuration's turns over three sets of fresh processes, as the token reads are measured (load.ts measureInterleaved). */
const sets = 3;
const rounds = 4;
const videosRead = 500;

/** Request logs at info (JSON on stdout, a file as a deployment's is: processes.ts) and metrics on an ephemeral port; or neither; or one of them. */
const logs = { REELBASE_LOG_LEVEL: 'info', REELBASE_LOG_FORMAT: 'json' };
const metrics = { REELBASE_METRICS_PORT: '0' };
const quiet = { REELBASE_LOG_LEVEL: 'silent' };
const configurations = [
  { name: 'logs and metrics off', env: quiet },
  { name: 'logs (info, json) and metrics on', env: { ...logs, ...metrics } },
  { name: 'logs only', env: logs },
  { name: 'metrics only', env: { ...quiet, ...metrics } },
];

/**
 * Issue 47: what request logs and metrics cost the hot path. GET /videos/{id} with the owner's
 * token, over 500 videos, in turns: bare node:http serialising the same body, reelbase with logs
 * and metrics off, with both on, and with each alone (to tell which costs what); the target holds
 * "both on" to ≥ 90% of "off", round by round (load.ts pairedRatio).
 */
export async function observabilityCase(b: Bench, world: QuickWorld): Promise<void> {
  const owner = world.summary.busiest.user?.id;
  if (!owner) throw new Error('the quick population has no busiest user');
  const { owner: token } = await tokensFor(world.stores.sqlite, owner);
  const headers = { authorization: `Bearer ${token}` };
  const store = `sqlite:${world.stores.sqlite}`;
  const setup = await startReelbase(store, quiet);
  const paths = await publicVideos(setup.url, owner, videosRead)
    .then((ids) => ids.map((id) => `/videos/${id}`))
    .finally(() => setup.stop());
  const body = join(world.dir, 'bare-observability.json');
  const prepare = await startReelbase(store, quiet);
  writeFileSync(body, await answer(prepare.url + paths[0], headers).finally(() => prepare.stop()));
  const [bare, off, on, ...alone] = await measureInterleaved(
    async () => {
      const started = await startAll([() => startPeer('bare', [body]), ...configurations.map((c) => () => startReelbase(store, c.env))]);
      return { cases: started.map((server, i) => (i === 0 ? { server } : { server, paths, headers })), stop: () => stopAll(started) };
    },
    b.settings,
    sets,
    rounds,
  );
  const name = `GET /videos/{id} ×${paths.length} with a token`;
  const row = (server: string, m: InterleavedMeasure, note: string) =>
    record(b, { case: name, server, body: '', rps: m.rps, p50: m.p50, p99: m.p99, note: [note, m.failed ? `${m.failed} failed` : '', m.cpuMicros === null ? '' : `server CPU ≈ ${m.cpuMicros.toFixed(0)} µs a request`].filter(Boolean).join('; ') });
  row('bare node:http, serialising', bare, '');
  row(`reelbase sqlite, ${configurations[0].name}`, off, `${percent(pairedRatio(off, bare))} of bare`);
  row(`reelbase sqlite, ${configurations[1].name}`, on, `${percent(pairedRatio(on, bare))} of bare; ${percent(pairedRatio(on, off))} of off`);
  alone.forEach((m, i) => row(`reelbase sqlite, ${configurations[i + 2].name}`, m, `${percent(pairedRatio(m, off))} of off`));
  const ratio = pairedRatio(on, off);
  b.targets.push({
    name: 'token reads with request logs and metrics on vs off',
    ours: `${on.rps.toFixed(0)} req/s`,
    peers: `off ${off.rps.toFixed(0)} req/s, bare ${bare.rps.toFixed(0)} req/s`,
    ratio: percent(ratio),
    wanted: '≥ 90%',
    met: on.failed === 0 && off.failed === 0 && ratio >= 0.9,
  });
}
