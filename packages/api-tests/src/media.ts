/** A minimal MP4 built from code: ftyp + moov(mvhd, trak/tkhd) + mdat, enough for a container probe. */
export function tinyMp4(o: { seconds?: number; width?: number; height?: number; payload?: number } = {}): Buffer {
  const { seconds = 3, width = 320, height = 240, payload = 3000 } = o;
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  const matrix = Buffer.alloc(36);
  [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].forEach((v, i) => matrix.writeUInt32BE(v, i * 4));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(seconds * 1000, 16); // duration
  mvhd.writeUInt32BE(0x00010000, 20); // rate
  mvhd.writeUInt16BE(0x0100, 24); // volume
  matrix.copy(mvhd, 36);
  mvhd.writeUInt32BE(2, 96); // next track id
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(3, 0); // flags: enabled, in movie
  tkhd.writeUInt32BE(1, 12); // track id
  tkhd.writeUInt32BE(seconds * 1000, 20);
  matrix.copy(tkhd, 40);
  tkhd.writeUInt32BE(width * 65536, 76);
  tkhd.writeUInt32BE(height * 65536, 80);
  const ftyp = box('ftyp', Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41'));
  const moov = box('moov', box('mvhd', mvhd), box('trak', box('tkhd', tkhd)));
  const mdat = box('mdat', Buffer.from(Array.from({ length: payload }, (_, i) => (i * 31 + 7) & 0xff)));
  return Buffer.concat([ftyp, moov, mdat]);
}

type ApiCaller = { call: (m: string, p: string, o: { token?: string; json?: unknown }) => Promise<{ status: number; body: any; text: string }> };

/** Creates a video to be uploaded by tus, `size` bytes; answers its id and upload link (nothing sent yet). */
export async function createTusVideo(h: ApiCaller, token: string, size: number, json: Record<string, unknown> = {}): Promise<{ id: string; link: string }> {
  const r = await h.call('POST', '/me/videos', { token, json: { name: 'Uploaded', ...json, upload: { approach: 'tus', size } } });
  if (r.status !== 201) throw new Error(`creating a video failed: ${r.status} ${r.text}`);
  return { id: String(r.body.uri).split('/').pop()!, link: r.body.upload.upload_link };
}

/** Sends `bytes` to a tus upload link in one PATCH, which finishes the upload. */
export async function sendByTus(link: string, bytes: Uint8Array): Promise<void> {
  const p = await fetch(link, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: bytes,
  });
  if (p.status !== 204) throw new Error(`tus PATCH failed: ${p.status} ${await p.text()}`);
}

/** Creates a video by tus and uploads `bytes` in one PATCH; answers the video id. */
export async function uploadByTus(h: ApiCaller, token: string, bytes: Uint8Array, json: Record<string, unknown> = {}): Promise<string> {
  const { id, link } = await createTusVideo(h, token, bytes.length, json);
  await sendByTus(link, bytes);
  return id;
}

/**
 * A minimal WebM built from code: EBML header, Segment with Info (duration), Tracks (one VP8 video
 * track) and one Cluster holding a VP8 key frame header — enough for a browser to load metadata.
 */
export function tinyWebm(o: { seconds?: number; width?: number; height?: number } = {}): Buffer {
  const { seconds = 2, width = 64, height = 48 } = o;
  const size = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(0x10000000 | n);
    return b;
  };
  const el = (id: number, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const idBytes = Buffer.from(id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'), 'hex');
    return Buffer.concat([idBytes, size(body.length), body]);
  };
  const uint = (id: number, v: number, bytes = 4) => {
    const b = Buffer.alloc(bytes);
    b.writeUIntBE(v, 0, bytes);
    return el(id, b);
  };
  const str = (id: number, s: string) => el(id, Buffer.from(s, 'latin1'));
  const float = (id: number, v: number) => {
    const b = Buffer.alloc(8);
    b.writeDoubleBE(v);
    return el(id, b);
  };
  const header = el(0x1a45dfa3, uint(0x4286, 1, 1), uint(0x42f7, 1, 1), uint(0x42f2, 4, 1), uint(0x42f3, 8, 1), str(0x4282, 'webm'), uint(0x4287, 2, 1), uint(0x4285, 2, 1));
  const info = el(0x1549a966, uint(0x2ad7b1, 1_000_000), float(0x4489, seconds * 1000), str(0x4d80, 'reelbase'), str(0x5741, 'reelbase'));
  const tracks = el(
    0x1654ae6b,
    el(0xae, uint(0xd7, 1, 1), uint(0x73c5, 1, 1), uint(0x83, 1, 1), str(0x86, 'V_VP8'), el(0xe0, uint(0xb0, width, 2), uint(0xba, height, 2))),
  );
  // VP8 key frame: 3-byte tag (key frame, version 0, shown, first partition size), start code, size, then zeroed partitions.
  const firstPart = 64;
  const frame = Buffer.alloc(10 + 256);
  frame.writeUIntLE((firstPart << 5) | (1 << 4), 0, 3);
  frame.set([0x9d, 0x01, 0x2a], 3);
  frame.writeUInt16LE(width, 6);
  frame.writeUInt16LE(height, 8);
  const block = Buffer.concat([Buffer.from([0x81, 0x00, 0x00, 0x80]), frame]);
  const cluster = el(0x1f43b675, uint(0xe7, 0, 1), el(0xa3, block));
  return Buffer.concat([header, el(0x18538067, info, tracks, cluster)]);
}
