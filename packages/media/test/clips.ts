import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { runFfmpeg } from '../src/ffmpeg';

export interface ClipOptions {
  /** `WxH` of the test pattern. */
  size: string;
  seconds: number;
  /** A sine tone beside the picture, by default. */
  audio?: boolean;
  /** Stop after this many frames. */
  frames?: number;
  rate?: number;
}

/** A test-pattern clip made with `ffmpeg`: H.264/AAC, or VP9/Opus for a `.webm` name. */
export async function makeClip(ffmpeg: string, file: string, o: ClipOptions): Promise<void> {
  const { size, seconds, audio = true, rate = 25 } = o;
  const webm = file.endsWith('.webm');
  const video = webm ? ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  const sound = audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...(webm ? ['-c:a', 'libopus'] : ['-c:a', 'aac'])] : [];
  const run = await runFfmpeg(ffmpeg, [
    ...['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}:duration=${seconds}`],
    ...sound,
    ...video,
    ...(o.frames ? ['-frames:v', String(o.frames)] : []),
    '-shortest',
    file,
  ]);
  assert.equal(run.code, 0, run.stderr);
}

/**
 * A copy of an MP4 whose video track carries the display matrix an iPhone held upright writes
 * (turn 90° clockwise), made by rewriting the bytes: ffmpeg's own `-metadata:s:v rotate=90`
 * differs between versions (the 2018 npm build writes 270).
 */
export async function rotateClockwise90(from: string, to: string, storedHeight: number): Promise<void> {
  const bytes = await readFile(from);
  const tkhd = bytes.indexOf('tkhd');
  assert.ok(tkhd > 0 && bytes[tkhd + 4] === 0, 'a version-0 tkhd box');
  // type, version and flags, five 32-bit fields, 8 reserved bytes, layer, group, volume, reserved.
  const matrix = tkhd + 4 + 4 + 20 + 8 + 8;
  [0, 0x10000, 0, -0x10000, 0, 0, storedHeight * 0x10000, 0, 0x40000000].forEach((value, i) => bytes.writeInt32BE(value, matrix + i * 4));
  await writeFile(to, bytes);
}

/** The types of an MP4's top-level boxes, in order. */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const bytes = await readFile(file);
  const types: string[] = [];
  for (let offset = 0; offset + 8 <= bytes.length; ) {
    let size = bytes.readUInt32BE(offset);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    else if (size === 0) size = bytes.length - offset;
    types.push(bytes.toString('latin1', offset + 4, offset + 8));
    if (size < 8) break;
    offset += size;
  }
  return types;
}
