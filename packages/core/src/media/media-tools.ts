/** What an uploaded image turned out to be. */
export interface ImageInfo {
  format: 'jpeg' | 'png' | 'webp' | 'gif';
  width: number;
  height: number;
  alpha: boolean;
}

/**
 * The byte work of images, frames and captions, lent to core by its transport (as `blobs` is):
 * `@reelbase/media` implements it with sharp and ffmpeg. Bad input rejects with an error whose
 * `code` is `EMEDIAINPUT` and whose message is fit to show the API's user.
 */
export interface MediaTools {
  /** Decodes an upload whole and answers its master (oriented, first frame; PNG with alpha, else JPEG). */
  prepareImage(bytes: Uint8Array): Promise<{ master: Uint8Array; info: ImageInfo }>;
  /** The master at exactly width × height (cover-crop from the centre). */
  renderImage(master: Uint8Array, width: number, height: number, type: 'jpeg' | 'png'): Promise<Uint8Array>;
  /** The service placeholder at exactly width × height, PNG. */
  placeholder(kind: PlaceholderKind, width: number, height: number): Promise<Uint8Array>;
  /** A frame of the video file at `path`, `seconds` in (the last one past the end), as a JPEG master. */
  frame(path: string, seconds: number): Promise<Uint8Array>;
  /** WebVTT text from the bytes of a WebVTT or SRT file. */
  toWebVtt(bytes: Uint8Array): string;
}

export type PlaceholderKind = 'portrait' | 'thumbnail' | 'logo';

/** True for the media tools' "this input is not acceptable" errors (as opposed to a fault of ours). */
export const isMediaInputError = (e: unknown): e is Error => e instanceof Error && (e as { code?: unknown }).code === 'EMEDIAINPUT';
