import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMediaTools, MediaInputError, probe, resolveFfmpeg, resolveFfprobe } from '../src/index';
import { runFfmpeg } from '../src/ffmpeg';
import { makeClip, rotateClockwise90 } from './clips';

const [ffmpeg, ffprobe] = [resolveFfmpeg(), resolveFfprobe()];

describe('probe', { skip: ffmpeg && ffprobe ? false : 'no ffmpeg or ffprobe: set REELBASE_FFMPEG and REELBASE_FFPROBE or install the npm builds' }, () => {
  let dir = '';
  const file = (name: string) => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelbase-probe-'));
    const make = (name: string, o: Parameters<typeof makeClip>[2]) => makeClip(ffmpeg!.path, file(name), o);
    await Promise.all([
      make('720p.mp4', { size: '1280x720', seconds: 3 }),
      make('silent.mp4', { size: '320x240', seconds: 1, audio: false }),
      make('portrait.mp4', { size: '360x640', seconds: 1 }),
      make('small.mp4', { size: '320x240', seconds: 1 }),
      make('clip.webm', { size: '160x90', seconds: 1 }),
      writeFile(file('text.mp4'), 'This is not a video.\n'.repeat(100)),
      writeFile(file('notes.txt'), 'This is not a video.\n'.repeat(100)),
      runFfmpeg(ffmpeg!.path, ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', file('still.jpg')]),
      runFfmpeg(ffmpeg!.path, ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'aac', file('audio.m4a')]),
    ]);
    const whole = await readFile(file('720p.mp4'));
    await writeFile(file('truncated.mp4'), whole.subarray(0, whole.length >> 1));
    await rotateClockwise90(file('small.mp4'), file('upright.mp4'), 240);
    const tagged = ['-nostdin', '-v', 'error', '-i', file('small.mp4'), '-c', 'copy', '-metadata:s:v', 'rotate=90', file('tagged.mp4')];
    assert.equal((await runFfmpeg(ffmpeg!.path, tagged)).code, 0);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads an H.264/AAC MP4', async () => {
    const p = await probe(file('720p.mp4'));
    assert.ok(Math.abs(p.duration - 3) <= 0.1, `duration ${p.duration}`);
    assert.ok(p.bitrate! > 0 && p.videoBitrate! > 0 && p.audioBitrate! > 0);
    assert.ok(p.videoBitrate! + p.audioBitrate! <= p.bitrate!);
    assert.deepEqual({ ...p, duration: 3, bitrate: 1, videoBitrate: 1, audioBitrate: 1 }, {
      container: 'mov',
      type: 'video/mp4',
      duration: 3,
      width: 1280,
      height: 720,
      rotation: 0,
      fps: 25,
      videoCodec: 'h264',
      audioCodec: 'aac',
      hasAudio: true,
      bitrate: 1,
      videoBitrate: 1,
      audioBitrate: 1,
    });
  });

  it('reads a clip without sound, a portrait clip and a WebM', async () => {
    const [silent, portrait, webm] = await Promise.all([probe(file('silent.mp4')), probe(file('portrait.mp4')), probe(file('clip.webm'))]);
    assert.deepEqual([silent.hasAudio, silent.audioCodec, silent.width, silent.height], [false, null, 320, 240]);
    assert.deepEqual([portrait.width, portrait.height, portrait.rotation], [360, 640, 0]);
    assert.deepEqual([webm.container, webm.type, webm.videoCodec, webm.audioCodec, webm.width, webm.height], ['matroska', 'video/webm', 'vp9', 'opus', 160, 90]);
    assert.ok(Math.abs(webm.duration - 1) <= 0.1, `duration ${webm.duration}`);
  });

  it('answers the displayed size of a rotated video', async () => {
    const upright = await probe(file('upright.mp4'));
    assert.deepEqual([upright.width, upright.height, upright.rotation], [240, 320, 90]);
    // ffmpeg's rotate tag, whichever way round this ffmpeg writes it.
    const tagged = await probe(file('tagged.mp4'));
    assert.deepEqual([tagged.width, tagged.height], [240, 320]);
    assert.ok([90, 270].includes(tagged.rotation), `rotation ${tagged.rotation}`);
  });

  it('rejects what is not a video', async () => {
    const rejects = (name: string, message: string) =>
      assert.rejects(probe(file(name)), (error) => {
        assert.ok(error instanceof MediaInputError, String(error));
        assert.equal(error.code, 'EMEDIAINPUT');
        assert.equal(error.message, message, name);
        return true;
      });
    const unreadable = 'The file is not a video ffprobe can read.';
    await Promise.all([
      // ffprobe would read the .txt as ANSI art and the JPEG as a one-frame video.
      rejects('text.mp4', unreadable),
      rejects('notes.txt', unreadable),
      rejects('still.jpg', unreadable),
      rejects('truncated.mp4', unreadable),
      rejects('audio.m4a', 'The file has no video stream.'),
    ]);
  });

  it('fails with a plain error for a missing file or ffprobe', async () => {
    const plain = (error: unknown) => error instanceof Error && !(error instanceof MediaInputError) && /ENOENT/.test(String(error));
    await assert.rejects(probe(file('missing.mp4')), plain);
    await assert.rejects(probe(file('720p.mp4'), { ffprobe: file('no-ffprobe') }), plain);
  });

  it('is one of the media tools', async () => {
    assert.equal((await createMediaTools().probe(file('portrait.mp4'))).height, 640);
  });
});
