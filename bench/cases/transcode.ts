import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ladder, ladderOutputs, probe, renditionArgs, resolveFfmpeg, transcode, type Rung } from '@reelbase/media';
import { record, type Bench } from '../context';

const seconds = 30;
const caseName = `transcode ${seconds} s 1080p, 240p…1080p`;
const run = promisify(execFile);
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;
const x = (ratio: number) => `${ratio.toFixed(2)}×`;

/**
 * The rendition ladder of a 30 s 1080p clip three ways, with the same x264/AAC settings: our
 * `transcode` (one decode split to an encoder per rung, then HLS by stream copy, probes and the
 * master playlist), plain ffmpeg once per rung (a decode per rung), and plain ffmpeg once with
 * the same split graph and no HLS. The target: the whole job costs at most 10% over the last.
 */
export async function transcodeCases(b: Bench, dir: string): Promise<void> {
  const ffmpeg = resolveFfmpeg();
  if (!ffmpeg) throw new Error('the transcode case needs ffmpeg: set REELBASE_FFMPEG or install @ffmpeg-installer/ffmpeg');
  const source = await clip(b, ffmpeg.path);
  const info = await probe(source);
  const rungs = ladder(info);
  const o = { fps: info.fps, hasAudio: info.hasAudio };
  const out = (name: string) => {
    mkdirSync(join(dir, 'transcode', name), { recursive: true });
    return join(dir, 'transcode', name);
  };
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const rtf = (ms: number) => `${(info.duration / (ms / 1000)).toFixed(2)}× real time`;
  const quiet = ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-y'];

  const single = out('one-run');
  const oneMs = await timed(() => run(ffmpeg.path, [...quiet, '-i', source, ...ladderOutputs(rungs, o, (r) => join(single, `${r.name}.mp4`))]));
  record(b, row('plain ffmpeg, one split run', oneMs, sizeOf(single), `${rungs.length} MP4s, no HLS; ${rtf(oneMs)}`));

  const ours = out('ours');
  const oursMs = await timed(() => transcode(source, ours, { rungs, ...o }));
  record(b, row('reelbase transcode', oursMs, sizeOf(ours), `MP4s + HLS + master; ${rtf(oursMs)}`));

  let separateMs = 0;
  for (const rung of rungs) {
    const file = join(out('separate'), `${rung.name}.mp4`);
    const ms = await timed(() => run(ffmpeg.path, [...quiet, '-i', source, ...plainArgs(rung, o), file]));
    separateMs += ms;
    record(b, row(`plain ffmpeg, ${rung.name} alone`, ms, statSync(file).size, rtf(ms)));
  }
  record(b, row('plain ffmpeg, one run per rung', separateMs, sizeOf(out('separate')), `${rungs.length} decodes; ${rtf(separateMs)}`));

  b.targets.push({
    name: `whole ladder (${seconds} s 1080p) vs one plain ffmpeg run`,
    ours: `${(oursMs / 1000).toFixed(1)} s`,
    peers: `one run ${(oneMs / 1000).toFixed(1)} s; a run per rung ${(separateMs / 1000).toFixed(1)} s (ours ${x(oursMs / separateMs)})`,
    ratio: x(oursMs / oneMs),
    wanted: '≤ 1.1×',
    met: oursMs <= 1.1 * oneMs,
  });
}

/** One rung from the source as a user would write it: scale, the same encoder settings, faststart. */
const plainArgs = (rung: Rung, o: { fps: number; hasAudio: boolean }) => [
  ...['-map', '0:v:0', '-map', '0:a:0?', '-vf', `scale=${rung.width}:${rung.height}:flags=bicubic,setsar=1,format=yuv420p`],
  ...renditionArgs(rung, o),
  ...['-movflags', '+faststart'],
];

/** A 30 s 1920×1080 testsrc clip with a tone, as a camera might hand it over; made once and kept in BENCH_DIR. */
async function clip(b: Bench, ffmpeg: string): Promise<string> {
  const file = join(b.settings.dir, `transcode-source-1080p-${seconds}s.mp4`);
  if (existsSync(file)) return file;
  mkdirSync(b.settings.dir, { recursive: true });
  b.log(`making ${file}`);
  const partial = `${file}.partial.mp4`;
  await run(ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=1920x1080:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'fast', '-crf', '18', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '192k', '-ac', '2', '-ar', '48000', '-shortest', partial],
  ]);
  renameSync(partial, file);
  return file;
}

function sizeOf(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath ?? entry.path, entry.name)).size, 0);
}

const row = (server: string, ms: number, bytes: number, note: string) => ({ case: caseName, server, body: mb(bytes), rps: null, p50: ms, p99: ms, note });
