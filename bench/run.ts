/**
 * `npm run bench`: autocannon against two reads on both drivers, each seeded with 10,000 videos,
 * beside a bare node:http server answering a JSON body of the same size.
 * Env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (10), BENCH_VIDEOS (10000). Not part of npm test.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { serve } from '@reelbase/http';
import { startBareServer } from './bare-server';
import { seed, type Driver } from './seed';
import { formatTable, kilobytes, type Row } from './table';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const videos = Number(process.env.BENCH_VIDEOS ?? 10_000);
const drivers: Driver[] = ['sqlite', 'json'];

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  note: string;
}

/** Load runs in a worker thread so it does not share the server's event loop. */
async function measure(url: string): Promise<Measure> {
  await autocannon({ url, connections, duration: 1, workers: 1 }); // warm-up, discarded
  const r = await autocannon({ url, connections, duration: seconds, workers: 1 });
  const failures = r.errors + r.timeouts + r.non2xx;
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, note: failures ? `${failures} failed` : '' };
}

const endpoints = (userId: string, videoId: string) => [
  { name: 'GET /videos/{id}', path: `/videos/${videoId}` },
  { name: 'GET /users/{id}/videos?per_page=100', path: `/users/${userId}/videos?per_page=100` },
];

async function main(): Promise<void> {
  const root = join(process.cwd(), '.bench', `run-${process.pid}`);
  console.log(`reelbase bench: ${videos} videos per driver, ${connections} connections, ${seconds} s per target (after 1 s warm-up)`);
  console.log(`Node ${process.version}, ${availableParallelism()} CPUs; servers on 127.0.0.1, anonymous requests\n`);
  const results = new Map<string, Row[]>();
  const bodies = new Map<string, unknown>();
  try {
    for (const driver of drivers) {
      const dir = join(root, driver);
      mkdirSync(dir, { recursive: true });
      const seeded = await seed(driver, dir, videos);
      console.log(`${driver}: seeded in ${(seeded.seedMs / 1000).toFixed(1)} s`);
      const server = await serve(seeded.service, { port: 0, host: '127.0.0.1' });
      try {
        for (const endpoint of endpoints(seeded.userId, seeded.videoId)) {
          const check = await fetch(server.url + endpoint.path);
          const text = await check.text();
          if (check.status !== 200) throw new Error(`${driver} ${endpoint.path} answered ${check.status}: ${text.slice(0, 300)}`);
          if (endpoint.path.includes('per_page') && JSON.parse(text).data.length !== Math.min(100, videos)) throw new Error('page is not full');
          if (!bodies.has(endpoint.name)) bodies.set(endpoint.name, JSON.parse(text));
          const m = await measure(server.url + endpoint.path);
          const rows = results.get(endpoint.name) ?? [];
          rows.push({ endpoint: endpoint.name, target: driver, body: kilobytes(Buffer.byteLength(text)), ratio: null, ...m });
          results.set(endpoint.name, rows);
        }
      } finally {
        await server.close();
      }
    }
    for (const [name, body] of bodies) {
      const bare = await startBareServer(body);
      try {
        const m = await measure(`${bare.url}/`);
        const rows = results.get(name)!;
        for (const row of rows) row.ratio = row.rps / m.rps;
        rows.unshift({ endpoint: name, target: 'bare node:http', body: kilobytes(Buffer.byteLength(JSON.stringify(body))), ratio: 1, ...m });
      } finally {
        await bare.close();
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`\n${formatTable([...results.values()].flat())}`);
}

await main();
