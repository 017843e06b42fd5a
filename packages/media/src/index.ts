export { createMediaTools, type ImageInfo, type MediaTools, type MediaToolsOptions } from './media-tools';
export { MediaInputError } from './errors';
export { resolveFfmpeg, findFfmpeg, ffmpegVersion, type FfmpegLocation } from './ffmpeg';
