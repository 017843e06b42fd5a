import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { S3Client } from '@aws-sdk/client-s3';
import { promisify } from 'node:util';
import { resolveFfmpeg, resolveFfprobe } from '@reelbase/media';
import { S3BlobStore, s3ClientConfig } from '@reelbase/blobs-s3';
import { record, type Bench } from '../context';
import { measure, withCpu } from '../load';
import { usersWithTokens } from '../populations';
import { startPeer, startReelbase, type ServerProcess } from '../processes';
import { kilobytes } from '../table';

const run = promisify(execFile);
const range = 'bytes=0-1048575';
const uploadBytes = 100 * 1024 * 1024;

/** What points a reelbase process at the bench's s3rver. */
const s3Env = (s3: ServerProcess) => ({
  AWS_ENDPOINT_URL_S3: s3.url,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  REELBASE_S3_FORCE_PATH_STYLE: '1',
  REELBASE_BLOBS: 's3://bench',
});

/**
 * Media in an S3 bucket (s3rver in its own process): 1 MiB Range reads of a ~5 MB rendition
 * through the server (proxy mode) beside the same reads straight from s3rver (a presigned URL);
 * one 100 MB tus upload into the bucket beside one into the files directory; and a transcode's
 * reads of its source from the bucket, downloaded first beside read by ffmpeg from a presigned URL.
 */
export async function blobCases(b: Bench, dir: string): Promise<void> {
  const s3 = await startPeer('s3rver', [join(dir, 's3rver')]);
  try {
    await rangeReads(b, dir, s3);
    await uploads(b, dir, s3);
    await transcodeSources(b, dir, s3);
  } finally {
    await s3.stop();
  }
}

async function rangeReads(b: Bench, dir: string, s3: ServerProcess): Promise<void> {
  const store = join(dir, 'blobs.db');
  const [owner] = await usersWithTokens('sqlite', store, 1, 'Uploader');
  const env = { ...s3Env(s3), REELBASE_FILES: join(dir, 'blobs-files') };
  const server = await startReelbase(`sqlite:${store}`, env);
  const redirecting = await startReelbase(`sqlite:${store}`, { ...env, REELBASE_BLOBS_REDIRECT: '1' });
  try {
    const rendition = await fiveMegabyteRendition(b, server, owner.token, dir);
    const path = new URL(rendition.link).pathname;
    const direct = (await fetch(redirecting.url + path, { redirect: 'manual' })).headers.get('location')!;
    const ours = await withCpu(server, () => measure(server.url, b.settings, b.settings.connections, [path], { range }));
    const bare = await withCpu(s3, () => measure(direct, b.settings, b.settings.connections, undefined, { range }));
    const body = kilobytes(1024 * 1024);
    const name = `GET 1 MiB ranges of a ${(rendition.size / 1024 ** 2).toFixed(1)} MB rendition`;
    record(b, { case: name, server: 'reelbase sqlite, s3 (proxy)', body, rps: ours.m.rps, p50: ours.m.p50, p99: ours.m.p99, note: [`${Math.floor((ours.m.rps / bare.m.rps) * 100)}% of s3rver direct`, ours.cpu].join('; ') });
    record(b, { case: name, server: 's3rver direct (presigned)', body, rps: bare.m.rps, p50: bare.m.p50, p99: bare.m.p99, note: bare.cpu });
  } finally {
    await Promise.all([server.stop(), redirecting.stop()]);
  }
}

/** A 15 s 720p clip uploaded and transcoded: its 720p rendition is about 5 MB. */
async function fiveMegabyteRendition(b: Bench, server: ServerProcess, token: string, dir: string): Promise<{ link: string; size: number }> {
  const ffmpeg = resolveFfmpeg();
  if (!ffmpeg) throw new Error('the blobs case needs ffmpeg');
  const file = join(dir, 'blobs-clip.mp4');
  await run(ffmpeg.path, ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=15', '-vf', 'noise=alls=20:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file]);
  const bytes = readFileSync(file);
  const id = await tusUpload(server, token, bytes);
  b.log(`  transcoding a 15 s 720p clip on s3…`);
  for (;;) {
    const video = await api(server, token, 'GET', `/videos/${id}`);
    if (video.status === 'available') {
      const list = (video.play as { progressive: { link: string; size: number }[] }).progressive;
      return list.reduce((best, r) => (Math.abs(r.size - 5e6) < Math.abs(best.size - 5e6) ? r : best));
    }
    if (video.status === 'transcode_error') throw new Error(`the bench clip did not transcode: ${JSON.stringify(video.transcode)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** One 100 MB tus upload (a single PATCH, as tus-js-client sends it) into each store, timed to the 204. */
async function uploads(b: Bench, dir: string, s3: ServerProcess): Promise<void> {
  const bytes = randomBytes(uploadBytes);
  for (const [label, env] of [
    ['reelbase sqlite, s3', s3Env(s3)],
    ['reelbase sqlite, files', {}],
  ] as const) {
    const store = join(dir, `upload-${label.split(', ')[1]}.db`);
    const [owner] = await usersWithTokens('sqlite', store, 1, 'Uploader');
    const server = await startReelbase(`sqlite:${store}`, { ...env, REELBASE_FILES: join(dir, `upload-files-${label.split(', ')[1]}`) });
    try {
      const started = performance.now();
      await tusUpload(server, owner.token, bytes);
      const ms = performance.now() - started;
      record(b, { case: 'tus upload of 100 MB, one PATCH', server: label, body: kilobytes(bytes.length), rps: null, p50: ms, p99: ms, note: `${(uploadBytes / 1024 ** 2 / (ms / 1000)).toFixed(0)} MB/s` });
    } finally {
      await server.stop();
    }
  }
}

async function tusUpload(server: ServerProcess, token: string, bytes: Buffer): Promise<string> {
  const video = await api(server, token, 'POST', '/me/videos', { name: 'Blob bench', upload: { approach: 'tus', size: bytes.length } });
  const link = (video.upload as { upload_link: string }).upload_link;
  const r = await fetch(link, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: bytes });
  if (r.status !== 204) throw new Error(`tus PATCH answered ${r.status}: ${await r.text()}`);
  return String(video.uri).split('/').pop()!;
}

async function api(server: ServerProcess, token: string, method: string, path: string, json?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * How a worker reads a transcode's source from the bucket: downloaded to its temporary directory
 * then read as a file (what reelbase does), beside ffmpeg and ffprobe reading a presigned URL. Each
 * reads the source as a transcode does: ffprobe, then one ffmpeg run encoding two rungs. Timed
 * (best of two) for a 15 s 720p camera-style MP4 (its index at the end) and the same with faststart.
 */
async function transcodeSources(b: Bench, dir: string, s3: ServerProcess): Promise<void> {
  const ffmpeg = resolveFfmpeg();
  const ffprobe = resolveFfprobe();
  if (!ffmpeg || !ffprobe) throw new Error('the blobs case needs ffmpeg and ffprobe');
  const store = new S3BlobStore({ bucket: 'bench', client: new S3Client({ ...s3ClientConfig({ REELBASE_S3_FORCE_PATH_STYLE: '1' }), endpoint: s3.url, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }) });
  const work = join(dir, 'transcode-sources');
  mkdirSync(work, { recursive: true });
  const clip = join(work, 'camera.mp4');
  await run(ffmpeg.path, ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=15', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=15', '-vf', 'noise=alls=20:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', clip]);
  const faststart = join(work, 'faststart.mp4');
  await run(ffmpeg.path, ['-nostdin', '-v', 'error', '-y', '-i', clip, '-c', 'copy', '-movflags', '+faststart', faststart]);
  const reads = async (input: string, out: string) => {
    const remote = input.startsWith('http') ? ['-protocol_whitelist', 'http,tcp'] : [];
    await run(ffprobe.path, ['-v', 'error', ...remote, '-show_format', '-show_streams', '-of', 'json', input], { maxBuffer: 16 * 1024 * 1024 });
    const rung = (height: number, name: string) => ['-map', '0:v', '-map', '0:a', '-vf', `scale=-2:${height}`, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-c:a', 'aac', join(out, name)];
    await run(ffmpeg.path, ['-nostdin', '-v', 'error', '-y', ...remote, '-i', input, ...rung(360, '360p.mp4'), ...rung(240, '240p.mp4')]);
  };
  for (const [label, file] of [['camera MP4, index at the end', clip], ['faststart MP4', faststart]] as const) {
    const key = `bench-source/${label.startsWith('camera') ? 'camera' : 'faststart'}`;
    const bytes = readFileSync(file);
    await store.put(key, [bytes]);
    const name = `a transcode's source reads (ffprobe, 2 rungs) from the bucket, ${(bytes.length / 1024 ** 2).toFixed(0)} MB ${label}`;
    // Best of two rounds, the two ways alternating: on a shared machine one run is noise.
    const timed = { download: Infinity, 'presigned URL': Infinity, fetch: Infinity };
    for (let round = 0; round < 2; round++) {
      for (const how of ['download', 'presigned URL'] as const) {
        const out = join(work, how.replace(' ', '-'));
        mkdirSync(out, { recursive: true });
        const started = performance.now();
        if (how === 'download') {
          const local = join(out, 'input');
          await pipeline(store.get(key), createWriteStream(local));
          timed.fetch = Math.min(timed.fetch, performance.now() - started);
          await reads(local, out);
        } else {
          await reads(await store.presign(key, { seconds: 600, type: 'video/mp4' }), out);
        }
        timed[how] = Math.min(timed[how], performance.now() - started);
        rmSync(out, { recursive: true, force: true });
      }
    }
    const ratio = timed['presigned URL'] / timed.download;
    record(b, { case: name, server: 'download, then files (reelbase)', body: kilobytes(bytes.length), rps: null, p50: timed.download, p99: timed.download, note: `the download itself ${(timed.fetch / 1000).toFixed(1)} s` });
    record(b, { case: name, server: 'presigned URL', body: kilobytes(bytes.length), rps: null, p50: timed['presigned URL'], p99: timed['presigned URL'], note: `${ratio.toFixed(2)}× the download's time` });
  }
  rmSync(work, { recursive: true, force: true });
}
