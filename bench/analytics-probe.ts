import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { analyticsPage, and, eq, gte, lte, rollupMetrics, schema, type ReportQuery, type Store } from '@reelbase/core';
import { openPostgresStore, scratchDatabase } from '@reelbase/store-postgres';
import { analyticsYear, foldSeededUser, seedAnalytics, type AnalyticsPopulation } from './analytics-population';
import { openStore } from './populations';

/**
 * Issue 49's report shapes measured in process, for a loaded machine (CPU time, not wall clock,
 * and PostgreSQL's own EXPLAIN): one creator's year seeded as bench/cases/analytics.ts seeds it,
 * at BENCH_VIDEOS (default 1,000) videos and BENCH_ANALYTICS_EVENTS (default 1M) events, on
 * SQLite and, given BENCH_POSTGRES (or REELBASE_TEST_POSTGRES), PostgreSQL, after the seeding
 * store's close (its VACUUM (ANALYZE)); there the slowest statement of each shape is EXPLAINed
 * (ANALYZE, BUFFERS). Beside each shape, what main (9fe8467) read for its whole months.
 *
 *   scripts/with-postgres.sh npx tsx bench/analytics-probe.ts
 */
const videos = Number(process.env.BENCH_VIDEOS ?? 1000);
const events = Number(process.env.BENCH_ANALYTICS_EVENTS ?? 1_000_000);
const postgresUrl = process.env.BENCH_POSTGRES ?? process.env.REELBASE_TEST_POSTGRES;
const repeats = 10;

const year = { from: `${analyticsYear}-01-01`, to: `${analyticsYear}-12-31` };
const cut = { from: `${analyticsYear}-01-15`, to: `${analyticsYear}-12-14` };
type Shape = { name: string; q: Omit<ReportQuery, 'userId' | 'filters'>; paged?: boolean };
const shapes: Shape[] = [
  { name: 'video × month, a year, pages 1–10', q: { ...year, dimension: 'video', interval: 'month' }, paged: true },
  { name: 'video × month, 15th → 14th, pages 1–10', q: { ...cut, dimension: 'video', interval: 'month' }, paged: true },
  { name: 'total × month, a year', q: { ...year, dimension: 'total', interval: 'month' } },
  { name: 'embed_domain × month', q: { ...year, dimension: 'embed_domain', interval: 'month' } },
  { name: 'device_type × month', q: { ...year, dimension: 'device_type', interval: 'month' } },
  { name: 'country × month', q: { ...year, dimension: 'country', interval: 'month' } },
  { name: 'total × year', q: { ...year, dimension: 'total', interval: 'year' } },
  { name: 'total × none', q: { ...year, dimension: 'total', interval: 'none' } },
  { name: 'device_type × none, 15th → 14th', q: { ...cut, dimension: 'device_type', interval: 'none' } },
  { name: 'total × day, a year', q: { ...year, dimension: 'total', interval: 'day' } },
];

/** Statements the PostgreSQL driver sent while `capturing`, to EXPLAIN afterwards. */
const captured: { text: string; values?: unknown[] }[] = [];
let capturing = false;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [first, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
  if (capturing) captured.push(typeof first === 'string' ? { text: first, values } : { text: first.text, values: first.values ?? values });
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

async function measure(store: Store, population: AnalyticsPopulation, label: string, explain?: pg.Client): Promise<void> {
  for (const shape of shapes) {
    const q: ReportQuery = { ...shape.q, userId: population.userId, filters: {} };
    const run = (i: number) => analyticsPage(store, q, { sort: 'date' }, { offset: shape.paged ? (i % 10) * 25 * 4 : 0, limit: 25 });
    const first = await run(0);
    const walls: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < repeats; i++) {
      const started = performance.now();
      await run(i);
      walls.push(performance.now() - started);
    }
    const spent = process.cpuUsage(cpu);
    walls.sort((a, b) => a - b);
    const line = `${label} | ${shape.name} | ${first.total} rows | wall p50 ${walls[repeats >> 1].toFixed(1)} max ${walls[repeats - 1].toFixed(1)} ms | node CPU ${((spent.user + spent.system) / 1000 / repeats).toFixed(2)} ms a report`;
    console.log(line);
    if (explain) await explainSlowest(explain, () => run(repeats - 1));
    const before = mainRead(store, q);
    if (before) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < repeats; i++) await before();
      const spent = process.cpuUsage(cpu);
      console.log(`${label} |   main read its whole months as: ${((performance.now() - started) / repeats).toFixed(1)} ms a report (mean), node CPU ${((spent.user + spent.system) / 1000 / repeats).toFixed(2)} ms`);
      if (explain) await explainSlowest(explain, before);
    }
  }
}

/**
 * What main (9fe8467) read for a shape's whole months, for a before beside the after: the video
 * month rows counted (a by-video report's total, beside its page), or summed (any other).
 */
function mainRead(store: Store, q: ReportQuery): (() => Promise<unknown>) | undefined {
  if (q.interval === 'day') return undefined;
  // The shapes' edges cut January and December: their whole months are February to November.
  const [first, last] = q.from.endsWith('-01-01') ? [q.from, `${q.to.slice(0, 7)}-01`] : [`${analyticsYear}-02-01`, `${analyticsYear}-11-01`];
  const months = and(eq('user_id', q.userId), eq('dimension', q.dimension === 'video' ? 'total' : q.dimension), gte('month', first), lte('month', last));
  if (q.dimension === 'video') return () => store.count('analytics_month_rollups', months);
  const by = [...(q.interval === 'none' ? [] : [q.interval]), ...(q.dimension === 'total' ? [] : ['value'])];
  return () => store.sumBy('analytics_month_rollups', by, rollupMetrics, months);
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement a report sends; prints the slowest's summary. */
async function explainSlowest(client: pg.Client, report: () => Promise<unknown>): Promise<void> {
  captured.length = 0;
  capturing = true;
  await report();
  capturing = false;
  const plans: { ms: number; plan: string[] }[] = [];
  for (const statement of captured.filter((s) => /^\s*(SELECT|WITH)/i.test(s.text))) {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
    const plan = rows.map((r) => r['QUERY PLAN']);
    plans.push({ ms: Number(/Execution Time: ([\d.]+)/.exec(plan.at(-1) ?? '')?.[1] ?? 0), plan });
  }
  const statements = plans.length;
  plans.sort((a, b) => b.ms - a.ms);
  const total = plans.reduce((sum, p) => sum + p.ms, 0);
  console.log(`    ${statements} statements, ${total.toFixed(2)} ms executing; the slowest:`);
  for (const line of plans[0]?.plan.filter((l) => /Scan|Execution|Heap Fetches|Buffers|Sort|Aggregate/.test(l)).slice(0, 8) ?? []) console.log(`      ${line.trim()}`);
}

/** The creator's days and months folded (the job's backfill, foldUserPeriod once for each): what a fold spends on them. */
async function timedFold(store: Store, label: string): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await foldSeededUser(store);
  const spent = process.cpuUsage(cpu);
  console.log(`${label}: the creator's 365 days and 12 months folded in ${((performance.now() - started) / 1000).toFixed(1)} s, node CPU ${((spent.user + spent.system) / 1000).toFixed(0)} ms`);
}

async function main(): Promise<void> {
  console.log(`analytics probe: ${videos} videos, ${events} events; load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'analytics-probe-'));
  try {
    const path = join(dir, 'analytics.db');
    const seeding = await openStore('sqlite', path, true);
    const population = await seedAnalytics(seeding, videos, events);
    await seeding.close();
    console.log(`sqlite: seeded ${population.dayRows} day and ${population.monthRows} month rows in ${(population.milliseconds / 1000).toFixed(1)} s`);
    const sqlite = await openStore('sqlite', path);
    await timedFold(sqlite, 'sqlite');
    await measure(sqlite, population, 'sqlite');
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!postgresUrl) return;
  const database = scratchDatabase(postgresUrl);
  try {
    const url = await database.freshUrl();
    const seeding = await openPostgresStore({ schema, url });
    const population = await seedAnalytics(seeding, videos, events);
    const started = performance.now();
    await seeding.close();
    console.log(`postgres: seeded ${population.dayRows} day and ${population.monthRows} month rows in ${(population.milliseconds / 1000).toFixed(1)} s; close ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const store = await openPostgresStore({ schema, url });
    try {
      await timedFold(store, 'postgres');
      await measure(store, population, 'postgres', client);
    } finally {
      await store.close();
      await client.end();
    }
  } finally {
    await database.drop();
  }
}

await main();
