import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { percent, record, type Bench } from '../context';
import { measure, withCpu, type Measure } from '../load';
import { usersWithTokens } from '../populations';
import { startPeer, startReelbase, type ServerProcess } from '../processes';
import { kilobytes, type Row } from '../table';

const names = { one: 'GET 640x360 thumbnail', many: 'GET 640x360 thumbnails, 50 pictures' };
const pictures = 50;

interface Picture {
  uri: string;
  link: string;
  sizes: { width: number; height: number; link: string }[];
}

/**
 * A video thumbnail as browsers fetch it: a 1920×1080 JPEG uploaded through the API to a
 * picture's link, its 640×360 size made on a first request and kept as a file, then read by
 * BENCH_CONNECTIONS clients; beside it the bare node:http ceiling answering the same bytes from
 * memory, and the 640×360 sizes of 50 pictures read in turn (50 files instead of one).
 */
export async function mediaCases(b: Bench, dir: string): Promise<void> {
  const store = join(dir, 'media.db');
  const [owner] = await usersWithTokens('sqlite', store, 1, 'Photographer');
  const server = await startReelbase(`sqlite:${store}`, { REELBASE_FILES: join(dir, 'media-files') });
  let thumbnail: Buffer;
  let ours: Measure;
  try {
    const { bytes, links } = await thumbnails(server, owner.token);
    thumbnail = bytes;
    const one = await withCpu(server, () => measure(links[0], b.settings, b.settings.connections));
    ours = one.m;
    record(b, row(names.one, 'reelbase sqlite', bytes, one.m, one.cpu));
    const many = await withCpu(server, () => measure(server.url, b.settings, b.settings.connections, links.map((link) => new URL(link).pathname)));
    record(b, row(names.many, 'reelbase sqlite', bytes, many.m, 'in turn over their links', many.cpu));
  } finally {
    await server.stop();
  }
  const file = join(dir, 'thumbnail.jpg');
  writeFileSync(file, thumbnail);
  const bare = await startPeer('bare', [file, 'image/jpeg']);
  let peer: Measure;
  try {
    const one = await withCpu(bare, () => measure(bare.url, b.settings, b.settings.connections));
    peer = one.m;
    record(b, row(names.one, 'bare node:http', thumbnail, one.m, 'same bytes, from memory', one.cpu));
  } finally {
    await bare.stop();
  }
  b.targets.push({
    name: '640x360 thumbnail vs bare node:http',
    ours: `${ours.rps.toFixed(0)} req/s`,
    peers: `bare ${peer.rps.toFixed(0)} req/s`,
    ratio: percent(ours.rps / peer.rps),
    wanted: '≥ 50%',
    met: ours.rps >= 0.5 * peer.rps && ours.failed === 0,
  });
}

/**
 * A video with 50 pictures, each given the same JPEG through the API (POST, PUT to its link, the
 * first PATCHed active), and each one's 640x360 size requested once so it is kept as a file:
 * those links, and the bytes of the first.
 */
async function thumbnails(server: ServerProcess, token: string): Promise<{ bytes: Buffer; links: string[] }> {
  const api = client(server, token);
  const jpeg = await photo();
  const video = String((await api('POST', '/me/videos', 201, { name: 'Thumbnail bench' })).uri);
  const links: string[] = [];
  let bytes: Buffer = Buffer.alloc(0);
  for (let i = 0; i < pictures; i++) {
    const created = (await api('POST', `${video}/pictures`, 201)) as unknown as Picture;
    const put = await fetch(created.link, { method: 'PUT', body: jpeg, headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${token}` } });
    if (put.status !== 200) throw new Error(`PUT ${created.link} answered ${put.status}: ${(await put.text()).slice(0, 200)}`);
    // A new image gets a new link: the picture as it is now.
    const shown = (await (i === 0 ? api('PATCH', created.uri, 200, { active: true }) : api('GET', created.uri, 200))) as unknown as Picture;
    const size = shown.sizes.find((s) => s.width === 640 && s.height === 360);
    if (!size) throw new Error(`${created.uri} has no 640x360 size`);
    const made = await get(size.link);
    if (i === 0) bytes = made;
    links.push(size.link);
  }
  return { bytes, links };
}

/** JSON calls to the API as `token`, checking the status. */
const client =
  (server: ServerProcess, token: string) =>
  async (method: string, path: string, status: number, json?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };

/** A media link's bytes, as a browser fetches it (no token). */
async function get(link: string): Promise<Buffer> {
  const res = await fetch(link);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200 || res.headers.get('content-type') !== 'image/jpeg') throw new Error(`${link} answered ${res.status} ${res.headers.get('content-type')}`);
  return bytes;
}

/**
 * A 1920×1080 JPEG a camera might give: gradients under noise three pixels across, which the
 * 640×360 size keeps (finer noise would average away), so that size is a realistic ~40 KB.
 */
async function photo(): Promise<Buffer> {
  const [width, height] = [640, 360];
  const raw = Buffer.alloc(width * height * 3);
  let seed = 1;
  const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 40;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = 40 + (x / width) * 160 + noise();
      raw[i + 1] = 60 + (y / height) * 120 + noise();
      raw[i + 2] = 120 + Math.sin(x / 20) * Math.cos(y / 15) * 80 + noise();
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).resize(1920, 1080, { kernel: 'nearest' }).jpeg({ quality: 90 }).toBuffer();
}

const row = (name: string, server: string, body: Buffer, m: Measure, ...notes: string[]): Row => ({
  case: name,
  server,
  body: kilobytes(body.length),
  rps: m.rps,
  p50: m.p50,
  p99: m.p99,
  note: [m.failed ? `${m.failed} failed` : '', ...notes].filter(Boolean).join('; '),
});
