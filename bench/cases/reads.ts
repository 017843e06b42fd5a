import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { percent, record, type Bench, type QuickWorld } from '../context';
import { measure, type Measure } from '../load';
import { startPeer, startReelbase, type ServerProcess } from '../processes';
import { kilobytes, type Row } from '../table';

interface Read {
  name: string;
  path: string;
  /** json-server's equivalent. */
  peerPath: string;
}

/**
 * Throughput of the reads of the first benchmark, against the bare node:http ceiling answering
 * the same body and json-server answering an equivalent record or list of the same population.
 */
export async function readCases(b: Bench, world: QuickWorld): Promise<void> {
  const { user, video } = world.summary.busiest;
  if (!user || !video) throw new Error('the quick population has no public video');
  const reads: Read[] = [
    { name: 'GET /videos/{id}', path: `/videos/${video.id}`, peerPath: `/videos/${video.id}` },
    { name: 'GET /users/{id}/videos?per_page=100', path: `/users/${user.id}/videos?per_page=100`, peerPath: `/users/${user.id}/videos?_page=1&_limit=100` },
  ];
  const results = new Map<string, Map<string, Measure>>(reads.map((r) => [r.name, new Map()]));
  const bodies = new Map<string, string>();
  const run = async (server: string, running: ServerProcess, pathOf: (r: Read) => string, measured = reads) => {
    try {
      for (const read of measured) {
        const res = await fetch(running.url + pathOf(read));
        const text = await res.text();
        if (res.status !== 200) throw new Error(`${server} ${pathOf(read)} answered ${res.status}: ${text.slice(0, 200)}`);
        if (!bodies.has(read.name)) bodies.set(read.name, text);
        const m = await measure(running.url + pathOf(read), b.settings, b.settings.connections);
        results.get(read.name)!.set(server, m);
        record(b, row(read.name, server, text, m));
      }
    } finally {
      await running.stop();
    }
  };
  for (const driver of ['sqlite', 'json'] as const) {
    const server = await startReelbase(`${driver}:${world.stores[driver]}`);
    record(b, { case: 'server start (quick store)', server: `reelbase ${driver}`, body: '', rps: null, p50: server.startMs, p99: server.startMs, note: 'spawn to listening' });
    await run(`reelbase ${driver}`, server, (r) => r.path);
  }
  for (const read of reads) {
    const file = join(world.dir, `bare-${reads.indexOf(read)}.json`);
    writeFileSync(file, bodies.get(read.name)!);
    await run('bare node:http', await startPeer('bare', [file]), () => '/', [read]);
  }
  await run('json-server 0.17', await startPeer('json-server', [world.jsonServerDb]), (r) => r.peerPath);

  const get = results.get(reads[0].name)!;
  const ours = get.get('reelbase sqlite')!;
  const bare = get.get('bare node:http')!;
  const peer = get.get('json-server 0.17')!;
  b.targets.push(
    {
      name: 'GET /videos/{id} on SQLite vs bare node:http',
      ours: `${ours.rps.toFixed(0)} req/s`,
      peers: `bare ${bare.rps.toFixed(0)} req/s`,
      ratio: percent(ours.rps / bare.rps),
      wanted: '≥ 50%',
      met: ours.rps >= 0.5 * bare.rps,
    },
    {
      name: 'GET /videos/{id} on SQLite vs json-server',
      ours: `${ours.rps.toFixed(0)} req/s`,
      peers: `json-server ${peer.rps.toFixed(0)} req/s`,
      ratio: `${(ours.rps / peer.rps).toFixed(1)}×`,
      wanted: '≥ 3×',
      met: ours.rps >= 3 * peer.rps,
    },
  );
}

const row = (name: string, server: string, body: string, m: Measure): Row => ({
  case: name,
  server,
  body: kilobytes(Buffer.byteLength(body)),
  rps: m.rps,
  p50: m.p50,
  p99: m.p99,
  note: m.failed ? `${m.failed} failed` : '',
});
