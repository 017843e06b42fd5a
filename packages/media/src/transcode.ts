import { access, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MediaInputError } from './errors';
import { toolPath } from './ffmpeg';
import { runFfmpegJob, type JobExit } from './ffmpeg-job';
import { readFragments } from './fmp4';
import { codecsOf, measure, mediaPlaylist, segmentsOf, writeMaster } from './hls';
import { storyboardFilter, storyboardFrames, storyboardPlan, storyboardPrefix, writeStoryboard, type Storyboard, type StoryboardPlan } from './storyboard';
import type { Rung } from './ladder';
import { inputArgs, probeStreams } from './probe';

export interface TranscodeOptions {
  /** From `ladder(probe)`. */
  rungs: Rung[];
  /** From the source's probe: without audio the renditions have none; the frame rate sets the keyframe interval. */
  hasAudio: boolean;
  fps: number;
  /** The source's seconds (its probe's): the storyboard's frames are spaced by it; 0 or absent, a frame a second. */
  duration?: number;
  /** Sprite sheets and their WebVTT file beside the renditions; default true. */
  storyboard?: boolean;
  /** HLS segment length, default 4 s; a keyframe (and a fragment) starts each, at the same times in every rendition. */
  segmentSeconds?: number;
  /** For the whole job, default 6 hours: a backstop against a stuck ffmpeg, not a budget. */
  timeoutMs?: number;
  /** Seconds of the source encoded so far. */
  onProgress?: (seconds: number) => void;
  /** Kills ffmpeg and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** By default the resolved ones. */
  ffmpeg?: string;
  ffprobe?: string;
}

export interface Rendition {
  name: string;
  width: number;
  height: number;
  fps: number;
  /** The video stream's average kbit/s, as ffprobe measured it. */
  videoKbps: number;
  /** Bytes of the MP4. */
  size: number;
  /**
   * `<name>.mp4` (fragmented: progressive playback and HLS byte ranges alike) and `<name>.m3u8`,
   * relative to the output directory. Sets made before fragmented MP4s have `<name>/index.m3u8`
   * and MPEG-TS segments beside it.
   */
  file: string;
  playlist: string;
  /** RFC 6381, as in the master playlist: `avc1.64001f,mp4a.40.2`. */
  codecs: string;
  /** Bits a second of the fullest HLS segment and of all of them, as in the master playlist. */
  bandwidth: number;
  averageBandwidth: number;
}

export interface TranscodeResult {
  /** In the order of the rungs. */
  renditions: Rendition[];
  master: 'master.m3u8';
  /** Absent when not asked for (and on renditions re-packaged from an older set). */
  storyboard?: Storyboard;
  /** Wall time of the whole job. */
  seconds: number;
}

/**
 * Every rung as one fragmented H.264/AAC MP4 (CMAF: `moov` first, a fragment at each forced
 * keyframe) with an HLS media playlist of byte ranges into it, and a master playlist, all under
 * `outDir` (fresh for each attempt; on failure what was written is removed). The same file plays
 * progressively and as HLS, so nothing is stored twice. The source is decoded once: one ffmpeg
 * run splits it to an encoder per rung; the playlists are read off the files' boxes. Rejects with
 * MediaInputError when ffmpeg cannot decode the source.
 */
export async function transcode(input: string, outDir: string, o: TranscodeOptions): Promise<TranscodeResult> {
  const started = performance.now();
  const segmentSeconds = o.segmentSeconds ?? 4;
  check(o.rungs, segmentSeconds);
  const [ffmpeg, ffprobe] = [toolPath('ffmpeg', o.ffmpeg), toolPath('ffprobe', o.ffprobe)];
  const dir = resolve(outDir);
  // A missing source or directory is the caller's bug: the plain ENOENT.
  await Promise.all([access(input), access(dir)]);
  const ours = [...o.rungs.flatMap((r) => [`${r.name}.mp4`, `${r.name}.m3u8`]), 'master.m3u8'].map((name) => join(dir, name));
  const taken = (await Promise.all(ours.map((path) => access(path).then(() => path, () => null)))).find(Boolean);
  if (taken) throw new Error(`${taken} exists: transcode needs a fresh directory`);
  const deadline = Date.now() + (o.timeoutMs ?? 6 * 3600_000);
  const job = () => ({ signal: o.signal, timeoutMs: Math.max(1, deadline - Date.now()) });
  const mp4 = (r: Rung) => join(dir, `${r.name}.mp4`);
  const largest = o.rungs.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  const plan = o.storyboard === false ? null : storyboardPlan(o.duration ?? 0, largest.width, largest.height);
  try {
    const outputs = ladderOutputs(o.rungs, o, mp4, plan ? { plan, dir } : undefined);
    const encode = await runFfmpegJob(ffmpeg, [...quiet, ...inputArgs(input), ...outputs], { ...job(), onProgress: o.onProgress });
    if (encode.code !== 0) throw failure(encode, input);
    o.signal?.throwIfAborted();
    const renditions = await packageRenditions(dir, o.rungs.map((r) => r.name), { segmentSeconds, ffprobe });
    const storyboard = plan ? await writeStoryboard(dir, plan, o.duration ?? 0) : null;
    o.signal?.throwIfAborted();
    return { renditions, master: 'master.m3u8', ...(storyboard ? { storyboard } : {}), seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const storyboardFiles = (await readdir(dir)).filter((name) => name.startsWith(storyboardPrefix)).map((name) => join(dir, name));
    await Promise.all([...ours, ...storyboardFiles].map((path) => rm(path, { recursive: true, force: true })));
    throw error;
  }
}

const quiet = ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-y'];

/**
 * The encoder settings of one rendition: x264 at the rung's CRF under its VBV ceiling, keyframes
 * at every multiple of the segment length (forced by time, and the GOP held to the same length
 * with scene cuts off) so every rendition switches at the same instants; AAC stereo 48 kHz. A
 * keyframe a segment, not two: on a still picture keyframes are most of the bits. x264's SEI (its
 * version and settings, ~700 bytes a rendition) is dropped: no player reads it, and on a cheap
 * source it is seconds of the rung's budget.
 */
export function renditionArgs(rung: Rung, o: { fps: number; hasAudio: boolean; segmentSeconds?: number }): string[] {
  const keyframeSeconds = o.segmentSeconds ?? 4;
  const gop = String(Math.max(1, Math.round((o.fps > 0 ? o.fps : 25) * keyframeSeconds)));
  return [
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
    ...['-crf', String(rung.crf), '-maxrate', `${rung.maxKbps}k`, '-bufsize', `${rung.bufferKbits}k`],
    ...['-g', gop, '-keyint_min', gop, '-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${keyframeSeconds})`],
    ...['-bsf:v', 'filter_units=remove_types=6'],
    ...(o.hasAudio ? ['-c:a', 'aac', '-b:a', `${rung.audioKbps}k`, '-ac', '2', '-ar', '48000'] : ['-an']),
  ];
}

/**
 * One filter graph splits the decoded (and auto-rotated) picture to a scaler per rung, and each
 * rung is an output of its own; so is the storyboard's frames, when asked for. `0:V` skips cover
 * art; metadata (a phone's location) is dropped.
 */
export function ladderOutputs(
  rungs: Rung[],
  o: { fps: number; hasAudio: boolean; segmentSeconds?: number },
  file: (rung: Rung) => string,
  storyboard?: { plan: StoryboardPlan; dir: string },
): string[] {
  const branches = rungs.length + (storyboard ? 1 : 0);
  const graph = [
    `[0:V:0]split=${branches}${Array.from({ length: branches }, (_, k) => `[s${k}]`).join('')}`,
    ...rungs.map((r, k) => `[s${k}]scale=${r.width}:${r.height}:flags=bicubic,setsar=1,format=yuv420p[v${k}]`),
    ...(storyboard ? [`[s${rungs.length}]${storyboardFilter(storyboard.plan)}[storyboard]`] : []),
  ].join(';');
  return [
    '-filter_complex',
    graph,
    ...(storyboard ? ['-map', '[storyboard]', ...storyboardFrames(storyboard.dir)] : []),
    ...rungs.flatMap((rung, k) => [
      ...['-map', `[v${k}]`, ...(o.hasAudio ? ['-map', '0:a:0?'] : [])],
      ...renditionArgs(rung, o),
      ...['-map_metadata', '-1', '-map_chapters', '-1', '-max_muxing_queue_size', '4096', ...fragmentedMp4, `file:${file(rung)}`],
    ]),
  ];
}

/**
 * The MP4 muxer's fragmented mode: the `moov` first, a fragment at every keyframe (they are
 * forced, so fragments fall alike in every rung), offsets relative to each `moof`, and one `sidx`
 * per track after the `moov` so a progressive player knows the duration and can seek.
 * `delay_moov` writes the `moov` once the first packets are in, so its edit list can start the
 * video at 0 despite the B-frame delay (without it the picture lags the sound by two frames).
 */
export const fragmentedMp4 = ['-movflags', '+frag_keyframe+empty_moov+delay_moov+default_base_moof+global_sidx', '-f', 'mp4'];

/**
 * Writes `<name>.m3u8` over each fragmented `<name>.mp4` in `dir`, and `master.m3u8` over them
 * all, and answers the renditions in the order of `names`.
 */
export async function packageRenditions(dir: string, names: string[], o: { segmentSeconds?: number; ffprobe?: string } = {}): Promise<Rendition[]> {
  const segmentSeconds = o.segmentSeconds ?? 4;
  const ffprobe = toolPath('ffprobe', o.ffprobe);
  const renditions = await Promise.all(names.map((name) => packageRendition(dir, name, segmentSeconds, ffprobe)));
  await writeMaster(join(dir, 'master.m3u8'), renditions);
  return renditions;
}

async function packageRendition(dir: string, name: string, segmentSeconds: number, ffprobe: string): Promise<Rendition> {
  const [file, playlist] = [`${name}.mp4`, `${name}.m3u8`];
  const { probe, video, audio } = await probeStreams(join(dir, file), { ffprobe });
  if (Number(video.nb_frames) === 0) throw new MediaInputError('The video has no frame that can be decoded.');
  const [{ size }, layout] = await Promise.all([stat(join(dir, file)), readFragments(join(dir, file))]);
  const segments = segmentsOf(layout, segmentSeconds);
  await writeFile(join(dir, playlist), mediaPlaylist(file, layout.init, segments));
  const { width, height, fps } = probe;
  const videoKbps = Math.round((probe.videoBitrate ?? 0) / 1000);
  return { name, width, height, fps, videoKbps, size, file, playlist, codecs: codecsOf(video, audio), ...measure(segments, segmentSeconds) };
}

function check(rungs: Rung[], segmentSeconds: number): void {
  const ok = (n: number) => Number.isInteger(n) && n >= 2 && n % 2 === 0;
  if (rungs.length === 0) throw new RangeError('transcode needs at least one rung.');
  for (const r of rungs) {
    if (!/^[a-z0-9]+$/.test(r.name) || !ok(r.width) || !ok(r.height)) {
      throw new RangeError(`Rung ${r.name} ${r.width}×${r.height} needs a name of [a-z0-9] and even sizes.`);
    }
  }
  if (new Set(rungs.map((r) => r.name)).size !== rungs.length) throw new RangeError('Rung names must differ.');
  if (!(segmentSeconds >= 1)) throw new RangeError(`Segments must be at least a second long, not ${segmentSeconds}.`);
}

/** stderr's lines without ffmpeg's `[demuxer @ 0x…]` prefixes. */
const lines = (stderr: string) =>
  stderr
    .split('\n')
    .map((line) => line.replace(/^\[[^\]]* @ 0x[0-9a-f]+\]\s*/, '').trim())
    .filter(Boolean);

/** What ffmpeg prints when the source, not our command, is at fault. */
const undecodable = new RegExp(
  [
    'Invalid data found when processing input',
    'moov atom not found',
    'not on whitelist',
    'matches no streams',
    'could not find codec parameters',
    String.raw`Decoder \(codec [^)]*\) not found`,
    'Error while decoding',
    'Output file is empty',
  ].join('|'),
  'i',
);

/** A MediaInputError with ffmpeg's first line (without our paths) when the source is at fault, else a plain Error. */
function failure(run: JobExit, input: string): Error {
  const url = `file:${resolve(input)}`;
  const all = lines(run.stderr);
  const atFault = all.some((line) => undecodable.test(line) || (line.startsWith(`${url}: `) && !/No such file|Permission denied/.test(line)));
  if (!atFault) return new Error(`ffmpeg failed with exit code ${run.code}: ${all.slice(0, 5).join(' / ') || 'no message'}`);
  const first = all.find((line) => undecodable.test(line)) ?? all[0];
  const demuxer = /^\[(\w+) @ 0x[0-9a-f]+\] Format not on whitelist/m.exec(run.stderr)?.[1];
  const detail = demuxer
    ? `ffmpeg reads it as ${demuxer}, which is not a video format`
    : /matches no streams/.test(first)
      ? 'it has no video stream'
      : first.replaceAll(url, 'the file').replace(/[.:\s]+$/, '');
  return new MediaInputError(`The video cannot be decoded: ${detail}.`, { cause: new Error(run.stderr.trim()) });
}

/** One rung of a rendition set as a local file: its name (`360p`) and where its MP4 is. */
export interface RungFile {
  name: string;
  path: string;
}

/**
 * Re-packages renditions made before fragmented MP4s (a faststart `<name>.mp4` each, HLS as
 * MPEG-TS beside it; `sources` names each rung's MP4 by a local path) into the layout `transcode`
 * makes, under the fresh directory `outDir`: each
 * MP4 is rewritten fragmented by stream copy (its keyframes are already forced and aligned), in
 * one ffmpeg run, and the playlists are written over it. Nothing is re-encoded; the TS segments
 * are not read. On failure what was written is removed.
 */
export async function repackage(sources: readonly RungFile[], outDir: string, o: { segmentSeconds?: number; signal?: AbortSignal; timeoutMs?: number; ffmpeg?: string; ffprobe?: string } = {}): Promise<TranscodeResult> {
  const started = performance.now();
  const [ffmpeg, ffprobe] = [toolPath('ffmpeg', o.ffmpeg), toolPath('ffprobe', o.ffprobe)];
  const dir = resolve(outDir);
  await access(dir);
  const names = sources.map((s) => s.name);
  const ours = [...names.flatMap((name) => [`${name}.mp4`, `${name}.m3u8`]), 'master.m3u8'].map((name) => join(dir, name));
  try {
    const args = [
      ...quiet,
      ...sources.flatMap((s) => ['-i', `file:${resolve(s.path)}`]),
      ...names.flatMap((name, k) => ['-map', String(k), '-c', 'copy', '-map_metadata', '-1', ...fragmentedMp4, `file:${join(dir, `${name}.mp4`)}`]),
    ];
    const run = await runFfmpegJob(ffmpeg, args, { signal: o.signal, timeoutMs: o.timeoutMs ?? 3600_000 });
    if (run.code !== 0) throw new Error(`ffmpeg could not re-package the renditions: ${lines(run.stderr)[0] ?? `exit code ${run.code}`}`);
    const renditions = await packageRenditions(dir, names, { segmentSeconds: o.segmentSeconds, ffprobe });
    return { renditions, master: 'master.m3u8', seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    await Promise.all(ours.map((path) => rm(path, { force: true })));
    throw error;
  }
}
