import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createMediaTools, probe, resolveFfmpeg, resolveFfprobe, ssim, storyboardPlan, type TranscodeResult, type VideoProbe } from '../src/index';
import { runFfmpeg } from '../src/ffmpeg';
import { decodesCleanly, makeContentClip, playlistSegments, topLevelBoxes, type Content } from './clips';

const [ffmpeg, ffprobe] = [resolveFfmpeg(), resolveFfprobe()];
const kinds: Content[] = ['slide', 'low-motion', 'high-motion'];

/** Bytes of each stream's packets, and the file's seconds. */
async function mediaBytes(path: string): Promise<{ video: number; audio: number; seconds: number }> {
  const run = await runFfmpeg(ffprobe!.path, ['-v', 'error', '-show_entries', 'packet=codec_type,size:format=duration', '-of', 'json', path]);
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout.toString()) as { packets: { codec_type: string; size: string }[]; format: { duration: string } };
  const sum = (type: string) => json.packets.filter((p) => p.codec_type === type).reduce((total, p) => total + Number(p.size), 0);
  return { video: sum('video'), audio: sum('audio'), seconds: Number(json.format.duration) };
}

/**
 * The ladder of three kinds of content, as a worker makes it: each rung one fragmented MP4 that
 * plays progressively and segment by segment, nothing stored twice, never more video bits than
 * the source had, and close to the source in SSIM.
 */
describe('transcode quality and cost', { skip: ffmpeg && ffprobe ? false : 'no ffmpeg or ffprobe: set REELBASE_FFMPEG and REELBASE_FFPROBE or install the npm builds' }, () => {
  let dir = '';
  const ladders = new Map<Content, { source: string; info: VideoProbe; out: string; result: TranscodeResult }>();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelbase-quality-'));
    const tools = createMediaTools();
    for (const kind of kinds) {
      const source = join(dir, `${kind}.mp4`);
      await makeContentClip(ffmpeg!.path, source, kind, { size: '960x540', seconds: 4 });
      const info = await probe(source);
      const out = join(dir, kind);
      ladders.set(kind, { source, info, out, result: await tools.transcode(source, out, { source: info }) });
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('makes a storyboard: sheets of ≤ 10×10 tiles ≤ 160 px wide, and a WebVTT whose every #xywh lies inside its sheet', async () => {
    const { out, result, info } = ladders.get('low-motion')!;
    const board = result.storyboard!;
    assert.deepEqual([board.vtt, board.sheets, board.interval, board.width, board.height], ['storyboard.vtt', ['storyboard-0.jpg'], 1, 160, 90]);
    const sizes = new Map<string, { width: number; height: number }>();
    for (const sheet of board.sheets) {
      const { data, info: decoded } = await sharp(join(out, sheet)).raw().toBuffer({ resolveWithObject: true });
      assert.ok(data.length > 0 && decoded.width <= 10 * 160 && decoded.height <= 10 * 90, `${sheet} ${decoded.width}x${decoded.height}`);
      sizes.set(sheet, decoded);
    }
    const text = await readFile(join(out, board.vtt), 'utf8');
    assert.match(text, /^WEBVTT\n\n/);
    const cues = [...text.matchAll(/^(\d\d):(\d\d):(\d\d)\.(\d{3}) --> (\d\d):(\d\d):(\d\d)\.(\d{3})\n(.+)#xywh=(\d+),(\d+),(\d+),(\d+)$/gm)];
    assert.equal(text.trim().split('\n\n').length - 1, cues.length, 'every cue names a tile');
    const seconds = (m: RegExpMatchArray, at: number) => Number(m[at]) * 3600 + Number(m[at + 1]) * 60 + Number(m[at + 2]) + Number(m[at + 3]) / 1000;
    assert.equal(cues.length, 4);
    cues.forEach((cue, i) => {
      assert.deepEqual([seconds(cue, 1), seconds(cue, 5) > seconds(cue, 1)], [i, true]);
      const sheet = sizes.get(cue[9])!;
      const [x, y, w, h] = cue.slice(10, 14).map(Number);
      assert.ok(sheet && x + w <= sheet.width && y + h <= sheet.height && w === 160 && h === 90, cue[0]);
    });
    assert.ok(Math.abs(seconds(cues.at(-1)!, 5) - info.duration) < 0.01, 'the last cue ends with the video');
    assert.equal(storyboardPlan(3600, 1920, 1080).interval, 12, 'an hour: 300 frames, three sheets');
    assert.deepEqual(storyboardPlan(60, 1080, 1920), { interval: 1, width: 160, height: 284 });
  });

  for (const kind of kinds) {
    it(`${kind}: one fMP4 per rung, playing whole and by each byte range, segments aligned across rungs`, async () => {
      const { out, result, info } = ladders.get(kind)!;
      assert.deepEqual(result.renditions.map((r) => r.name), ['240p', '360p', '540p']);
      const cuts: number[][] = [];
      for (const r of result.renditions) {
        const path = join(out, r.file);
        assert.deepEqual((await topLevelBoxes(path)).slice(0, 2), ['ftyp', 'moov'], r.file);
        await decodesCleanly(ffmpeg!.path, path);
        const whole = await probe(path);
        assert.deepEqual([whole.container, whole.type, whole.videoCodec, whole.audioCodec], ['mov', 'video/mp4', 'h264', 'aac']);
        assert.ok(Math.abs(whole.duration - info.duration) < 0.1, `${r.file} lasts ${whole.duration}, its source ${info.duration}`);
        const segments = await playlistSegments(join(out, r.playlist), dir);
        for (const s of segments) await decodesCleanly(ffmpeg!.path, s.path);
        cuts.push(segments.map((s) => s.seconds));
      }
      assert.deepEqual(cuts[0], [4]);
      for (const cut of cuts) assert.deepEqual(cut, cuts[0]);
    });

    it(`${kind}: stores each rung once, spends no more video bits than the source, SSIM ≥ 0.95`, async () => {
      const { out, result, info, source } = ladders.get(kind)!;
      for (const r of result.renditions) {
        const bytes = await mediaBytes(join(out, r.file));
        const videoBitrate = (bytes.video * 8) / bytes.seconds;
        assert.ok(videoBitrate <= 1.1 * info.videoBitrate!, `${kind} ${r.name}: ${Math.round(videoBitrate / 1000)} kbit/s of video, the source ${Math.round(info.videoBitrate! / 1000)}`);
        const score = await ssim(join(out, r.file), source, r);
        assert.ok(score >= 0.95, `${kind} ${r.name}: SSIM ${score}`);
      }
      // Beside the rungs' MP4s, only their playlists, the master and the storyboard: no second copy.
      const files = (await readdir(out)).filter((name) => !name.startsWith('storyboard'));
      const stored = (await Promise.all(files.map((name) => stat(join(out, name))))).reduce((sum, s) => sum + s.size, 0);
      const media = result.renditions.reduce((sum, r) => sum + r.size, 0);
      assert.ok(stored <= 1.05 * media, `${kind}: ${stored} bytes stored for ${media} bytes of MP4 (${files.join(', ')})`);
    });
  }

  it('a still 720p slide past one keyframe (~10 kbit/s of video): every rung ≤ 1.1× its video bits, SSIM ≥ 0.95', async () => {
    // Its frames cost ~7 kbit/s empty, so the cap leaves little for the keyframe at 4 s.
    const source = join(dir, 'still-720p.mp4');
    await makeContentClip(ffmpeg!.path, source, 'slide', { size: '1280x720', seconds: 5 });
    const info = await probe(source);
    const out = join(dir, 'still-720p');
    const result = await createMediaTools().transcode(source, out, { source: info });
    assert.deepEqual(result.renditions.map((r) => r.name), ['240p', '360p', '540p', '720p']);
    for (const r of result.renditions) {
      const bytes = await mediaBytes(join(out, r.file));
      const videoBitrate = (bytes.video * 8) / bytes.seconds;
      assert.ok(videoBitrate <= 1.1 * info.videoBitrate!, `${r.name}: ${Math.round(videoBitrate / 100) / 10} kbit/s of video, the source ${Math.round(info.videoBitrate! / 100) / 10}`);
      const score = await ssim(join(out, r.file), source, r);
      assert.ok(score >= 0.95, `${r.name}: SSIM ${score}`);
    }
  });
});
