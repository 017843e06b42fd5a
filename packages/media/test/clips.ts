import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

/** Three kinds of content a host sees, cheapest to dearest to encode. */
export type Content = 'slide' | 'low-motion' | 'high-motion';

const pictures: Record<Content, (size: string, rate: number, seconds: number) => string[]> = {
  // A still picture with sound: a slide, a podcast's cover.
  slide: (size, rate, seconds) => ['-f', 'lavfi', '-i', `smptehdbars=size=${size}:rate=${rate}:duration=${seconds}`],
  // A counter and a sliding gradient over a still pattern.
  'low-motion': (size, rate, seconds) => ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}:duration=${seconds}`],
  // Moving shapes under grain that changes every frame: the worst case for an encoder.
  'high-motion': (size, rate, seconds) => ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}:duration=${seconds},noise=alls=12:allf=t+u`],
};

/** An H.264/AAC clip of one kind of content, encoded as a camera or an editor might (x264 CRF 23). */
export async function makeContentClip(ffmpeg: string, file: string, content: Content, o: { size: string; seconds: number; rate?: number }): Promise<void> {
  const rate = o.rate ?? 25;
  const run = await runFfmpeg(ffmpeg, [
    ...['-nostdin', '-v', 'error', '-y', ...pictures[content](o.size, rate, o.seconds)],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${o.seconds}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ], 120_000);
  assert.equal(run.code, 0, run.stderr);
}

let written = 0;

/**
 * Every segment of an fMP4 media playlist of byte ranges, as a file a decoder can open on its
 * own (the EXT-X-MAP bytes, then the segment's), written under `dir`, with its EXTINF seconds
 * and byte range.
 */
export async function playlistSegments(playlist: string, dir: string): Promise<{ path: string; seconds: number; offset: number; length: number }[]> {
  const text = await readFile(playlist, 'utf8');
  assert.match(text, /^#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\d+\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n/);
  assert.match(text, /#EXT-X-ENDLIST\n$/);
  const map = /^#EXT-X-MAP:URI="([^"]+)",BYTERANGE="(\d+)@(\d+)"$/m.exec(text);
  assert.ok(map, text);
  const media = await readFile(join(dirname(playlist), map[1]));
  const slice = (length: number, offset: number) => media.subarray(offset, offset + length);
  const found = [...text.matchAll(/^#EXTINF:([\d.]+),\n#EXT-X-BYTERANGE:(\d+)@(\d+)\n(.+)$/gm)];
  assert.ok(found.length > 0, text);
  return Promise.all(
    found.map(async ([, seconds, length, offset, uri]) => {
      assert.equal(uri, map[1]);
      const path = join(dir, `segment-${written++}.mp4`);
      await writeFile(path, Buffer.concat([slice(Number(map[2]), Number(map[3])), slice(Number(length), Number(offset))]));
      return { path, seconds: Number(seconds), offset: Number(offset), length: Number(length) };
    }),
  );
}

/** Asserts that ffmpeg decodes the whole file without a word. */
export async function decodesCleanly(ffmpeg: string, path: string): Promise<void> {
  const run = await runFfmpeg(ffmpeg, ['-nostdin', '-v', 'error', '-i', path, '-f', 'null', '-'], 120_000);
  assert.equal(run.code, 0, `${path}: ${run.stderr}`);
  assert.equal(run.stderr, '', path);
}
