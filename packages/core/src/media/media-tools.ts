import type { MediaTools } from '@reelbase/media';

/**
 * The byte work of images, frames, captions, probing and transcoding, lent to core by its
 * transport (as `blobs` is): `@reelbase/media` implements it with sharp, ffmpeg and ffprobe; core
 * uses only its types, never runs it itself. Bad input rejects with an error whose `code` is
 * `EMEDIAINPUT` and whose message is fit to show the API's user.
 */
export type { ImageInfo, MediaTools, Rendition, Storyboard, TranscodeResult, VideoProbe } from '@reelbase/media';

export type PlaceholderKind = Parameters<MediaTools['placeholder']>[0];

/** True for the media tools' "this input is not acceptable" errors (as opposed to a fault of ours). */
export const isMediaInputError = (e: unknown): e is Error => e instanceof Error && (e as { code?: unknown }).code === 'EMEDIAINPUT';
