import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { resolveFfmpeg } from '@reelbase/media';

const run = promisify(execFile);

export interface ClipOptions {
  width?: number;
  height?: number;
  seconds?: number;
  audio?: boolean;
  /** The index (moov) first, as a web upload tool writes it; false leaves it at the end, as a camera does. */
  faststart?: boolean;
  /** Film grain: incompressible, so a few seconds make megabytes (for multipart uploads). */
  noise?: boolean;
}

/**
 * A real, small H.264/AAC MP4 made by ffmpeg (testsrc pattern, sine tone): what a phone would
 * upload, in a few kilobytes. Throws when no ffmpeg resolves (the npm build always does on linux-x64).
 *
 * The bytes depend on the options only, so each clip is made once per test run: kept in memory
 * for the file, and under REELBASE_TEST_CACHE (which scripts/test.mjs sets and removes) for the
 * other files. Each call answers a copy of its own.
 */
export async function makeClip(o: ClipOptions = {}): Promise<Buffer> {
  const { width = 320, height = 240, seconds = 2, audio = true, faststart = true, noise = false } = o;
  const ffmpeg = resolveFfmpeg();
  if (!ffmpeg) throw new Error('no ffmpeg: set REELBASE_FFMPEG, put ffmpeg on PATH, or npm install @ffmpeg-installer/ffmpeg');
  const args = ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=25:duration=${seconds}`];
  if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:a', 'aac', '-shortest');
  if (noise) args.push('-vf', 'noise=alls=40:allf=t');
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...(faststart ? ['-movflags', '+faststart'] : []));
  const key = createHash('sha256').update(JSON.stringify([ffmpeg.path, args])).digest('hex').slice(0, 24);
  let made = clips.get(key);
  if (!made) {
    made = cachedClip(ffmpeg.path, args, key);
    clips.set(key, made);
    made.catch(() => clips.delete(key));
  }
  return Buffer.from(await made);
}

const clips = new Map<string, Promise<Buffer>>();

async function cachedClip(ffmpeg: string, args: string[], key: string): Promise<Buffer> {
  const cache = process.env.REELBASE_TEST_CACHE;
  const cached = cache ? join(cache, `clip-${key}.mp4`) : null;
  if (cached && existsSync(cached)) return readFileSync(cached);
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-clip-'));
  try {
    const out = join(dir, 'clip.mp4');
    await run(ffmpeg, [...args, out]);
    const bytes = readFileSync(out);
    if (cached) {
      // Another test file may be making the same clip: each renames a whole file into place.
      mkdirSync(cache!, { recursive: true });
      const temp = `${cached}.${process.pid}.tmp`;
      writeFileSync(temp, bytes);
      renameSync(temp, cached);
    }
    return bytes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A test image: a solid colour with a contrasting square in one corner (so a crop or a rotation shows). */
export async function makeImage(format: 'jpeg' | 'png' | 'webp' | 'gif', width = 800, height = 600, background = '#c0392b'): Promise<Buffer> {
  const corner = await sharp({ create: { width: Math.max(1, width >> 3), height: Math.max(1, height >> 3), channels: 3, background: '#ffffff' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: format === 'png' ? 4 : 3, background } })
    .composite([{ input: corner, top: 0, left: 0 }])
    .toFormat(format)
    .toBuffer();
}

/** Width and height of an image as decoded. */
export async function imageSize(bytes: Uint8Array): Promise<{ width: number; height: number; format: string }> {
  const m = await sharp(bytes).metadata();
  return { width: m.width ?? 0, height: m.height ?? 0, format: m.format ?? '' };
}

/** PUTs a file to a media link (an image, a captions file), with the bearer token when given, as an owner's app does. */
export const putFile = (link: string, body: Uint8Array | string, token?: string, type = 'application/octet-stream'): Promise<Response> =>
  fetch(link, { method: 'PUT', body, headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

/** A media link fetched the way a browser would: no token. */
export async function fetchBytes(link: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const r = await fetch(link, { headers });
  return { status: r.status, headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
}

/** Every file under a directory, relative paths (to prove what an operation left behind). */
export function filesUnder(dir: string): string[] {
  try {
    return readdirRecursive(dir).filter((f) => !f.startsWith('.tmp'));
  } catch {
    return [];
  }
}

function readdirRecursive(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(dir, rel)).isDirectory()) out.push(...readdirRecursive(dir, rel));
    else out.push(rel);
  }
  return out;
}
