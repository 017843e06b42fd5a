import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createMediaTools, MediaInputError, resolveFfmpeg } from '../src/index';
import { runFfmpeg } from '../src/ffmpeg';

const ffmpeg = resolveFfmpeg();
const media = createMediaTools();

/** Width and height of a JPEG, or a failure when the bytes are something else. */
const jpegSize = async (bytes: Uint8Array) => {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff]);
  const meta = await sharp(bytes).metadata();
  assert.equal(meta.format, 'jpeg');
  return [meta.width, meta.height];
};

describe('frame', { skip: ffmpeg ? false : 'no ffmpeg: set REELBASE_FFMPEG, put ffmpeg on the PATH or install @ffmpeg-installer/ffmpeg' }, () => {
  let dir = '';
  const file = (name: string) => join(dir, name);

  /** A test-pattern clip with a sine tone, as an upload would have video and sound. */
  async function clip(name: string, size: string, seconds: number) {
    const encoders = (await runFfmpeg(ffmpeg!.path, ['-hide_banner', '-encoders'])).stdout.toString();
    const h264 = / libx264 /.test(encoders) ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'] : ['-c:v', 'mpeg4'];
    const codecs = name.endsWith('.webm') ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libvorbis'] : [...h264, '-c:a', 'aac'];
    const run = await runFfmpeg(ffmpeg!.path, [
      ...['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...codecs, '-shortest', file(name)],
    ]);
    assert.equal(run.code, 0, run.stderr);
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelbase-frames-'));
    await Promise.all([
      clip('clip.mp4', '320x240', 2),
      clip('portrait.mp4', '180x320', 1),
      clip('clip.webm', '160x90', 1),
      writeFile(file('text.mp4'), 'This is not a video.\n'.repeat(100)),
    ]);
    // A phone held upright records landscape pixels and a display matrix; ffmpeg writes one
    // only when copying the stream.
    const rotate = ['-nostdin', '-v', 'error', '-i', file('clip.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', file('rotated.mp4')];
    assert.equal((await runFfmpeg(ffmpeg!.path, rotate)).code, 0);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('answers the frame at an offset as a JPEG', async () => {
    assert.deepEqual(await jpegSize(await media.frame(file('clip.mp4'), 1)), [320, 240]);
    assert.deepEqual(await jpegSize(await media.frame(file('clip.mp4'), 0)), [320, 240]);
  });

  it('reads WebM too', async () => {
    assert.deepEqual(await jpegSize(await media.frame(file('clip.webm'), 0.5)), [160, 90]);
  });

  it('answers different frames for different offsets', async () => {
    const [a, b] = await Promise.all([media.frame(file('clip.mp4'), 0.2), media.frame(file('clip.mp4'), 1.5)]);
    assert.notDeepEqual(a, b);
  });

  it('answers a frame from the last half second for an offset past the end', async () => {
    // Not the fallback to the start: the test pattern's counter moves every second.
    const [late, start] = await Promise.all([media.frame(file('clip.mp4'), 99), media.frame(file('clip.mp4'), 0)]);
    assert.deepEqual(await jpegSize(late), [320, 240]);
    assert.notDeepEqual(late, start);
  });

  it('keeps a portrait video upright', async () => {
    assert.deepEqual(await jpegSize(await media.frame(file('portrait.mp4'), 0.5)), [180, 320]);
    assert.deepEqual(await jpegSize(await media.frame(file('rotated.mp4'), 0.5)), [240, 320]);
  });

  it('rejects a file that is not a video', async () => {
    await assert.rejects(media.frame(file('text.mp4'), 1), (error) => {
      assert.ok(error instanceof MediaInputError);
      assert.equal(error.message, 'The video has no frame that can be decoded.');
      return true;
    });
  });

  it('fails with a plain error for a missing file, a missing ffmpeg and a bad offset', async () => {
    const notInput = (error: unknown) => error instanceof Error && !(error instanceof MediaInputError);
    await assert.rejects(media.frame(file('missing.mp4'), 1), (error) => notInput(error) && /ENOENT/.test(String(error)));
    await assert.rejects(createMediaTools({ ffmpegPath: file('no-ffmpeg') }).frame(file('clip.mp4'), 1), (error) => notInput(error) && /ENOENT/.test(String(error)));
    await assert.rejects(media.frame(file('clip.mp4'), -1), RangeError);
    await assert.rejects(media.frame(file('clip.mp4'), Number.NaN), RangeError);
  });
});
