import type { PopulationSummary } from '@reelbase/seed';
import type { Settings } from './settings';
import type { Row, Target } from './table';

/** What every case reads and adds to. */
export interface Bench {
  settings: Settings;
  rows: Row[];
  targets: Target[];
  log(line: string): void;
  /** False when BENCH_CASES leaves the case out. */
  wants(name: string): boolean;
}

/** The quick population, seeded into both drivers, and json-server's db.json of it. */
export interface QuickWorld {
  summary: PopulationSummary;
  stores: Record<'sqlite' | 'json', string>;
  jsonServerDb: string;
  dir: string;
}

/** Adds a measurement, and says so on stderr so a long run shows where it is. */
export function record(b: Bench, row: Row): void {
  b.rows.push(row);
  b.log(`  ${row.case} · ${row.server}: ${row.rps === null ? '' : `${row.rps.toFixed(0)} req/s, `}p99 ${row.p99.toFixed(1)} ms ${row.note}`);
}

/** A target that was not run (left out by BENCH_CASES or BENCH_SCALE). */
export const notRun = (name: string, wanted: string): Target => ({ name, ours: '', peers: '', ratio: '', wanted, met: null });

/** A ratio in whole percent, cut rather than rounded: 0.897 against a target of 90% reads 89%, not a met-looking 90%. */
export const percent = (ratio: number): string => `${Math.floor(ratio * 100 + 1e-9)}%`;
