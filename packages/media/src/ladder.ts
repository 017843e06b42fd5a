/** One rendition of a video: H.264 at a size and bitrate, AAC beside it. */
export interface Rung {
  /** The short side and `p`, landscape or portrait alike: `720p` is 1280×720 or 720×1280. */
  name: string;
  /** Even, the source's aspect kept. */
  width: number;
  height: number;
  /** Average video bitrate; `-maxrate` is `maxKbps`, `-bufsize` twice the average. */
  videoKbps: number;
  maxKbps: number;
  audioKbps: number;
}

/**
 * The standard rungs by short side. Video bitrates are those of common H.264 ladders for
 * 16:9 at 24–30 fps (Apple's HLS authoring spec lies in the same range); the peak is 1.5× the
 * average and the VBV buffer two seconds of the average.
 *
 * | rung  | 16:9 size | video kbit/s | max kbit/s | audio kbit/s |
 * |-------|-----------|--------------|------------|--------------|
 * | 240p  | 426×240   |    400       |    600     |  96          |
 * | 360p  | 640×360   |    800       |   1200     |  96          |
 * | 540p  | 960×540   |   1500       |   2250     | 128          |
 * | 720p  | 1280×720  |   2800       |   4200     | 128          |
 * | 1080p | 1920×1080 |   5000       |   7500     | 128          |
 * | 1440p | 2560×1440 |   9000       |  13500     | 128          |
 * | 2160p | 3840×2160 |  16000       |  24000     | 128          |
 */
const standard: [short: number, videoKbps: number][] = [
  [240, 400],
  [360, 800],
  [540, 1500],
  [720, 2800],
  [1080, 5000],
  [1440, 9000],
  [2160, 16000],
];

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
const evenDown = (n: number) => Math.max(2, n - (n % 2));

/**
 * The rungs for a source of this display size, smallest first: every standard one up to the
 * source's short side, never upscaled. A source whose short side is under 240 gets one rung of
 * its own size (evened down), at 240p's bitrates.
 */
export function ladder(source: { width: number; height: number }): Rung[] {
  const { width, height } = source;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    throw new RangeError(`A video size must be two positive integers, not ${width}×${height}.`);
  }
  const [short, long] = [Math.min(width, height), Math.max(width, height)];
  const fits = standard.filter(([side]) => side <= short);
  const sides = fits.length ? fits : [[evenDown(short), standard[0][1]] as const];
  return sides.map(([side, videoKbps]) => {
    const scaled = Math.min(even((side * long) / short), evenDown(long));
    return {
      name: `${side}p`,
      width: width >= height ? scaled : side,
      height: width >= height ? side : scaled,
      videoKbps,
      maxKbps: videoKbps * 1.5,
      audioKbps: side <= 360 ? 96 : 128,
    };
  });
}
