import assert from 'node:assert/strict';
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createMediaTools, ladder, MediaInputError, probe, resolveFfmpeg, resolveFfprobe, transcode, type TranscodeResult } from '../src/index';
import { runFfmpeg } from '../src/ffmpeg';
import { makeClip, rotateClockwise90, topLevelBoxes } from './clips';

const [ffmpeg, ffprobe] = [resolveFfmpeg(), resolveFfprobe()];

describe('transcode', { skip: ffmpeg && ffprobe ? false : 'no ffmpeg or ffprobe: set REELBASE_FFMPEG and REELBASE_FFPROBE or install the npm builds' }, () => {
  let dir = '';
  const file = (name: string) => join(dir, name);
  let fresh = 0;
  const outDir = async () => mkdtemp(join(dir, `out-${fresh++}-`));

  /** The whole ladder of a source, as core would ask for it. */
  async function ladderOf(name: string, extra: Partial<Parameters<typeof transcode>[2]> = {}): Promise<{ out: string; result: TranscodeResult }> {
    const source = await probe(file(name));
    const out = await outDir();
    const result = await transcode(file(name), out, { rungs: ladder(source), hasAudio: source.hasAudio, fps: source.fps, ...extra });
    return { out, result };
  }

  /** ffprobe's word on each stream of a file. */
  async function streams(path: string): Promise<{ codec_type: string; codec_name: string; pix_fmt?: string; width?: number; height?: number }[]> {
    const run = await runFfmpeg(ffprobe!.path, ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,pix_fmt,width,height', '-of', 'json', path]);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout.toString()).streams;
  }

  async function keyframeTimes(path: string): Promise<number[]> {
    const args = ['-v', 'error', '-select_streams', 'v', '-skip_frame', 'nokey', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', path];
    const run = await runFfmpeg(ffprobe!.path, args);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout.toString().split('\n').map((line) => Number.parseFloat(line)).filter(Number.isFinite);
  }

  /** Every segment of a media playlist, with its EXTINF seconds. */
  async function segments(playlist: string): Promise<{ path: string; seconds: number }[]> {
    const lines = (await readFile(playlist, 'utf8')).split('\n');
    return lines.flatMap((line, i) => (line.startsWith('#EXTINF:') ? [{ path: join(playlist, '..', lines[i + 1]), seconds: Number.parseFloat(line.slice(8)) }] : []));
  }

  async function decodes(path: string): Promise<void> {
    const run = await runFfmpeg(ffmpeg!.path, ['-nostdin', '-v', 'error', '-i', path, '-f', 'null', '-']);
    assert.equal(run.code, 0, `${path}: ${run.stderr}`);
    assert.equal(run.stderr, '', path);
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelbase-transcode-'));
    const make = (name: string, o: Parameters<typeof makeClip>[2]) => makeClip(ffmpeg!.path, file(name), o);
    await Promise.all([
      make('720p.mp4', { size: '1280x720', seconds: 3 }),
      make('silent.mp4', { size: '320x240', seconds: 9, audio: false }),
      make('portrait.mp4', { size: '360x640', seconds: 1 }),
      make('small.mp4', { size: '320x240', seconds: 1 }),
      make('two-frames.mp4', { size: '320x240', seconds: 1, frames: 2 }),
      writeFile(file('text.mp4'), 'This is not a video.\n'.repeat(100)),
    ]);
    await rotateClockwise90(file('small.mp4'), file('upright.mp4'), 240);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('makes a faststart H.264/AAC MP4 and an HLS playlist per rung, and a master playlist', async () => {
    const progress: number[] = [];
    const { out, result } = await ladderOf('720p.mp4', { onProgress: (seconds) => progress.push(seconds) });
    assert.deepEqual(
      result.renditions.map((r) => [r.name, r.width, r.height, r.fps, r.file, r.playlist, r.codecs.replace(/avc1\.6400[0-9a-f]{2}/, 'avc1.6400xx')]),
      ['240p 426 240', '360p 640 360', '540p 960 540', '720p 1280 720'].map((s) => {
        const [name, width, height] = s.split(' ');
        return [name, Number(width), Number(height), 25, `${name}.mp4`, `${name}/index.m3u8`, 'avc1.6400xx,mp4a.40.2'];
      }),
    );
    assert.equal(result.master, 'master.m3u8');
    assert.ok(result.seconds > 0);
    assert.ok(progress.length > 0 && Math.abs(progress.at(-1)! - 3) < 0.2, `progress ${progress}`);
    for (const r of result.renditions) {
      const path = join(out, r.file);
      const [video, audio] = await streams(path);
      assert.deepEqual([video.codec_name, video.pix_fmt, video.height, audio?.codec_name], ['h264', 'yuv420p', r.height, 'aac']);
      const boxes = await topLevelBoxes(path);
      assert.ok(boxes.indexOf('moov') >= 0 && boxes.indexOf('moov') < boxes.indexOf('mdat'), `${r.file}: ${boxes}`);
      assert.equal(r.size, (await readFile(path)).length);
      for (const segment of await segments(join(out, r.playlist))) await decodes(segment.path);
    }
    assert.deepEqual(await keyframeTimes(join(out, '240p.mp4')), [0, 2]);
    assert.deepEqual(await keyframeTimes(join(out, '720p.mp4')), [0, 2]);

    const master = await readFile(join(out, 'master.m3u8'), 'utf8');
    assert.match(master, /^#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n/);
    const variants = [...master.matchAll(/^#EXT-X-STREAM-INF:(.*)\n(.*)$/gm)].map(([, attributes, uri]) => ({ attributes, uri }));
    assert.deepEqual(variants.map((v) => v.uri), ['240p/index.m3u8', '360p/index.m3u8', '540p/index.m3u8', '720p/index.m3u8']);
    for (const [i, { attributes }] of variants.entries()) {
      const r = result.renditions[i];
      assert.match(attributes, new RegExp(`^BANDWIDTH=${r.bandwidth},AVERAGE-BANDWIDTH=\\d+,RESOLUTION=${r.width}x${r.height},CODECS="${r.codecs}",FRAME-RATE=25\\.000$`));
      assert.ok(r.bandwidth > 50_000, attributes);
    }
  });

  it('keeps keyframes every 2 s and cuts 4 s segments; no audio in, no audio out', async () => {
    const { out, result } = await ladderOf('silent.mp4');
    assert.deepEqual(result.renditions.map((r) => [r.name, r.codecs.startsWith('avc1.'), r.codecs.includes('mp4a')]), [['240p', true, false]]);
    assert.deepEqual((await streams(join(out, '240p.mp4'))).map((s) => s.codec_type), ['video']);
    assert.deepEqual(await keyframeTimes(join(out, '240p.mp4')), [0, 2, 4, 6, 8]);
    const cut = await segments(join(out, '240p/index.m3u8'));
    assert.deepEqual(cut.map((s) => s.seconds), [4, 4, 1]);
    for (const segment of cut) await decodes(segment.path);
    assert.doesNotMatch(await readFile(join(out, 'master.m3u8'), 'utf8'), /mp4a/);
  });

  it('makes portrait renditions of a portrait video', async () => {
    const { result } = await ladderOf('portrait.mp4');
    assert.deepEqual(result.renditions.map((r) => `${r.name} ${r.width}x${r.height}`), ['240p 240x426', '360p 360x640']);
  });

  it('makes upright renditions of a rotated video, with no rotation left', async () => {
    const { out, result } = await ladderOf('upright.mp4');
    assert.deepEqual(result.renditions.map((r) => `${r.name} ${r.width}x${r.height}`), ['240p 240x320']);
    const p = await probe(join(out, '240p.mp4'));
    assert.deepEqual([p.width, p.height, p.rotation], [240, 320, 0]);
    // testsrc's left edge is black and its right edge white: turned clockwise, black is on top.
    const jpeg = await createMediaTools().frame(join(out, '240p.mp4'), 0.5);
    const { data, info } = await sharp(jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
    const mean = (from: number, to: number) => data.subarray(from * info.width, to * info.width).reduce((sum, v) => sum + v, 0) / ((to - from) * info.width);
    assert.ok(mean(0, 16) + 60 < mean(info.height - 16, info.height), `top ${mean(0, 16)}, bottom ${mean(info.height - 16, info.height)}`);
  });

  it('transcodes a clip of two frames', async () => {
    const { out, result } = await ladderOf('two-frames.mp4');
    assert.deepEqual(result.renditions.map((r) => r.name), ['240p']);
    await decodes(join(out, '240p.mp4'));
    for (const segment of await segments(join(out, '240p/index.m3u8'))) await decodes(segment.path);
  });

  it('rejects a file that is not a video and leaves the directory empty', async () => {
    const out = await outDir();
    await assert.rejects(transcode(file('text.mp4'), out, { rungs: ladder({ width: 320, height: 240 }), hasAudio: true, fps: 25 }), (error) => {
      assert.ok(error instanceof MediaInputError, String(error));
      assert.match(error.message, /^The video cannot be decoded: .+\.$/);
      assert.doesNotMatch(error.message, new RegExp(dir));
      return true;
    });
    assert.deepEqual(await readdir(out), []);
  });

  it('kills ffmpeg on abort and on timeout, and leaves the directory empty', async () => {
    const source = await probe(file('720p.mp4'));
    const o = { rungs: ladder(source), hasAudio: true, fps: 25 };
    const aborted = await outDir();
    const controller = new AbortController();
    await assert.rejects(transcode(file('720p.mp4'), aborted, { ...o, signal: controller.signal, onProgress: () => controller.abort() }), { name: 'AbortError' });
    const timedOut = await outDir();
    await assert.rejects(transcode(file('720p.mp4'), timedOut, { ...o, timeoutMs: 200 }), (error) => !(error instanceof MediaInputError) && /timed out/.test(String(error)));
    for (const out of [aborted, timedOut]) {
      assert.deepEqual(await readdir(out), []);
      assert.deepEqual(await processesWriting(out), [], `ffmpeg still writing ${out}`);
    }
  });
});

/** Ids of processes whose command line names `dir` (Linux; none elsewhere). */
async function processesWriting(dir: string): Promise<string[]> {
  const ids = await readdir('/proc').catch(() => []);
  const found: string[] = [];
  for (const id of ids.filter((name) => /^\d+$/.test(name))) {
    const command = await readFile(`/proc/${id}/cmdline`, 'utf8').catch(() => '');
    if (command.includes(dir)) found.push(id);
  }
  return found;
}
