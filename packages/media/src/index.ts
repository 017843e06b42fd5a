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
export { ladder, capKbps, type LadderSource, type Rung } from './ladder';
export {
  transcode,
  renditionArgs,
  ladderOutputs,
  fragmentedMp4,
  packageRenditions,
  repackage,
  type Rendition,
  type RungFile,
  type TranscodeOptions,
  type TranscodeResult,
} from './transcode';
export { readFragments, type ByteRange, type Fragment, type FragmentedMp4 } from './fmp4';
export { ssim } from './quality';
export { storyboardPlan, type Storyboard, type StoryboardPlan } from './storyboard';
