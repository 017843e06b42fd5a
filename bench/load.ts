import autocannon, { type Request } from 'autocannon';
import { percent } from './context';
import { readIntoOneBuffer } from './one-read-buffer';
import type { ServerProcess } from './processes';
import type { Settings } from './settings';

readIntoOneBuffer();

/** One measured case against one server. */
export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** Requests that failed or answered other than 2xx. */
  failed: number;
}

/**
 * autocannon against `url` in this thread, since every server runs in its own process (a worker
 * thread only cost the client: `GET /videos/{id}` anonymous 64% of bare from one, 69% from here):
 * a discarded warm-up, then the measured run. With `paths`, each connection requests them in turn
 * on `url`'s origin; `headers` go with every request (`Authorization` for a caller with a token).
 */
export async function measure(url: string, s: Settings, connections: number, paths?: string[], headers?: Record<string, string>): Promise<Measure> {
  const spread = sending(paths, headers);
  await autocannon({ url, connections, duration: s.warmup, ...spread });
  const r = await autocannon({ url, connections, duration: s.seconds, ...spread });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, failed: r.errors + r.timeouts + r.non2xx };
}

/**
 * As `measure`, but every request, whichever connection sends it (warm-up included), is a GET of
 * the path `nextPath()` answers then on `origin`: a caller's counter keeps requests apart across
 * measurements too.
 */
export async function measureRotating(origin: string, s: Settings, connections: number, nextPath: () => string, headers?: Record<string, string>): Promise<Measure> {
  const requests = [{ method: 'GET', setupRequest: (r: Request) => ({ ...r, path: nextPath() }) }];
  const options = { url: origin, connections, requests, ...(headers ? { headers } : {}) };
  await autocannon({ ...options, duration: s.warmup });
  const r = await autocannon({ ...options, duration: s.seconds });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, failed: r.errors + r.timeouts + r.non2xx };
}

/** autocannon's options for GETs of `paths` in turn (else its url's), with `headers` on each. */
const sending = (paths?: string[], headers?: Record<string, string>) => ({
  ...(paths ? { requests: paths.map((path) => ({ method: 'GET', path })) } : {}),
  ...(headers ? { headers } : {}),
});

/**
 * A measurement, and the share of a CPU the server used meanwhile (warm-up included): when the
 * load generator saturates first (large bodies) or other work shares the machine, the server's CPU
 * a request tells more than its req/s.
 */
export async function withCpu(server: ServerProcess, run: () => Promise<Measure>): Promise<{ m: Measure; cpu: string }> {
  const [before, started] = [server.cpuSeconds(), performance.now()];
  const m = await run();
  const after = server.cpuSeconds();
  if (before === null || after === null) return { m, cpu: '' };
  const share = (after - before) / ((performance.now() - started) / 1000);
  const each = m.rps > 0 ? `≈ ${((share / m.rps) * 1e6).toFixed(0)} µs a request` : 'no request answered';
  return { m, cpu: `server CPU ${percent(share)}, ${each}` };
}

/** A request the write driver sends. */
export interface WriteRequest {
  method: string;
  path: string;
  token: string;
  json?: unknown;
}

export interface Drive {
  seconds: number;
  /** Requests answered per second. */
  throughput: number;
  p50: number;
  p99: number;
  /** How many answers had each status. */
  statuses: Record<number, number>;
}

/**
 * Sends `total` requests, `request(i)` for i = 0…total-1, from `clients` concurrent clients (each
 * waits for its answer before sending the next), recording every latency.
 */
export async function drive(base: string, total: number, clients: number, request: (i: number) => WriteRequest): Promise<Drive> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  const client = async () => {
    for (let i = next++; i < total; i = next++) {
      const r = request(i);
      const sent = performance.now();
      const res = await fetch(base + r.path, {
        method: r.method,
        headers: { authorization: `Bearer ${r.token}`, ...(r.json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: r.json === undefined ? undefined : JSON.stringify(r.json),
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { seconds, throughput: total / seconds, p50: at(0.5), p99: at(0.99), statuses };
}

/** One case of an interleaved measurement: a server, and the requests to send it. */
export interface Interleaved {
  server: ServerProcess;
  paths?: string[];
  /** Requests sent in turn instead of GETs of `paths` (a POST with its body). */
  requests?: Request[];
  headers?: Record<string, string>;
}

/** Fresh processes for one set of turns: the cases over them (in the same order every set), and how to stop them. */
export interface ProcessSet {
  cases: Interleaved[];
  stop(): Promise<void>;
}

/** A case's figures over all its rounds, and the server's CPU time a request over them. */
export interface InterleavedMeasure extends Measure {
  /** Server CPU microseconds a request, over the measured rounds (warm-up left out); null where /proc is not there. */
  cpuMicros: number | null;
  /** req/s of each turn, round by round. */
  turns: number[];
}

/** Round `round`'s order of `n` cases: turned by the round, and backwards in odd rounds. */
function turnOrder(n: number, round: number): number[] {
  const order = Array.from({ length: n }, (_, i) => (i + round) % n);
  return round % 2 === 1 ? order.reverse() : order;
}

/**
 * Cases measured in turns, `rounds` times over in each of `sets` sets of fresh processes (`open`
 * starts a set; each case is warmed up once a set, before its first turn), a case running
 * `s.seconds / (sets × rounds)` a turn.
 *
 * Turns: when the machine's speed drifts (a virtual machine's neighbours), the drift falls on every
 * case alike instead of on whichever ran last. The order turns each round and runs backwards every
 * other one: in one fixed order the case that ran after the same two others every time came out
 * 79% of the first, in the reverse order 95%.
 *
 * Sets: a process is a draw of its own (what V8 compiled, and how, differs from start to start).
 * Two identical reelbase servers, one pair of processes a run, came out 0.98–1.05 of each other
 * over 6 paired rounds (the median, four runs) and no closer over 20 shorter ones: 0.95–1.11 (three
 * runs), one server ahead all along. Over three sets of four rounds: 0.99–1.04 (five runs). Bare
 * node:http peers answering near-identical 6 KB bodies in one run took 42, 43 and 51 µs of CPU a
 * request.
 *
 * A case's req/s is over all its turns; its p50 the mean of its turns' and its p99 the worst turn's.
 */
export async function measureInterleaved(open: () => Promise<ProcessSet>, s: Settings, sets: number, rounds: number): Promise<InterleavedMeasure[]> {
  const spread = (c: Interleaved) => ({
    url: c.server.url,
    connections: s.connections,
    ...sending(c.paths, c.headers),
    ...(c.requests ? { requests: c.requests } : {}),
  });
  const turns = sets * rounds;
  let totals: { requests: number; seconds: number; p50: number; p99: number; failed: number; cpu: number | null; turns: number[] }[] = [];
  for (let set = 0; set < sets; set++) {
    const { cases, stop } = await open();
    try {
      if (set === 0) totals = cases.map(() => ({ requests: 0, seconds: 0, p50: 0, p99: 0, failed: 0, cpu: 0, turns: [] }));
      for (const c of cases) await autocannon({ ...spread(c), duration: s.warmup });
      for (let round = set * rounds; round < (set + 1) * rounds; round++) {
        for (const i of turnOrder(cases.length, round)) {
          const c = cases[i];
          const t = totals[i];
          const before = c.server.cpuSeconds();
          const r = await autocannon({ ...spread(c), duration: s.seconds / turns });
          const after = c.server.cpuSeconds();
          t.cpu = t.cpu === null || before === null || after === null ? null : t.cpu + (after - before);
          t.requests += r.requests.total;
          t.seconds += r.duration;
          t.p50 += r.latency.p50 / turns;
          t.p99 = Math.max(t.p99, r.latency.p99);
          t.failed += r.errors + r.timeouts + r.non2xx;
          t.turns.push(r.requests.total / r.duration);
        }
      }
    } finally {
      await stop();
    }
  }
  return totals.map((t) => ({
    rps: t.requests / t.seconds,
    p50: t.p50,
    p99: t.p99,
    failed: t.failed,
    cpuMicros: t.cpu === null || t.requests === 0 ? null : (t.cpu / t.requests) * 1e6,
    turns: t.turns,
  }));
}

/**
 * How `a` compares with `b`, two cases of one interleaved measurement: the median of their
 * rounds' ratios, each round's turns taken seconds apart. On a shared virtual machine a
 * turn now and then runs a quarter slow (one list page's eight turns: 4,016–4,723 req/s, and one
 * 3,099); a ratio of totals carries that turn's loss whole, the median leaves it out.
 */
export function pairedRatio(a: InterleavedMeasure, b: InterleavedMeasure): number {
  const ratios = a.turns.map((rps, round) => rps / b.turns[round]).sort((x, y) => x - y);
  const middle = ratios.length / 2;
  return Number.isInteger(middle) ? (ratios[middle - 1] + ratios[middle]) / 2 : ratios[Math.floor(middle)];
}
