import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ladder, ladderOutputs, probe, resolveFfmpeg, ssim, transcode, type Rung } from '@reelbase/media';
import { record, type Bench } from '../context';

const seconds = 6;
const run = promisify(execFile);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const x = (ratio: number) => `${ratio.toFixed(2)}×`;

/** Three kinds of content a host sees, as lavfi sources and filters: a still slide, a low-motion pattern, moving shapes under grain. */
const clips = {
  slide: ['smptehdbars=size=1280x720:rate=25', ''],
  'low-motion': ['testsrc=size=1280x720:rate=25', ''],
  'high-motion': ['testsrc2=size=1280x720:rate=25', ',noise=alls=12:allf=t+u'],
} as const;

/**
 * What the rendition ladder of a 6 s 720p clip costs, for each of three kinds of content: bytes
 * stored (MP4s, playlists, storyboard) per source byte and per minute, each rung's bitrate and
 * SSIM (Y) against the source scaled to it, and our whole job's time against one plain ffmpeg run
 * of the same split graph (same encoder settings, no playlists, no storyboard). Beside it, the
 * fixed-bitrate ladder reelbase used before (one MP4 a rung; it also kept a TS copy of each).
 * Targets: at most 1.1× the plain run; the low-motion clip (like the 98 KB upload of issue 37)
 * under 1 MB in all; the high-motion one no larger than the fixed ladder.
 */
export async function transcodeCases(b: Bench, dir: string): Promise<void> {
  const ffmpeg = resolveFfmpeg();
  if (!ffmpeg) throw new Error('the transcode case needs ffmpeg: set REELBASE_FFMPEG or install @ffmpeg-installer/ffmpeg');
  const quiet = ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-y'];
  for (const [kind, [picture, filter]] of Object.entries(clips)) {
    const caseName = `transcode ${seconds} s 720p ${kind}`;
    const source = await clip(b, ffmpeg.path, kind, `${picture}:duration=${seconds}${filter}`);
    const sourceBytes = statSync(source).size;
    const info = await probe(source);
    const rungs = ladder(info);
    const o = { fps: info.fps, hasAudio: info.hasAudio };
    const out = (name: string) => {
      const path = join(dir, 'transcode', kind, name);
      rmSync(path, { recursive: true, force: true });
      mkdirSync(path, { recursive: true });
      return path;
    };
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const perMinute = (bytes: number) => `${((bytes / info.duration) * 60 / 1024 ** 2).toFixed(2)} MB/min`;

    const single = out('one-run');
    const oneMs = await timed(() => run(ffmpeg.path, [...quiet, '-i', source, ...ladderOutputs(rungs, o, (r) => join(single, `${r.name}.mp4`))]));
    record(b, row(caseName, 'plain ffmpeg, one split run', oneMs, sizeOf(single), `${rungs.length} fMP4s, no playlists`));

    const ours = out('ours');
    let result: Awaited<ReturnType<typeof transcode>> | undefined;
    const oursMs = await timed(async () => (result = await transcode(source, ours, { rungs, ...o, duration: info.duration })));
    const stored = sizeOf(ours);
    const quality = [];
    for (const r of result!.renditions) quality.push(`${r.name} ${r.videoKbps} kbit/s SSIM ${(await ssim(join(ours, r.file), source, r)).toFixed(3)}`);
    record(b, row(caseName, 'reelbase transcode', oursMs, stored, `${x(stored / sourceBytes)} the source (${kb(sourceBytes)}), ${perMinute(stored)}; ${quality.join(', ')}`));

    const fixed = out('fixed');
    const fixedMs = await timed(() => run(ffmpeg.path, [...quiet, '-i', source, ...fixedLadder(rungs, o, (r) => join(fixed, `${r.name}.mp4`))]));
    const fixedBytes = sizeOf(fixed);
    record(b, row(caseName, 'fixed-bitrate ladder (before)', fixedMs, fixedBytes, `MP4s only (a TS copy doubled it); ${x(fixedBytes / sourceBytes)} the source, ${perMinute(fixedBytes)}`));

    b.targets.push({
      name: `${kind}: whole ladder vs one plain ffmpeg run`,
      ours: `${(oursMs / 1000).toFixed(1)} s`,
      peers: `one run ${(oneMs / 1000).toFixed(1)} s`,
      ratio: x(oursMs / oneMs),
      wanted: '≤ 1.1×',
      met: oursMs <= 1.1 * oneMs,
    });
    if (kind === 'low-motion') {
      b.targets.push({ name: 'low-motion 6 s 720p: bytes stored in all', ours: kb(stored), peers: `fixed ladder ${kb(fixedBytes)} + TS`, ratio: x(stored / 1024 ** 2), wanted: '< 1 MB', met: stored < 1024 ** 2 });
    }
    if (kind === 'high-motion') {
      b.targets.push({ name: 'high-motion: bytes stored vs the fixed ladder', ours: kb(stored), peers: kb(fixedBytes), ratio: x(stored / fixedBytes), wanted: '≤ 1×', met: stored <= fixedBytes });
    }
  }
}

/** The rate control reelbase used before (7f57edb): a fixed average per rung, peak 1.5×, two seconds of buffer. */
const fixedKbps: Record<string, number> = { '240p': 400, '360p': 800, '540p': 1500, '720p': 2800, '1080p': 5000 };
function fixedLadder(rungs: Rung[], o: { fps: number; hasAudio: boolean }, file: (rung: Rung) => string): string[] {
  const args = ladderOutputs(rungs, o, file);
  // Each rung's `-crf N -maxrate M -bufsize B`, in the order of the rungs.
  for (let i = args.indexOf('-crf'), k = 0; i >= 0; i = args.indexOf('-crf', i + 1), k++) {
    const kbps = fixedKbps[rungs[k].name] ?? 400;
    args.splice(i, 6, '-b:v', `${kbps}k`, '-maxrate', `${kbps * 1.5}k`, '-bufsize', `${kbps * 2}k`);
  }
  return args;
}

/** A 6 s clip of one kind with a tone, encoded as a camera or an editor might (x264 CRF 23); made once and kept in BENCH_DIR. */
async function clip(b: Bench, ffmpeg: string, kind: string, picture: string): Promise<string> {
  const file = join(b.settings.dir, `transcode-${kind}-720p-${seconds}s.mp4`);
  if (existsSync(file)) return file;
  mkdirSync(b.settings.dir, { recursive: true });
  b.log(`making ${file}`);
  const partial = `${file}.partial.mp4`;
  await run(ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', picture],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', partial],
  ]);
  renameSync(partial, file);
  return file;
}

function sizeOf(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath ?? entry.path, entry.name)).size, 0);
}

const row = (caseName: string, server: string, ms: number, bytes: number, note: string) => ({ case: caseName, server, body: kb(bytes), rps: null, p50: ms, p99: ms, note });
