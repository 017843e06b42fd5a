import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ladder } from '../src/index';

const sizes = (width: number, height: number) => ladder({ width, height }).map((r) => `${r.name} ${r.width}x${r.height}`);

describe('ladder', () => {
  it('climbs the standard rungs up to the source, never above', () => {
    assert.deepEqual(sizes(1920, 1080), ['240p 426x240', '360p 640x360', '540p 960x540', '720p 1280x720', '1080p 1920x1080']);
    assert.deepEqual(sizes(1280, 720), ['240p 426x240', '360p 640x360', '540p 960x540', '720p 1280x720']);
    assert.deepEqual(sizes(3840, 2160).slice(-3), ['1080p 1920x1080', '1440p 2560x1440', '2160p 3840x2160']);
    assert.equal(ladder({ width: 3840, height: 2160 }).length, 7);
    // Between rungs: the last standard one below, not the source's own height.
    assert.deepEqual(sizes(1280, 800).at(-1), '720p 1152x720');
  });

  it('names a portrait rung by its short side', () => {
    assert.deepEqual(sizes(360, 640), ['240p 240x426', '360p 360x640']);
  });

  it('gives a source under 240 one rung of its own size, evened', () => {
    assert.deepEqual(sizes(100, 60), ['60p 100x60']);
    assert.deepEqual(sizes(101, 61), ['60p 100x60']);
  });

  it('keeps every size even and the aspect within a pixel', () => {
    for (const [w, h] of [[1920, 1080], [1080, 1920], [1440, 1080], [720, 576], [1000, 999], [4096, 2160], [99, 201]]) {
      for (const r of ladder({ width: w, height: h })) {
        assert.ok(r.width % 2 === 0 && r.height % 2 === 0, `${w}x${h}: ${r.width}x${r.height}`);
        assert.ok(r.width <= w && r.height <= h, `${w}x${h}: ${r.width}x${r.height} upscales`);
        assert.ok(Math.abs(r.width / r.height - w / h) <= (2 / Math.min(r.width, r.height)) * (w / h), `${w}x${h}: ${r.width}x${r.height}`);
      }
    }
  });

  it('states bitrates: peak 1.5× the average, audio 96k up to 360p and 128k above', () => {
    assert.deepEqual(
      ladder({ width: 3840, height: 2160 }).map((r) => [r.name, r.videoKbps, r.maxKbps, r.audioKbps]),
      [
        ['240p', 400, 600, 96],
        ['360p', 800, 1200, 96],
        ['540p', 1500, 2250, 128],
        ['720p', 2800, 4200, 128],
        ['1080p', 5000, 7500, 128],
        ['1440p', 9000, 13500, 128],
        ['2160p', 16000, 24000, 128],
      ],
    );
  });

  it('refuses a size that is not two positive integers', () => {
    assert.throws(() => ladder({ width: 0, height: 720 }), RangeError);
    assert.throws(() => ladder({ width: 1280.5, height: 720 }), RangeError);
  });
});
