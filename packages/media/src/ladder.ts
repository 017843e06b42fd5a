/** One rendition of a video: H.264 at a size under a quality target and a bitrate cap, AAC beside it. */
export interface Rung {
  /** The short side and `p`, landscape or portrait alike: `720p` is 1280×720 or 720×1280. */
  name: string;
  /** Even, the source's aspect kept. */
  width: number;
  height: number;
  /** x264's constant rate factor: the quality every frame aims at. */
  crf: number;
  /** `-maxrate`: the rung's ceiling, lowered to the source's own video bitrate (see `capKbps`). */
  maxKbps: number;
  /** `-bufsize`: four seconds (a keyframe interval) of `maxKbps`, so a keyframe may take what its GOP is allowed. */
  bufferKbits: number;
  /** At most the rung's, and no more than the source's audio had. */
  audioKbps: number;
}

/** What `ladder` reads of a probe: the display size, and, when known, what the source spends. */
export interface LadderSource {
  width: number;
  height: number;
  /** Bits a second of the source's video and audio streams; null or absent when unknown. */
  videoBitrate?: number | null;
  audioBitrate?: number | null;
  /** Seconds; 0 or absent when unknown. */
  duration?: number;
}

/**
 * Every rung is encoded at one quality (capped CRF: `-crf` under a `-maxrate` ceiling), so a
 * rendition spends what its picture needs rather than a fixed average. CRF 26 at x264's
 * `veryfast` was measured on a static slide, a low-motion and a high-motion noisy clip (SSIM Y
 * ≥ 0.98 on every rung; `medium` and `faster` were no smaller and up to 5× slower; see
 * docs/media.md). The ceilings are the average bitrates of common fixed ladders, so the hardest
 * content costs no more than it did.
 *
 * | rung  | 16:9 size | ceiling kbit/s | audio kbit/s |
 * |-------|-----------|----------------|--------------|
 * | 240p  | 426×240   |    400         |  96          |
 * | 360p  | 640×360   |    800         |  96          |
 * | 540p  | 960×540   |   1500         | 128          |
 * | 720p  | 1280×720  |   2800         | 128          |
 * | 1080p | 1920×1080 |   5000         | 128          |
 * | 1440p | 2560×1440 |   9000         | 128          |
 * | 2160p | 3840×2160 |  16000         | 128          |
 */
const standard: [short: number, ceilingKbps: number][] = [
  [240, 400],
  [360, 800],
  [540, 1500],
  [720, 2800],
  [1080, 5000],
  [1440, 9000],
  [2160, 16000],
];

export const rungCrf = 26;
/** Seconds of the ceiling the VBV buffer holds: one keyframe interval. */
const bufferSeconds = 4;
/**
 * Seconds of the ceiling x264 spends above it from the buffer it starts with, measured on the
 * test clips with x264's settings SEI stripped (see `renditionArgs`). Two seconds starved a
 * still 720p picture whose source spends ~10 kbit/s, nearly all on empty frames: its second
 * keyframe got a third of its bits (SSIM 0.92); one second keeps it ≥ 0.95 and the rung ≤ 1.1×.
 */
const startingBurst = 1;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
const evenDown = (n: number) => Math.max(2, n - (n % 2));

/**
 * The `-maxrate` that keeps a rung's average video bitrate near `limitKbps`: over D seconds a VBV
 * encoder spends the rate times D plus what it draws from the buffer it starts with, which on a
 * short clip is a large share; so the rate is lowered by that share.
 */
export function capKbps(limitKbps: number, duration: number | undefined): number {
  const d = duration && duration > 0 ? duration : Infinity;
  return Math.max(1, Math.floor(d === Infinity ? limitKbps : (limitKbps * d) / (d + startingBurst)));
}

/**
 * The rungs for a source of this display size, smallest first: every standard one up to the
 * source's short side, never upscaled. A source whose short side is under 240 gets one rung of
 * its own size (evened down), with 240p's ceiling. No rung spends more on video than the source
 * did, nor more on audio.
 */
export function ladder(source: LadderSource): Rung[] {
  const { width, height } = source;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    throw new RangeError(`A video size must be two positive integers, not ${width}×${height}.`);
  }
  const [short, long] = [Math.min(width, height), Math.max(width, height)];
  const fits = standard.filter(([side]) => side <= short);
  const sides = fits.length ? fits : [[evenDown(short), standard[0][1]] as const];
  const known = (bits: number | null | undefined) => (bits && bits > 0 ? bits / 1000 : Infinity);
  return sides.map(([side, ceilingKbps]) => {
    const scaled = Math.min(even((side * long) / short), evenDown(long));
    const maxKbps = capKbps(Math.min(ceilingKbps, known(source.videoBitrate)), source.duration);
    return {
      name: `${side}p`,
      width: width >= height ? scaled : side,
      height: width >= height ? side : scaled,
      crf: rungCrf,
      maxKbps,
      bufferKbits: maxKbps * bufferSeconds,
      // AAC under 32 kbit/s stereo sounds broken; a source that thin gets 32.
      audioKbps: Math.min(side <= 360 ? 96 : 128, Math.max(32, Math.ceil(known(source.audioBitrate)))),
    };
  });
}
