export { createMediaTools, type ImageInfo, type MediaTools, type MediaToolsOptions } from './media-tools';
export { MediaInputError } from './errors';
export {
  resolveFfmpeg,
  resolveFfprobe,
  resolveTool,
  findFfmpeg,
  findFfprobe,
  findTool,
  ffmpegVersion,
  toolVersion,
  type FfmpegLocation,
  type ToolLocation,
  type ToolName,
} from './ffmpeg';
export { probe, type ProbeOptions, type VideoProbe } from './probe';
export { ladder, type Rung } from './ladder';
export { transcode, renditionArgs, ladderOutputs, type Rendition, type TranscodeOptions, type TranscodeResult } from './transcode';
