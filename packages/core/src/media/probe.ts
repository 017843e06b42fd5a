import type { ReadAt } from '../blobs/blob-store';

/** What a container header says about a video. */
export interface Probe {
  /** MIME type for playback. */
  type: string;
  container: 'mp4' | 'webm';
  /** Seconds, rounded to whole seconds as the Clip's `duration`. */
  duration: number;
  /** Seconds, unrounded. */
  exactDuration: number;
  width: number;
  height: number;
}

const u32 = (b: Uint8Array, o: number) => ((b[o] << 24) >>> 0) + (b[o + 1] << 16) + (b[o + 2] << 8) + b[o + 3];
const u64 = (b: Uint8Array, o: number) => u32(b, o) * 2 ** 32 + u32(b, o + 4);
const fourcc = (b: Uint8Array, o: number) => String.fromCharCode(b[o], b[o + 1], b[o + 2], b[o + 3]);

/** Largest moov box read into memory; real moov boxes of short videos are far smaller. */
const maxMoov = 16 * 1024 * 1024;

/** Probes an MP4/QuickTime or WebM/Matroska file; null when it is neither (or carries no video). */
export async function probe(read: ReadAt, size: number): Promise<Probe | null> {
  if (size < 16) return null;
  const head = await read(0, 12);
  if (head.length >= 8 && fourcc(head, 4) === 'ftyp') return probeMp4(read, size);
  if (head.length >= 4 && u32(head, 0) === 0x1a45dfa3) return probeWebm(read, size);
  return null;
}

interface Box {
  type: string;
  start: number;
  headerSize: number;
  size: number;
}

function* boxes(b: Uint8Array, from: number, to: number): Generator<Box> {
  let o = from;
  while (o + 8 <= to) {
    let size = u32(b, o);
    const type = fourcc(b, o + 4);
    let headerSize = 8;
    if (size === 1) {
      if (o + 16 > to) return;
      size = u64(b, o + 8);
      headerSize = 16;
    } else if (size === 0) size = to - o;
    if (size < headerSize || o + size > to) return;
    yield { type, start: o, headerSize, size };
    o += size;
  }
}

async function probeMp4(read: ReadAt, size: number): Promise<Probe | null> {
  // Walk the top-level boxes to the moov box, wherever it is (before or after mdat).
  let o = 0;
  while (o + 8 <= size) {
    const h = await read(o, 16);
    if (h.length < 8) return null;
    let boxSize = u32(h, 0);
    const type = fourcc(h, 4);
    if (boxSize === 1) {
      if (h.length < 16) return null;
      boxSize = u64(h, 8);
    } else if (boxSize === 0) boxSize = size - o;
    if (boxSize < 8 || o + boxSize > size) return null;
    if (type === 'moov') {
      if (boxSize > maxMoov) return null;
      const moov = await read(o, boxSize);
      if (moov.length < boxSize) return null;
      return parseMoov(moov);
    }
    o += boxSize;
  }
  return null;
}

function parseMoov(moov: Uint8Array): Probe | null {
  const first = boxes(moov, 0, moov.length).next().value;
  if (!first) return null;
  let duration = -1;
  let width = 0;
  let height = 0;
  for (const box of boxes(moov, first.headerSize, moov.length)) {
    const body = box.start + box.headerSize;
    if (box.type === 'mvhd') {
      const version = moov[body];
      const timescale = version === 1 ? u32(moov, body + 20) : u32(moov, body + 12);
      const units = version === 1 ? u64(moov, body + 24) : u32(moov, body + 16);
      if (timescale > 0) duration = units / timescale;
    } else if (box.type === 'trak') {
      for (const inner of boxes(moov, body, box.start + box.size)) {
        if (inner.type !== 'tkhd') continue;
        const ib = inner.start + inner.headerSize;
        const version = moov[ib];
        // width and height are the last 8 bytes of tkhd, 16.16 fixed point.
        const end = inner.start + inner.size;
        const w = u32(moov, end - 8) / 65536;
        const h = u32(moov, end - 4) / 65536;
        if (inner.size >= (version === 1 ? 104 : 92) && w > 0 && h > 0 && width === 0) {
          width = Math.round(w);
          height = Math.round(h);
        }
      }
    }
  }
  if (duration < 0 || width === 0) return null;
  return { type: 'video/mp4', container: 'mp4', exactDuration: duration, duration: Math.round(duration), width, height };
}

/** EBML: enough of Matroska to read Segment/Info (TimecodeScale, Duration) and the first video track's size. */
async function probeWebm(read: ReadAt, size: number): Promise<Probe | null> {
  const buf = await read(0, Math.min(size, 256 * 1024));
  const vint = (o: number, mask: boolean): [number, number] | null => {
    const first = buf[o];
    if (first === undefined || first === 0) return null;
    let len = 1;
    while (!(first & (0x80 >> (len - 1)))) len++;
    if (o + len > buf.length) return null;
    let value = mask ? first & (0xff >> len) : first;
    for (let i = 1; i < len; i++) value = value * 256 + buf[o + i];
    return [value, len];
  };
  const uint = (o: number, n: number) => {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + buf[o + i];
    return v;
  };
  const float = (o: number, n: number) => {
    const view = new DataView(buf.buffer, buf.byteOffset + o, n);
    return n === 4 ? view.getFloat32(0) : view.getFloat64(0);
  };
  let scale = 1_000_000;
  let duration = -1;
  let width = 0;
  let height = 0;
  const masters = new Set([0x18538067, 0x1549a966, 0x1654ae6b, 0xae, 0xe0]);
  const walk = (from: number, to: number, depth: number): void => {
    let o = from;
    while (o < to && depth < 8) {
      const id = vint(o, false);
      if (!id) return;
      const len = vint(o + id[1], true);
      if (!len) return;
      const body = o + id[1] + len[1];
      const unknown = len[0] === 2 ** (7 * len[1]) - 1;
      const end = unknown ? to : Math.min(body + len[0], to);
      const n = end - body;
      if (masters.has(id[0])) walk(body, end, depth + 1);
      else if (id[0] === 0x2ad7b1) scale = uint(body, n);
      else if (id[0] === 0x4489 && (n === 4 || n === 8)) duration = float(body, n);
      else if (id[0] === 0xb0 && !width) width = uint(body, n);
      else if (id[0] === 0xba && !height) height = uint(body, n);
      if (id[0] === 0x1f43b675) return; // clusters: the headers are done
      o = end;
    }
  };
  walk(0, buf.length, 0);
  if (duration < 0 || !width || !height) return null;
  const seconds = (duration * scale) / 1e9;
  return { type: 'video/webm', container: 'webm', exactDuration: seconds, duration: Math.round(seconds), width, height };
}
