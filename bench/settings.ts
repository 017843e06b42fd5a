import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/** How a bench run is set up; every value comes from an environment variable so runs are comparable. */
export interface Settings {
  /** Seconds each throughput or latency case runs (BENCH_SECONDS, default 10). */
  seconds: number;
  /** Seconds of discarded warm-up before each case (BENCH_WARMUP, default 2). */
  warmup: number;
  /** Connections of the throughput cases (BENCH_CONNECTIONS, default 10). */
  connections: number;
  /** Connections of the latency (p99) cases (BENCH_LATENCY_CONNECTIONS, default 1: one request at a time). */
  latencyConnections: number;
  /** `quick` (default) or `1m`: also the million-video cases (BENCH_SCALE). */
  scale: 'quick' | '1m';
  /** Videos of the quick population (BENCH_VIDEOS, default 10000). */
  videos: number;
  /** Events of the analytics case's creator over a year (BENCH_ANALYTICS_EVENTS, default 10M). */
  analyticsEvents: number;
  /** Only the cases whose name contains this (BENCH_CASES), e.g. `lists` or `ceiling`. */
  only: string | null;
  /** Where stores are seeded; the million-video store is kept there between runs (BENCH_DIR, default .bench). */
  dir: string;
  /**
   * A PostgreSQL server for the postgres cases (BENCH_POSTGRES, else REELBASE_TEST_POSTGRES, as
   * scripts/with-postgres.sh sets it): they run in a throwaway database on it (the user needs CREATEDB).
   */
  postgres: string | null;
}

const number = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
};

export function readSettings(): Settings {
  const scale = process.env.BENCH_SCALE ?? 'quick';
  if (scale !== 'quick' && scale !== '1m') throw new Error(`BENCH_SCALE must be quick or 1m, got ${scale}`);
  return {
    seconds: number('BENCH_SECONDS', 10),
    warmup: number('BENCH_WARMUP', 2),
    connections: number('BENCH_CONNECTIONS', 10),
    latencyConnections: number('BENCH_LATENCY_CONNECTIONS', 1),
    scale,
    videos: number('BENCH_VIDEOS', 10_000),
    analyticsEvents: number('BENCH_ANALYTICS_EVENTS', 10_000_000),
    only: process.env.BENCH_CASES || null,
    dir: process.env.BENCH_DIR || join(process.cwd(), '.bench'),
    postgres: process.env.BENCH_POSTGRES || process.env.REELBASE_TEST_POSTGRES || null,
  };
}

export const describeSettings = (s: Settings): string =>
  [
    `Node ${process.version}, ${availableParallelism()} CPUs; every server in its own process on 127.0.0.1, anonymous reads (the token cases say who calls).`,
    `autocannon in this thread, reading into one buffer a connection: ${s.warmup} s warm-up, then ${s.seconds} s per case; throughput cases ${s.connections} connections, ` +
      `latency cases (p99 targets) ${s.latencyConnections} connection${s.latencyConnections === 1 ? '' : 's'}.`,
    `Scale ${s.scale}${s.only ? `, cases matching "${s.only}"` : ''}. Env: BENCH_SECONDS BENCH_WARMUP BENCH_CONNECTIONS BENCH_LATENCY_CONNECTIONS BENCH_SCALE BENCH_VIDEOS BENCH_ANALYTICS_EVENTS BENCH_CASES BENCH_DIR BENCH_POSTGRES.`,
    s.postgres ? `PostgreSQL cases on ${describePostgres(s.postgres)} (a throwaway database).` : 'PostgreSQL cases not run (set BENCH_POSTGRES=postgres://…).',
  ].join('\n');

/** The server a URL names, without its password. */
function describePostgres(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return `${parsed.host}${parsed.pathname}`;
}
