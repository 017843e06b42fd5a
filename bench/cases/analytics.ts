import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schema, type Store } from '@reelbase/core';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { analyticsYear, foldSeededUser, seedAnalytics, type AnalyticsPopulation } from '../analytics-population';
import { percent, record, type Bench } from '../context';
import { measure, measureInterleaved, pairedRatio, withCpu } from '../load';
import { openStore } from '../populations';
import { startAll, startPeer, startReelbase, stopAll, type ServerProcess } from '../processes';

const limitMs = 50;
const report = 'GET /me/analytics?dimension=video&time_interval=month, a year';
const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/**
 * Issue 49's analytics at scale (BENCH_CASES=analytics): one creator with BENCH_VIDEOS videos
 * (default 10,000) and BENCH_ANALYTICS_EVENTS events (default 10M) over a year, seeded as the
 * rollup job would have folded them (analytics-population.ts, timed); the report by video and
 * month over the year, its first 40 pages in turn at the latency connections, on SQLite and on
 * PostgreSQL (BENCH_POSTGRES), p99 < 50 ms each; the report across month bounds beside it; then
 * beacon ingest on SQLite beside bare node:http answering `{}`, in turns (load.ts measureInterleaved).
 */
export async function analyticsCases(b: Bench, dir: string): Promise<void> {
  const path = join(dir, 'analytics.db');
  const sqlite = await seeded(b, 'sqlite', (bulk) => openStore('sqlite', path, bulk));
  const server = await startReelbase(`sqlite:${path}`);
  try {
    await reportCases(b, server, sqlite, 'reelbase sqlite');
  } finally {
    await server.stop();
  }
  await beaconCase(b, `sqlite:${path}`, sqlite, dir);
  if (!b.settings.postgres) {
    b.targets.push({ name: `${report} p99, PostgreSQL`, ours: '', peers: '', ratio: '', wanted: `< ${limitMs} ms`, met: null });
    return;
  }
  const database = scratchDatabase(b.settings.postgres);
  try {
    const url = await database.freshUrl();
    const postgres = await seeded(b, 'postgres', () => openPostgresStore({ schema, url }));
    const pg = await startReelbase(url, { REELBASE_FILES: join(dir, 'analytics-postgres-files') });
    try {
      await reportCases(b, pg, postgres, 'reelbase postgres');
    } finally {
      await pg.stop();
    }
  } finally {
    await database.drop();
  }
}

/**
 * The population seeded into a store opened for a bulk load, then closed (SQLite builds its
 * indexes, PostgreSQL analyzes), then the creator's days and months folded on the store opened
 * again: the seed's time includes all three.
 */
async function seeded(b: Bench, driver: string, open: (bulk: boolean) => Promise<Store>): Promise<AnalyticsPopulation> {
  const started = performance.now();
  const population = await closing(await open(true), (store) => seedAnalytics(store, b.settings.videos, b.settings.analyticsEvents));
  await closing(await open(false), foldSeededUser);
  const took = performance.now() - started;
  const note = `${population.videos} videos, ${population.events} events folded into ${population.dayRows} day and ${population.monthRows} month rollup rows (rollupsOf, monthRollupsOf; insertMany), then the creator's (foldEveryUser)`;
  record(b, { case: 'seed a creator’s year of analytics', server: `reelbase ${driver}`, body: '', rps: null, p50: took, p99: took, note });
  return population;
}

/** What `work` answers with `store`, closed after it whatever happened. */
async function closing<T>(store: Store, work: (store: Store) => Promise<T>): Promise<T> {
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function reportCases(b: Bench, server: ServerProcess, population: AnalyticsPopulation, name: string): Promise<void> {
  const headers = { authorization: `Bearer ${population.token}` };
  const pages = (query: string) => Array.from({ length: 40 }, (_, i) => `/me/analytics?dimension=video&time_interval=month&${query}&page=${i + 1}`);
  const year = `from=${analyticsYear}-01-01&to=${analyticsYear}-12-31`;
  const first = await fetch(server.url + pages(year)[0], { headers });
  const body = (await first.json()) as { total?: number };
  if (first.status !== 200 || !body.total) throw new Error(`the report answered ${first.status}: ${JSON.stringify(body).slice(0, 300)}`);
  const { m, cpu } = await withCpu(server, () => measure(server.url, b.settings, b.settings.latencyConnections, pages(year), headers));
  record(b, { case: report, server: name, body: `${body.total} rows`, rps: m.rps, p50: m.p50, p99: m.p99, note: [`pages 1–40 in turn`, cpu, m.failed ? `${m.failed} failed` : ''].filter(Boolean).join('; ') });
  b.targets.push({
    name: `${report} p99, ${name.replace('reelbase ', '')}`,
    ours: `${m.p99.toFixed(1)} ms`,
    peers: '',
    ratio: '',
    wanted: `< ${limitMs} ms (${population.videos} videos, ${population.events} events)`,
    met: m.failed === 0 && m.p99 < limitMs,
  });
  // Across month bounds: the days at each edge are summed from day rollups.
  const edges = await withCpu(server, () => measure(server.url, b.settings, b.settings.latencyConnections, pages(`from=${analyticsYear}-01-15&to=${analyticsYear}-12-14`), headers));
  record(b, { case: `${report} from the 15th to the 14th`, server: name, body: '', rps: edges.m.rps, p50: edges.m.p50, p99: edges.m.p99, note: [edges.cpu, edges.m.failed ? `${edges.m.failed} failed` : ''].filter(Boolean).join('; ') });
  // The other shapes read the creator's own rollups: a row per period and value, however many videos.
  for (const shape of otherShapes) {
    const paths = [`/me/analytics?${shape}&${year}`, `/me/analytics?${shape}&from=${analyticsYear}-01-15&to=${analyticsYear}-12-14`];
    const other = await withCpu(server, () => measure(server.url, b.settings, b.settings.latencyConnections, paths, headers));
    record(b, { case: `GET /me/analytics?${shape}, a year and 15th → 14th in turn`, server: name, body: '', rps: other.m.rps, p50: other.m.p50, p99: other.m.p99, note: [other.cpu, other.m.failed ? `${other.m.failed} failed` : ''].filter(Boolean).join('; ') });
  }
}

/** Report shapes besides by video and month, each over the year and across month bounds. */
const otherShapes = ['dimension=total&time_interval=month', 'dimension=device_type&time_interval=month', 'dimension=country&time_interval=year', 'dimension=embed_domain&time_interval=none', 'dimension=total&time_interval=day'];

/** Beacons as the player sends them (form-encoded, a browser's user agent), impressions and heartbeats over ten videos, beside bare node:http. */
async function beaconCase(b: Bench, store: string, population: AnalyticsPopulation, dir: string): Promise<void> {
  const body = join(dir, 'bare-empty.json');
  writeFileSync(body, '{}');
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': desktop };
  const requests = population.someVideos.flatMap((id) => [
    { method: 'POST', path: `/videos/${id}/beacons`, headers, body: 'type=impression&embed_domain=blog.example' },
    { method: 'POST', path: `/videos/${id}/beacons`, headers, body: 'type=progress&seconds=5&embed_domain=blog.example' },
  ]);
  const [bare, ours] = await measureInterleaved(
    async () => {
      const started = await startAll([() => startPeer('bare', [body]), () => startReelbase(store)]);
      return { cases: [{ server: started[0], requests }, { server: started[1], requests }], stop: () => stopAll(started) };
    },
    b.settings,
    2,
    3,
  );
  const cpu = (micros: number | null) => (micros === null ? '' : `server CPU ≈ ${micros.toFixed(0)} µs a request`);
  record(b, { case: 'POST /videos/{id}/beacons', server: 'bare node:http, answering {}', body: '', rps: bare.rps, p50: bare.p50, p99: bare.p99, note: cpu(bare.cpuMicros) });
  const note = [`${percent(pairedRatio(ours, bare))} of bare`, cpu(ours.cpuMicros), ours.failed ? `${ours.failed} failed` : ''].filter(Boolean).join('; ');
  record(b, { case: 'POST /videos/{id}/beacons', server: 'reelbase sqlite, each stored', body: '', rps: ours.rps, p50: ours.p50, p99: ours.p99, note });
}
