import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jsonStoreCeilingBytes } from '@reelbase/store-json';
import { record, type Bench } from '../context';
import { drive } from '../load';
import { quickPopulation, seedStore, usersWithTokens } from '../populations';
import { startReelbase } from '../processes';

const limitMs = 50;
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/**
 * The JSON driver's ceiling: populations of doubling size until a write's p99 (one client,
 * comments posted back to back for BENCH_SECONDS) passes 50 ms. Every write rewrites the whole
 * file, so the cost follows the file's size; the driver's `jsonStoreCeilingBytes` should sit
 * between the last size under the limit and the first over it.
 */
export async function ceilingCase(b: Bench): Promise<void> {
  let under: { videos: number; bytes: number } | null = null;
  // A JSON string holds at most 512 MiB: 128,000 videos is as far as the driver can go at all.
  for (let videos = 125; videos <= 128_000; videos *= 2) {
    const path = join(b.settings.dir, `ceiling-${process.pid}`, `${videos}.json`);
    const summary = await seedStore('json', path, quickPopulation(videos));
    const [writer] = await usersWithTokens('json', path, 1, 'Ceiling');
    const bytes = statSync(path).size;
    const server = await startReelbase(`json:${path}`);
    try {
      const video = summary.busiest.video!.id;
      const write = (i: number) => ({ method: 'POST', path: `/videos/${video}/comments`, token: writer.token, json: { text: `Ceiling ${i}` } });
      await drive(server.url, 5, 1, write);
      const count = await writesIn(server.url, b.settings.seconds, write);
      const d = await drive(server.url, count, 1, write);
      record(b, { case: `JSON write p99, ${videos} videos`, server: 'reelbase json', body: mib(bytes), rps: d.throughput, p50: d.p50, p99: d.p99, note: `${count} writes` });
      if (d.p99 > limitMs) {
        const constant = jsonStoreCeilingBytes;
        b.targets.push({
          name: 'JSON driver ceiling (write p99 passes 50 ms)',
          ours: under ? `${under.videos}–${videos} videos (${mib(under.bytes)}–${mib(bytes)})` : `under ${videos} videos (${mib(bytes)})`,
          peers: '',
          ratio: '',
          wanted: `constant ${mib(constant)} in range`,
          met: (under?.bytes ?? 0) <= constant && constant <= bytes,
        });
        return;
      }
      under = { videos, bytes };
    } finally {
      await server.stop();
      rmSync(path, { force: true });
    }
  }
  b.targets.push({ name: 'JSON driver ceiling (write p99 passes 50 ms)', ours: `beyond ${under?.videos} videos`, peers: '', ratio: '', wanted: 'found', met: false });
}

/** How many writes fit in `seconds`, estimated from a short sample. */
async function writesIn(base: string, seconds: number, write: Parameters<typeof drive>[3]): Promise<number> {
  const sample = await drive(base, 10, 1, write);
  return Math.max(20, Math.min(1000, Math.round(seconds * sample.throughput)));
}
