import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDatabase } from '@reelbase/store-postgres';
import { record, type Bench, type QuickWorld } from '../context';
import { measure, type Measure } from '../load';
import { startReelbase, type ServerProcess } from '../processes';
import { kilobytes } from '../table';

const names = { get: 'GET /videos/{id}', list: 'GET /users/{id}/videos?sort=plays&per_page=25' };

const reads = (world: QuickWorld) => {
  const { user, video } = world.summary.busiest;
  if (!user || !video) throw new Error('the quick population has no public video');
  return [
    { name: names.get, path: `/videos/${video.id}` },
    { name: names.list, path: `/users/${user.id}/videos?sort=plays&per_page=25` },
  ];
};

const servers = ['reelbase postgres', 'reelbase postgres ×2'];

/**
 * Reads on PostgreSQL beside SQLite: the quick SQLite store copied into a throwaway database on
 * BENCH_POSTGRES by `reelbase migrate` (same ids, same answers), then `GET /videos/{id}` and a
 * page sorted by plays on SQLite, on one server on PostgreSQL, and on two servers sharing the
 * database. Two servers get two autocannon instances at once (both in this thread), one per
 * server, each with half the connections: their req/s are summed and the worse p99 is shown.
 */
export async function postgresCases(b: Bench, world: QuickWorld | null): Promise<void> {
  const serverUrl = b.settings.postgres;
  if (!serverUrl || !world) {
    for (const name of Object.values(names)) {
      for (const server of servers) b.rows.push({ case: name, server, body: '', rps: null, p50: NaN, p99: NaN, note: 'not run (set BENCH_POSTGRES)' });
    }
    return;
  }
  const database = scratchDatabase(serverUrl);
  try {
    const url = await database.freshUrl();
    // A PostgreSQL store keeps its files outside the database: in the run's directory, not the working one.
    const files = join(world.dir, 'postgres-files');
    const started = performance.now();
    await migrate(`sqlite:${world.stores.sqlite}`, url, files);
    const took = performance.now() - started;
    record(b, { case: 'migrate the quick store to PostgreSQL', server: 'reelbase migrate', body: '', rps: null, p50: took, p99: took, note: 'sqlite → postgres, every document' });
    const env = { REELBASE_FILES: files };
    const measured = reads(world);
    const expected = new Map<string, string>();
    const sqlite = await startReelbase(`sqlite:${world.stores.sqlite}`);
    try {
      for (const read of measured) {
        const text = await body(sqlite, read.path);
        expected.set(read.name, comparable(sqlite, text));
        record(b, row(read.name, 'reelbase sqlite', text, await measure(sqlite.url + read.path, b.settings, b.settings.connections)));
      }
    } finally {
      await sqlite.stop();
    }
    const first = await startReelbase(url, env);
    try {
      const second = await startReelbase(url, env);
      try {
        for (const read of measured) {
          const [one, two] = [await body(first, read.path), await body(second, read.path)];
          const same = comparable(first, one) === expected.get(read.name) && comparable(second, two) === expected.get(read.name) ? '' : 'answer differs from SQLite';
          record(b, row(read.name, servers[0], one, await measure(first.url + read.path, b.settings, b.settings.connections), same));
          record(b, row(read.name, servers[1], one, await measureBoth([first, second], read.path, b), same));
        }
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  } finally {
    await database.drop();
  }
}

/** Half the connections to each server at once (at least one each): req/s summed, the worse p99 and p50. */
async function measureBoth(running: ServerProcess[], path: string, b: Bench): Promise<Measure> {
  const connections = Math.max(1, Math.round(b.settings.connections / running.length));
  const each = await Promise.all(running.map((server) => measure(server.url + path, b.settings, connections)));
  return {
    rps: each.reduce((sum, m) => sum + m.rps, 0),
    p50: Math.max(...each.map((m) => m.p50)),
    p99: Math.max(...each.map((m) => m.p99)),
    failed: each.reduce((sum, m) => sum + m.failed, 0),
  };
}

async function body(server: ServerProcess, path: string): Promise<string> {
  const res = await fetch(server.url + path);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${server.url}${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

/** An answer without the origin its absolute links carry, which differs from server to server. */
const comparable = (server: ServerProcess, text: string): string => text.replaceAll(server.url, 'http://server');

const row = (name: string, server: string, text: string, m: Measure, note = '') => ({
  case: name,
  server,
  body: kilobytes(Buffer.byteLength(text)),
  rps: m.rps,
  p50: m.p50,
  p99: m.p99,
  note: [m.failed ? `${m.failed} failed` : '', note].filter(Boolean).join('; '),
});

/** `reelbase migrate` from the build, as a user would copy a store. */
function migrate(from: string, to: string, toFiles: string): Promise<void> {
  const bin = fileURLToPath(new URL('../../apps/cli/bin/reelbase.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'migrate', '--from', from, '--to', to, '--to-files', toFiles, '--json'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`reelbase migrate exited with ${code}:\n${stderr}`))));
  });
}
