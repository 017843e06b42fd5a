import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { createMediaTools } from '../src/index';

const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('placeholder', () => {
  const media = createMediaTools();
  for (const kind of ['thumbnail', 'portrait', 'logo'] as const) {
    for (const [width, height] of [[640, 360], [100, 100], [48, 200]]) {
      it(`draws a ${kind} at ${width}x${height}`, async () => {
        const first = await media.placeholder(kind, width, height);
        assert.deepEqual([...first.subarray(0, 8)], png);
        const { data, info } = await sharp(first).raw().toBuffer({ resolveWithObject: true });
        assert.deepEqual([info.width, info.height, info.channels], [width, height, 3]);
        // The corner is the dark-grey background.
        assert.deepEqual([...data.subarray(0, 3)], [0x2f, 0x31, 0x33]);
        // Served from the cache, and rendered again to the same bytes by a fresh instance.
        assert.equal(await media.placeholder(kind, width, height), first);
        assert.deepEqual(await createMediaTools().placeholder(kind, width, height), first);
      });
    }
  }

  it('draws a different glyph for each kind', async () => {
    const [a, b, c] = await Promise.all((['thumbnail', 'portrait', 'logo'] as const).map((kind) => media.placeholder(kind, 64, 64)));
    assert.notDeepEqual(a, b);
    assert.notDeepEqual(b, c);
    assert.notDeepEqual(a, c);
  });

  it('refuses a size that is not a positive integer', async () => {
    await assert.rejects(media.placeholder('logo', 100, 0), RangeError);
  });

  it('puts the play triangle in the centre', async () => {
    const { data } = await sharp(await media.placeholder('thumbnail', 200, 100)).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)];
    assert.deepEqual(at(100, 50), [0x6b, 0x6f, 0x73]);
    assert.deepEqual(at(20, 50), [0x2f, 0x31, 0x33]);
  });
});
