import { mkdir } from 'node:fs/promises';
import { toWebVtt } from './captions';
import { toolPath } from './ffmpeg';
import { extractFrame } from './frames';
import { prepareImage, renderImage } from './images';
import { createPlaceholders } from './placeholders';
import { ladder } from './ladder';
import { probe, type VideoProbe } from './probe';
import { repackage, transcode, type RungFile, type TranscodeResult } from './transcode';

/** What an uploaded image was, before it became a master. */
export interface ImageInfo {
  format: 'jpeg' | 'png' | 'webp' | 'gif';
  /** After EXIF orientation. */
  width: number;
  height: number;
  alpha: boolean;
}

/** Everything core does to the bytes of images, videos and captions. Bad input rejects with MediaInputError. */
export interface MediaTools {
  /** An upload decoded whole into its master: oriented, first frame only, PNG with alpha, else JPEG q90. */
  prepareImage(bytes: Uint8Array): Promise<{ master: Uint8Array; info: ImageInfo }>;
  /** The master cover-cropped from the centre to exactly width×height. */
  renderImage(master: Uint8Array, width: number, height: number, type: 'jpeg' | 'png'): Promise<Uint8Array>;
  /** A dark-grey PNG with a centred glyph for the kind; the same bytes each time. */
  placeholder(kind: 'portrait' | 'thumbnail' | 'logo', width: number, height: number): Promise<Uint8Array>;
  /** A JPEG of the video frame `seconds` in, or the last frame when that is past the end. */
  frame(path: string, seconds: number): Promise<Uint8Array>;
  /** What ffprobe says about a video: container, MIME type, duration, display size, codecs. */
  probe(path: string): Promise<VideoProbe>;
  /** `transcode` of the whole `ladder` of a source `probe` described, under the fresh directory `outDir`. */
  transcode(input: string, outDir: string, o: { source: VideoProbe; signal?: AbortSignal; onProgress?: (seconds: number) => void }): Promise<TranscodeResult>;
  /** `repackage` of the rungs `sources` (local MP4s made before fragmented MP4s) under the fresh directory `outDir`. */
  repackage(sources: readonly RungFile[], outDir: string, o: { signal?: AbortSignal }): Promise<TranscodeResult>;
  /** WebVTT text from a WebVTT or SRT file. */
  toWebVtt(bytes: Uint8Array): string;
}

export interface MediaToolsOptions {
  /** The ffmpeg binary for `frame` and `transcode`; by default `resolveFfmpeg()`'s, looked up at the first frame. */
  ffmpegPath?: string;
  /** The ffprobe binary for `probe` and `transcode`; by default `resolveFfprobe()`'s. */
  ffprobePath?: string;
}

export function createMediaTools(options: MediaToolsOptions = {}): MediaTools {
  return {
    prepareImage,
    renderImage,
    placeholder: createPlaceholders(),
    async frame(path, seconds) {
      return extractFrame(toolPath('ffmpeg', options.ffmpegPath), path, seconds);
    },
    probe: (path) => probe(path, { ffprobe: options.ffprobePath }),
    // The caller names a fresh directory; it is made here, as core has no filesystem of its own.
    transcode: async (input, outDir, { source, signal, onProgress }) => {
      await mkdir(outDir, { recursive: true });
      return transcode(input, outDir, {
        rungs: ladder(source),
        hasAudio: source.hasAudio,
        fps: source.fps,
        duration: source.duration,
        signal,
        onProgress,
        ffmpeg: options.ffmpegPath,
        ffprobe: options.ffprobePath,
      });
    },
    repackage: async (sources, outDir, { signal }) => {
      await mkdir(outDir, { recursive: true });
      return repackage(sources, outDir, { signal, ffmpeg: options.ffmpegPath, ffprobe: options.ffprobePath });
    },
    toWebVtt,
  };
}
