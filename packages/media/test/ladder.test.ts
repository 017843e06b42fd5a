import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capKbps, ladder } from '../src/index';

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

  it('states a CRF under each ceiling, four seconds of buffer, audio 96k up to 360p and 128k above', () => {
    assert.deepEqual(
      ladder({ width: 3840, height: 2160 }).map((r) => [r.name, r.crf, r.maxKbps, r.bufferKbits, r.audioKbps]),
      [
        ['240p', 26, 400, 1600, 96],
        ['360p', 26, 800, 3200, 96],
        ['540p', 26, 1500, 6000, 128],
        ['720p', 26, 2800, 11200, 128],
        ['1080p', 26, 5000, 20000, 128],
        ['1440p', 26, 9000, 36000, 128],
        ['2160p', 26, 16000, 64000, 128],
      ],
    );
  });

  it("caps every rung at the source's own bitrates, less the buffer a short clip could spend", () => {
    // 131 kbit/s of video: no rung may spend more, however large.
    const thin = ladder({ width: 1280, height: 720, videoBitrate: 131_000, audioBitrate: 48_000 });
    assert.deepEqual(thin.map((r) => [r.name, r.maxKbps, r.audioKbps]), [['240p', 131, 48], ['360p', 131, 48], ['540p', 131, 48], ['720p', 131, 48]]);
    // Over 6 s, x264 spends the rate for 6 s and about 1 s more from its buffer: 131 × 6 / 7.
    const short = ladder({ width: 1280, height: 720, videoBitrate: 131_000, audioBitrate: 8_000, duration: 6 });
    assert.deepEqual(short.map((r) => [r.maxKbps, r.bufferKbits, r.audioKbps]).at(-1), [112, 448, 32]);
    assert.equal(capKbps(2800, 6), 2400);
    assert.equal(capKbps(2800, 0), 2800);
    // A source richer than the ceiling keeps the ceiling.
    assert.deepEqual(ladder({ width: 640, height: 360, videoBitrate: 50_000_000 }).map((r) => r.maxKbps), [400, 800]);
  });

  it('refuses a size that is not two positive integers', () => {
    assert.throws(() => ladder({ width: 0, height: 720 }), RangeError);
    assert.throws(() => ladder({ width: 1280.5, height: 720 }), RangeError);
  });
});
