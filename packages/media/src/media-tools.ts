import { toWebVtt } from './captions';
import { resolveFfmpeg } from './ffmpeg';
import { extractFrame } from './frames';
import { prepareImage, renderImage } from './images';
import { createPlaceholders } from './placeholders';

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
  /** WebVTT text from a WebVTT or SRT file. */
  toWebVtt(bytes: Uint8Array): string;
}

export interface MediaToolsOptions {
  /** The ffmpeg binary for `frame`; by default `resolveFfmpeg()`'s, looked up at the first frame. */
  ffmpegPath?: string;
}

export function createMediaTools(options: MediaToolsOptions = {}): MediaTools {
  return {
    prepareImage,
    renderImage,
    placeholder: createPlaceholders(),
    frame(path, seconds) {
      const ffmpeg = options.ffmpegPath ?? resolveFfmpeg()?.path;
      if (!ffmpeg) {
        return Promise.reject(new Error('No ffmpeg found: set REELBASE_FFMPEG, put ffmpeg on the PATH or install @ffmpeg-installer/ffmpeg.'));
      }
      return extractFrame(ffmpeg, path, seconds);
    },
    toWebVtt,
  };
}
