import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import sharp, { type Color } from 'sharp';
import { createMediaTools, MediaInputError } from '../src/index';

const media = createMediaTools();

const solid = (width: number, height: number, background: Color, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } });

/** Pixels that do not compress away, so that half a file is half an image. */
const noise = (width: number, height: number) =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width, height, channels: 3 } });

/** Raw RGBA pixels, one `[r, g, b, a]` per pixel. */
const pixels = async (image: Uint8Array) => {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { at: (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)], info };
};

const magic = (bytes: Uint8Array) =>
  bytes[0] === 0xff && bytes[1] === 0xd8 ? 'jpeg' : Buffer.from(bytes.subarray(1, 4)).toString() === 'PNG' ? 'png' : 'other';

/** A PNG whose header claims `width`×`height` over a few bytes of data: a decompression bomb's shape. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const b = Buffer.alloc(12 + data.length);
    b.writeUInt32BE(data.length);
    b.write(type, 4, 'latin1');
    data.copy(b, 8);
    b.writeUInt32BE(crc32(b.subarray(4, 8 + data.length)), 8 + data.length);
    return b;
  };
  const ihdr = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0]);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))]);
}

describe('prepareImage', () => {
  it('re-encodes a JPEG as a JPEG master', async () => {
    const { master, info } = await media.prepareImage(await solid(400, 300, '#3080c0').jpeg().toBuffer());
    assert.deepEqual(info, { format: 'jpeg', width: 400, height: 300, alpha: false });
    assert.equal(magic(master), 'jpeg');
  });

  it('keeps transparency in a PNG master', async () => {
    const { master, info } = await media.prepareImage(await solid(64, 48, { r: 0, g: 128, b: 255, alpha: 0.5 }, 4).png().toBuffer());
    assert.deepEqual(info, { format: 'png', width: 64, height: 48, alpha: true });
    assert.equal(magic(master), 'png');
    assert.deepEqual((await pixels(master)).at(10, 10), [0, 128, 255, 128]);
  });

  it('answers a JPEG master for an alpha channel that is opaque everywhere', async () => {
    const { master, info } = await media.prepareImage(await solid(64, 48, { r: 0, g: 128, b: 255, alpha: 1 }, 4).png().toBuffer());
    assert.deepEqual(info, { format: 'png', width: 64, height: 48, alpha: false });
    assert.equal(magic(master), 'jpeg');
  });

  it('reads a WebP', async () => {
    const { master, info } = await media.prepareImage(await solid(50, 40, '#808080').webp().toBuffer());
    assert.deepEqual(info, { format: 'webp', width: 50, height: 40, alpha: false });
    assert.equal(magic(master), 'jpeg');
  });

  it('keeps the first frame of an animated GIF', async () => {
    // Frame 1: left half red, right half transparent; frame 2: all blue.
    const frames = Buffer.alloc(8 * 16 * 4);
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 8; x++) frames.set(y < 8 ? (x < 4 ? [255, 0, 0, 255] : [0, 0, 0, 0]) : [0, 0, 255, 255], (y * 8 + x) * 4);
    }
    const gif = await sharp(frames, { raw: { width: 8, height: 16, channels: 4, pageHeight: 8 } }).gif().toBuffer();
    assert.equal((await sharp(gif).metadata()).pages, 2);
    const { master, info } = await media.prepareImage(gif);
    assert.deepEqual(info, { format: 'gif', width: 8, height: 8, alpha: true });
    const { at, info: decoded } = await pixels(master);
    assert.deepEqual([decoded.width, decoded.height], [8, 8]);
    assert.deepEqual(at(0, 0), [255, 0, 0, 255]);
    assert.equal(at(7, 7)[3], 0);
  });

  it('applies the EXIF orientation', async () => {
    const jpeg = await solid(40, 30, 'red').jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const { master, info } = await media.prepareImage(jpeg);
    assert.deepEqual(info, { format: 'jpeg', width: 30, height: 40, alpha: false });
    const meta = await sharp(master).metadata();
    assert.deepEqual([meta.width, meta.height, meta.orientation], [30, 40, undefined]);
  });

  const halve = (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1);
  let seed = 7;
  const random = Uint8Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 23);
  const rejected: [string, () => Promise<Uint8Array> | Uint8Array, string][] = [
    ['empty bytes', () => new Uint8Array(), 'The image is empty.'],
    ['plain text', () => Buffer.from('hello, this is not an image\n'), 'Images must be JPEG, PNG, WebP or GIF; this is none of them.'],
    ['random bytes', () => random, 'Images must be JPEG, PNG, WebP or GIF; this is none of them.'],
    ['an SVG', () => Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'Images must be JPEG, PNG, WebP or GIF; this is svg.'],
    ['a TIFF', () => solid(10, 10, 'red').tiff().toBuffer(), 'Images must be JPEG, PNG, WebP or GIF; this is tiff.'],
    ['an AVIF', () => solid(16, 16, 'red').avif({ effort: 0 }).toBuffer(), 'Images must be JPEG, PNG, WebP or GIF; this is avif.'],
    ['a JPEG cut in half', async () => halve(await noise(400, 300).jpeg().toBuffer()), 'The image is truncated or corrupt.'],
    ['a PNG cut in half', async () => halve(await noise(64, 64).png().toBuffer()), 'The image is truncated or corrupt.'],
    ['random bytes after a JPEG signature', () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), random]), 'The image is truncated or corrupt.'],
    ['an image over 100 megapixels', () => pngHeader(20000, 20000), 'The image is 20000×20000 pixels; images may have at most 100 megapixels.'],
    ['an image just over 100 megapixels', () => pngHeader(10001, 10000), 'The image is 10001×10000 pixels; images may have at most 100 megapixels.'],
  ];
  for (const [name, bytes, message] of rejected) {
    it(`rejects ${name}`, async () => {
      const input = await bytes();
      await assert.rejects(media.prepareImage(input), (error) => {
        assert.ok(error instanceof MediaInputError);
        assert.equal(error.code, 'EMEDIAINPUT');
        assert.equal(error.message, message);
        return true;
      });
    });
  }
});

describe('renderImage', () => {
  const sizes: [number, number][] = [[100, 75], [295, 166], [640, 360], [1920, 1080], [30, 30], [360, 360]];
  for (const type of ['jpeg', 'png'] as const) {
    it(`renders ${type} at exactly the asked sizes`, async () => {
      const { master } = await media.prepareImage(await solid(400, 300, '#3080c0').jpeg().toBuffer());
      for (const [width, height] of sizes) {
        const out = await media.renderImage(master, width, height, type);
        const meta = await sharp(out).metadata();
        assert.deepEqual([magic(out), meta.format, meta.width, meta.height], [type, type, width, height], `${width}x${height}`);
      }
    });
  }

  it('crops from the centre', async () => {
    // 400×300: red, green and blue bands of 50, 300 and 50 columns; a square keeps the green.
    const raw = Buffer.alloc(400 * 300 * 3);
    for (let i = 0; i < 400 * 300; i++) raw.set((i % 400) < 50 ? [255, 0, 0] : (i % 400) < 350 ? [0, 255, 0] : [0, 0, 255], i * 3);
    const master = await sharp(raw, { raw: { width: 400, height: 300, channels: 3 } }).png().toBuffer();
    const { at } = await pixels(await media.renderImage(master, 300, 300, 'png'));
    assert.deepEqual([at(0, 150), at(150, 150), at(299, 150)], [[0, 255, 0, 255], [0, 255, 0, 255], [0, 255, 0, 255]]);
  });

  it('puts transparency on white in a JPEG', async () => {
    const master = await solid(40, 30, { r: 0, g: 0, b: 0, alpha: 0 }, 4).png().toBuffer();
    const { at } = await pixels(await media.renderImage(master, 20, 20, 'jpeg'));
    assert.deepEqual(at(10, 10), [255, 255, 255, 255]);
  });

  it('refuses a size that is not a positive integer', async () => {
    const master = await solid(4, 3, 'red').png().toBuffer();
    await assert.rejects(media.renderImage(master, 0, 10, 'png'), RangeError);
    await assert.rejects(media.renderImage(master, 10.5, 10, 'png'), RangeError);
  });
});
