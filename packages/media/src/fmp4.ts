import { open, type FileHandle } from 'node:fs/promises';

/** A run of bytes of a file. */
export interface ByteRange {
  offset: number;
  length: number;
}

/** A fragment (`moof` and its `mdat`s): where it lies, and when its video starts and for how long, in seconds. */
export interface Fragment extends ByteRange {
  start: number;
  duration: number;
}

/** The layout of a fragmented MP4: its initialization section (`ftyp` + `moov`) and its fragments in order. */
export interface FragmentedMp4 {
  init: ByteRange;
  fragments: Fragment[];
}

interface Box {
  type: string;
  /** Of the header, of the content, and past the end. */
  offset: number;
  content: number;
  end: number;
}

/** The boxes in `bytes[from, to)`, one level deep. */
function* boxes(bytes: Buffer, from: number, to: number): Generator<Box> {
  for (let offset = from; offset + 8 <= to; ) {
    const box = header(bytes, offset, to - offset);
    if (!box || box.end > to) return;
    yield box;
    offset = box.end;
  }
}

function header(bytes: Buffer, offset: number, remaining: number): Box | null {
  let size = bytes.readUInt32BE(offset);
  let content = offset + 8;
  if (size === 1) {
    size = Number(bytes.readBigUInt64BE(offset + 8));
    content += 8;
  } else if (size === 0) size = remaining;
  return size < content - offset ? null : { type: bytes.toString('latin1', offset + 4, offset + 8), offset, content, end: offset + size };
}

const child = (bytes: Buffer, parent: Box, type: string) => [...boxes(bytes, parent.content, parent.end)].find((b) => b.type === type);
const children = (bytes: Buffer, parent: Box, type: string) => [...boxes(bytes, parent.content, parent.end)].filter((b) => b.type === type);

/** The video track of a `moov`: its id, timescale and the `trex` default sample duration. */
function videoTrack(moov: Buffer): { id: number; timescale: number; defaultDuration: number } {
  const root = { type: 'moov', offset: 0, content: 8, end: moov.length };
  for (const trak of children(moov, root, 'trak')) {
    const mdia = child(moov, trak, 'mdia');
    const hdlr = mdia && child(moov, mdia, 'hdlr');
    if (!mdia || !hdlr || moov.toString('latin1', hdlr.content + 8, hdlr.content + 12) !== 'vide') continue;
    const tkhd = child(moov, trak, 'tkhd')!;
    const id = moov.readUInt32BE(tkhd.content + (moov[tkhd.content] === 1 ? 20 : 12));
    const mdhd = child(moov, mdia, 'mdhd')!;
    const timescale = moov.readUInt32BE(mdhd.content + (moov[mdhd.content] === 1 ? 20 : 12));
    const mvex = child(moov, root, 'mvex');
    const trex = mvex && children(moov, mvex, 'trex').find((t) => moov.readUInt32BE(t.content + 4) === id);
    return { id, timescale, defaultDuration: trex ? moov.readUInt32BE(trex.content + 12) : 0 };
  }
  throw new Error('The MP4 has no video track.');
}

/** When the video of a `moof` starts and how long it lasts, in the track's timescale; null when it holds no video. */
function videoTiming(moof: Buffer, track: { id: number; defaultDuration: number }): { start: number; duration: number } | null {
  const root = { type: 'moof', offset: 0, content: 8, end: moof.length };
  for (const traf of children(moof, root, 'traf')) {
    const tfhd = child(moof, traf, 'tfhd')!;
    if (moof.readUInt32BE(tfhd.content + 4) !== track.id) continue;
    const tfhdFlags = moof.readUInt32BE(tfhd.content) & 0xffffff;
    // base-data-offset (8) and sample-description-index (4) come before the default duration.
    const defaultDuration = tfhdFlags & 0x08 ? moof.readUInt32BE(tfhd.content + 8 + (tfhdFlags & 0x01 ? 8 : 0) + (tfhdFlags & 0x02 ? 4 : 0)) : track.defaultDuration;
    const tfdt = child(moof, traf, 'tfdt');
    const start = !tfdt ? 0 : moof[tfdt.content] === 1 ? Number(moof.readBigUInt64BE(tfdt.content + 4)) : moof.readUInt32BE(tfdt.content + 4);
    let duration = 0;
    for (const trun of children(moof, traf, 'trun')) {
      const flags = moof.readUInt32BE(trun.content) & 0xffffff;
      const count = moof.readUInt32BE(trun.content + 4);
      if (!(flags & 0x100)) {
        duration += count * defaultDuration;
        continue;
      }
      let at = trun.content + 8 + (flags & 0x01 ? 4 : 0) + (flags & 0x04 ? 4 : 0);
      const stride = 4 * [0x100, 0x200, 0x400, 0x800].filter((bit) => flags & bit).length;
      for (let i = 0; i < count; i++, at += stride) duration += moof.readUInt32BE(at);
    }
    return { start, duration };
  }
  return null;
}

async function readAt(file: FileHandle, offset: number, length: number): Promise<Buffer> {
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await file.read(bytes, 0, length, offset);
  if (bytesRead !== length) throw new Error(`The MP4 ends inside a box at ${offset}.`);
  return bytes;
}

/**
 * The initialization section and fragments of a fragmented MP4, reading only box headers, the
 * `moov` and each `moof` (not the media). A `moof` without video (audio past the video's end)
 * joins the fragment before it.
 */
export async function readFragments(path: string): Promise<FragmentedMp4> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    let init: ByteRange | null = null;
    let track: ReturnType<typeof videoTrack> | null = null;
    const fragments: Fragment[] = [];
    let current: Fragment | null = null;
    for (let offset = 0; offset + 8 <= size; ) {
      const box = header(await readAt(file, offset, Math.min(16, size - offset)), 0, size - offset);
      if (!box) throw new Error(`A broken MP4 box at ${offset}.`);
      const end = offset + (box.end - box.offset);
      if (box.type === 'moov') {
        track = videoTrack(await readAt(file, offset, end - offset));
        init = { offset: 0, length: end };
      } else if (box.type === 'moof') {
        if (!track) throw new Error('A moof comes before the moov: not a fragmented MP4 with its index first.');
        const timing = videoTiming(await readAt(file, offset, end - offset), track);
        if (timing || !current) {
          const { start, duration } = timing ?? { start: 0, duration: 0 };
          current = { offset, length: end - offset, start: start / track.timescale, duration: duration / track.timescale };
          fragments.push(current);
        } else current.length = end - current.offset;
      } else if (box.type === 'mdat' && current && current.offset + current.length === offset) {
        current.length = end - current.offset;
      }
      offset = end;
    }
    if (!init || fragments.length === 0) throw new Error(`${path} is not a fragmented MP4: no moov before its fragments.`);
    return { init, fragments };
  } finally {
    await file.close();
  }
}
