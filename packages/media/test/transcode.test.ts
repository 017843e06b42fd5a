import assert from 'node:assert/strict';
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createMediaTools, ladder, MediaInputError, probe, repackage, resolveFfmpeg, resolveFfprobe, transcode, type TranscodeResult } from '../src/index';
import { runFfmpeg } from '../src/ffmpeg';
import { decodesCleanly, makeClip, playlistSegments, rotateClockwise90, topLevelBoxes } from './clips';

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

  const segments = (playlist: string) => playlistSegments(playlist, dir);
  const decodes = (path: string) => decodesCleanly(ffmpeg!.path, path);

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

  it('makes one fragmented H.264/AAC MP4 per rung, an HLS playlist of byte ranges into it, and a master playlist', async () => {
    const progress: number[] = [];
    const { out, result } = await ladderOf('720p.mp4', { onProgress: (seconds) => progress.push(seconds) });
    assert.deepEqual(
      result.renditions.map((r) => [r.name, r.width, r.height, r.fps, r.file, r.playlist, r.codecs.replace(/avc1\.6400[0-9a-f]{2}/, 'avc1.6400xx')]),
      ['240p 426 240', '360p 640 360', '540p 960 540', '720p 1280 720'].map((s) => {
        const [name, width, height] = s.split(' ');
        return [name, Number(width), Number(height), 25, `${name}.mp4`, `${name}.m3u8`, 'avc1.6400xx,mp4a.40.2'];
      }),
    );
    assert.equal(result.master, 'master.m3u8');
    assert.ok(result.seconds > 0);
    assert.ok(progress.length > 0 && Math.abs(progress.at(-1)! - 3) < 0.2, `progress ${progress}`);
    for (const r of result.renditions) {
      const path = join(out, r.file);
      const [video, audio] = await streams(path);
      assert.deepEqual([video.codec_name, video.pix_fmt, video.height, audio?.codec_name], ['h264', 'yuv420p', r.height, 'aac']);
      // CMAF: the index first, then a fragment (moof + mdat) at each keyframe.
      const boxes = (await topLevelBoxes(path)).filter((type) => type !== 'sidx');
      assert.deepEqual(boxes, ['ftyp', 'moov', 'moof', 'mdat', 'mfra'], r.file);
      assert.equal(r.size, (await readFile(path)).length);
      assert.ok(r.videoKbps > 0, `${r.name} ${r.videoKbps}`);
      const cut = await segments(join(out, r.playlist));
      assert.deepEqual(cut.map((s) => s.seconds), [3]);
      for (const segment of cut) await decodes(segment.path);
      await decodes(path);
    }
    // Nothing else: the MP4s are the only media stored.
    assert.deepEqual((await readdir(out)).sort(), [...result.renditions.flatMap((r) => [r.file, r.playlist]), 'master.m3u8', 'storyboard-0.jpg', 'storyboard.vtt'].sort());
    assert.deepEqual(await keyframeTimes(join(out, '240p.mp4')), [0]);
    assert.deepEqual(await keyframeTimes(join(out, '720p.mp4')), [0]);

    const master = await readFile(join(out, 'master.m3u8'), 'utf8');
    assert.match(master, /^#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n/);
    const variants = [...master.matchAll(/^#EXT-X-STREAM-INF:(.*)\n(.*)$/gm)].map(([, attributes, uri]) => ({ attributes, uri }));
    assert.deepEqual(variants.map((v) => v.uri), ['240p.m3u8', '360p.m3u8', '540p.m3u8', '720p.m3u8']);
    for (const [i, { attributes }] of variants.entries()) {
      const r = result.renditions[i];
      assert.match(attributes, new RegExp(`^BANDWIDTH=${r.bandwidth},AVERAGE-BANDWIDTH=\\d+,RESOLUTION=${r.width}x${r.height},CODECS="${r.codecs}",FRAME-RATE=25\\.000$`));
      assert.ok(r.bandwidth > 50_000, attributes);
    }
  });

  it('starts a keyframe, a fragment and a segment every 4 s; no audio in, no audio out', async () => {
    const { out, result } = await ladderOf('silent.mp4');
    assert.deepEqual(result.renditions.map((r) => [r.name, r.codecs.startsWith('avc1.'), r.codecs.includes('mp4a')]), [['240p', true, false]]);
    assert.deepEqual((await streams(join(out, '240p.mp4'))).map((s) => s.codec_type), ['video']);
    assert.deepEqual(await keyframeTimes(join(out, '240p.mp4')), [0, 4, 8]);
    assert.deepEqual((await topLevelBoxes(join(out, '240p.mp4'))).filter((type) => type === 'moof').length, 3);
    const cut = await segments(join(out, '240p.m3u8'));
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
    assert.equal(result.storyboard, undefined, 'too short for a storyboard');
    assert.deepEqual((await readdir(out)).filter((name) => name.startsWith('storyboard')), []);
    await decodes(join(out, '240p.mp4'));
    for (const segment of await segments(join(out, '240p.m3u8'))) await decodes(segment.path);
  });

  it('re-packages renditions made before fragmented MP4s by stream copy: the same frames, byte-range playlists, no TS', async () => {
    // A set as reelbase made it before: a faststart MP4 with keyframes every 2 s, and TS segments beside it.
    const old = await outDir();
    const legacy = ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-sc_threshold', '0', '-force_key_frames', 'expr:gte(t,n_forced*2)', '-c:a', 'aac'];
    for (const [name, size] of [['240p', '320x240'], ['360p', '480x360']]) {
      const made = await runFfmpeg(ffmpeg!.path, ['-v', 'error', '-i', file('silent.mp4'), '-s', size, ...legacy, '-movflags', '+faststart', join(old, `${name}.mp4`)]);
      assert.equal(made.code, 0, made.stderr);
    }
    const out = await outDir();
    const result = await repackage(['240p', '360p'].map((name) => ({ name, path: join(old, `${name}.mp4`) })), out);
    assert.deepEqual(result.renditions.map((r) => [r.name, r.file, r.playlist, r.height]), [['240p', '240p.mp4', '240p.m3u8', 240], ['360p', '360p.mp4', '360p.m3u8', 360]]);
    assert.deepEqual((await readdir(out)).sort(), ['240p.m3u8', '240p.mp4', '360p.m3u8', '360p.mp4', 'master.m3u8']);
    const packets = async (path: string) => (await runFfmpeg(ffmpeg!.path, ['-v', 'error', '-i', path, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-'])).stdout.toString();
    for (const r of result.renditions) {
      assert.equal(await packets(join(out, r.file)), await packets(join(old, r.file)), `${r.name}: not re-encoded`);
      assert.deepEqual((await topLevelBoxes(join(out, r.file))).slice(0, 2), ['ftyp', 'moov']);
      const cut = await segments(join(out, r.playlist));
      assert.deepEqual(cut.map((c) => c.seconds), [4, 4, 1]);
      for (const c of cut) await decodes(c.path);
    }
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
