import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

/** Sprite sheets of evenly spaced frames and the WebVTT file whose cues point into them (`#xywh=`). */
export interface Storyboard {
  /** `storyboard.vtt`, and `storyboard-<n>.jpg` for each sheet: relative to the output directory. */
  vtt: string;
  sheets: string[];
  /** Seconds between frames; the size of a tile. */
  interval: number;
  width: number;
  height: number;
}

/** How a video's storyboard is cut: a frame every `interval` seconds, each `width`×`height`. */
export interface StoryboardPlan {
  interval: number;
  width: number;
  height: number;
}

/** At most this many tiles a row and a column of a sheet. */
const side = 10;
/** A long video stays under this many sheets: the interval grows with the duration. */
const maxSheets = 3;
const tileWidth = 160;

/** A frame a second up to 5 minutes (a sheet and a bit), then wider apart: never more than three sheets of 100. */
export function storyboardPlan(duration: number, width: number, height: number): StoryboardPlan {
  const interval = Math.max(1, Math.ceil(duration / (maxSheets * side * side)));
  const w = Math.min(tileWidth, width - (width % 2));
  return { interval, width: w, height: Math.max(2, Math.round((w * height) / width / 2) * 2) };
}

/** The filter that turns one branch of the decoded picture into the frames of a storyboard. */
export const storyboardFilter = (plan: StoryboardPlan): string => `fps=1/${plan.interval},scale=${plan.width}:${plan.height}:flags=bicubic,setsar=1`;

/** ffmpeg's output of that branch: a small JPEG per frame, `storyboard-frame-<n>.jpg`. */
export const storyboardFrames = (dir: string): string[] => ['-c:v', 'mjpeg', '-q:v', '4', '-f', 'image2', `file:${join(dir, 'storyboard-frame-%05d.jpg')}`];

/** Every file a storyboard writes in `dir` starts so, the frames included: removed together. */
export const storyboardPrefix = 'storyboard';

const timestamp = (seconds: number): string => {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/**
 * Lays the frames ffmpeg wrote (none: null) into sheets of at most 10×10 tiles (a short video's one sheet only
 * as large as its frames need), writes the WebVTT file whose cue for each interval names its tile
 * (`storyboard-0.jpg#xywh=x,y,w,h`, relative to the file), and removes the frames.
 */
export async function writeStoryboard(dir: string, plan: StoryboardPlan, duration: number): Promise<Storyboard | null> {
  const frames = (await readdir(dir)).filter((name) => /^storyboard-frame-\d+\.jpg$/.test(name)).sort();
  // A clip of a few frames may end before the first is taken: no storyboard then.
  if (frames.length === 0) return null;
  const { interval, width, height } = plan;
  const perSheet = side * side;
  const sheets: string[] = [];
  const cues: string[] = [];
  for (let first = 0; first < frames.length; first += perSheet) {
    const these = frames.slice(first, first + perSheet);
    const columns = Math.min(side, these.length);
    const rows = Math.ceil(these.length / columns);
    const name = `storyboard-${sheets.length}.jpg`;
    const tiles = these.map((frame, i) => ({ input: join(dir, frame), left: (i % columns) * width, top: Math.floor(i / columns) * height }));
    await sharp({ create: { width: columns * width, height: rows * height, channels: 3, background: '#000000' } })
      .composite(tiles)
      .jpeg({ quality: 70 })
      .toFile(join(dir, name));
    these.forEach((_, i) => {
      const n = first + i;
      const end = n === frames.length - 1 ? Math.max(duration, n * interval + 0.001) : (n + 1) * interval;
      cues.push(`${timestamp(n * interval)} --> ${timestamp(end)}\n${name}#xywh=${tiles[i].left},${tiles[i].top},${width},${height}`);
    });
    sheets.push(name);
  }
  await Promise.all(frames.map((frame) => rm(join(dir, frame), { force: true })));
  const vtt = 'storyboard.vtt';
  await writeFile(join(dir, vtt), `WEBVTT\n\n${cues.join('\n\n')}\n`);
  return { vtt, sheets, interval, width, height };
}
