import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MediaInputError } from './errors';
import { runFfmpeg, toolPath } from './ffmpeg';

/** What ffprobe says about a video, as reelbase uses it. */
export interface VideoProbe {
  /** The first name of ffprobe's `format_name`: `mov` (MP4 and QuickTime alike), `matroska` (WebM too), `avi`… */
  container: string;
  /** The MIME type to serve the file with: `video/mp4`, `video/webm`, `video/quicktime`, `video/x-matroska`… */
  type: string;
  /** Seconds; 0 when neither the container nor the stream says. */
  duration: number;
  /** As displayed: the sample aspect ratio applied, and swapped by a rotation of 90 or 270. */
  width: number;
  height: number;
  /** Degrees clockwise the player turns the stored picture (0, 90, 180 or 270), as a phone held upright records. */
  rotation: number;
  /** Average frames a second; 0 when unknown. */
  fps: number;
  /** ffprobe's codec names: `h264`, `hevc`, `vp9`, `aac`, `opus`… */
  videoCodec: string;
  audioCodec: string | null;
  hasAudio: boolean;
  /** The whole file's bits a second, when the container says. */
  bitrate: number | null;
  /** The video stream's bits a second: its own, else the file's less the audio's; null when neither is known. */
  videoBitrate: number | null;
  /** The audio stream's bits a second, when the container says. */
  audioBitrate: number | null;
}

export interface ProbeOptions {
  /** By default `resolveFfprobe()`'s. */
  ffprobe?: string;
  timeoutMs?: number;
}

/**
 * The demuxers ffmpeg and ffprobe may pick for an upload. Without the list ffprobe happily reads a
 * text file (`tty`), a JPEG (`image2`) or a playlist that names other files (`hls`, `concat`).
 */
const videoFormats = ['mov', 'matroska', 'avi', 'flv', 'mpegts', 'mpeg', 'asf', 'ogg', 'mxf'];

/** Arguments before ffmpeg's or ffprobe's `-i` that confine it to a local file in one of `videoFormats`. */
export const inputArgs = (path: string): string[] =>
  ['-format_whitelist', videoFormats.join(','), '-protocol_whitelist', 'file', '-i', `file:${resolve(path)}`];

/** The part of ffprobe's JSON that reelbase reads. */
export interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  bit_rate?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string; bit_rate?: string; tags?: Record<string, string> };
  streams?: FfprobeStream[];
}

/** A probe, and the streams it was read from (transcode reads the profile and level of its outputs). */
export interface ProbedStreams {
  probe: VideoProbe;
  video: FfprobeStream;
  audio: FfprobeStream | null;
}

/** What ffprobe says about the video at `path`. Rejects with MediaInputError when it is not one. */
export async function probe(path: string, options: ProbeOptions = {}): Promise<VideoProbe> {
  return (await probeStreams(path, options)).probe;
}

const notVideo = (cause?: unknown) => new MediaInputError('The file is not a video ffprobe can read.', { cause });
const stillCodecs = new Set(['mjpeg', 'png', 'bmp', 'gif', 'webp', 'tiff']);

/** `probe`, with the ffprobe streams it read. */
export async function probeStreams(path: string, options: ProbeOptions = {}): Promise<ProbedStreams> {
  const ffprobe = toolPath('ffprobe', options.ffprobe);
  // A missing file is the caller's bug, not the user's input: fail with the plain ENOENT.
  await access(path);
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(path)];
  const run = await runFfmpeg(ffprobe, args, options.timeoutMs ?? 30_000);
  if (run.code !== 0) throw notVideo(new Error(run.stderr.trim()));
  const json = JSON.parse(run.stdout.toString()) as FfprobeJson;
  const streams = json.streams ?? [];
  // Cover art is a video stream too: an m4a or mp3 with a picture is still audio only.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video || !(video.width! > 0 && video.height! > 0)) throw new MediaInputError('The file has no video stream.');
  if (stillCodecs.has(video.codec_name ?? '') && Number(video.nb_frames) <= 1) throw notVideo();
  const audio = streams.find((s) => s.codec_type === 'audio') ?? null;
  const format = json.format ?? {};
  const rotation = rotationOf(video);
  const [width, height] = displaySize(video);
  const turned = rotation === 90 || rotation === 270;
  const number = (text: string | undefined) => (text !== undefined && Number.isFinite(Number(text)) ? Number(text) : null);
  const container = (format.format_name ?? '').split(',')[0];
  const bitrate = number(format.bit_rate);
  const audioBitrate = audio ? number(audio.bit_rate) : null;
  return {
    video,
    audio,
    probe: {
      container,
      type: mimeType(container, format.tags?.major_brand, streams),
      duration: number(format.duration) ?? number(video.duration) ?? 0,
      width: turned ? height : width,
      height: turned ? width : height,
      rotation,
      fps: rate(video.avg_frame_rate),
      videoCodec: video.codec_name ?? 'unknown',
      audioCodec: audio?.codec_name ?? null,
      hasAudio: audio !== null,
      bitrate,
      videoBitrate: number(video.bit_rate) ?? (bitrate && bitrate - (audioBitrate ?? 0) > 0 ? bitrate - (audioBitrate ?? 0) : null),
      audioBitrate,
    },
  };
}

/**
 * The `rotate` tag is clockwise (ffprobe before 5 shows it); the display matrix's `rotation` is
 * counter-clockwise (av_display_rotation_get), so an upright iPhone video says 90 and -90.
 */
function rotationOf(video: FfprobeStream): number {
  const tag = Number(video.tags?.rotate);
  const matrix = video.side_data_list?.find((d) => d.side_data_type === 'Display Matrix')?.rotation;
  const clockwise = Number.isFinite(tag) && video.tags?.rotate ? tag : -(matrix ?? 0);
  return (((Math.round(clockwise / 90) * 90) % 360) + 360) % 360;
}

/** Stored size with anamorphic pixels widened, as a player shows them. */
function displaySize(video: FfprobeStream): [number, number] {
  const [num, den] = (video.sample_aspect_ratio ?? '1:1').split(':').map(Number);
  const sar = num > 0 && den > 0 ? num / den : 1;
  return [Math.round(video.width! * sar), video.height!];
}

function rate(fraction: string | undefined): number {
  const [num, den] = (fraction ?? '0/0').split('/').map(Number);
  return num > 0 && den > 0 ? Math.round((num / den) * 1000) / 1000 : 0;
}

const webmCodecs = new Set(['vp8', 'vp9', 'av1', 'vorbis', 'opus', 'webvtt']);
const mimeTypes: Record<string, string> = {
  avi: 'video/x-msvideo',
  flv: 'video/x-flv',
  mpegts: 'video/mp2t',
  mpeg: 'video/mpeg',
  asf: 'video/x-ms-asf',
  ogg: 'video/ogg',
  mxf: 'application/mxf',
};

/** ffprobe names MP4 and QuickTime `mov`, WebM and Matroska `matroska`: the brand and the codecs tell them apart. */
function mimeType(container: string, brand: string | undefined, streams: FfprobeStream[]): string {
  if (container === 'mov') {
    const major = (brand ?? '').trim();
    return major === 'qt' ? 'video/quicktime' : major.startsWith('3g2') ? 'video/3gpp2' : major.startsWith('3g') ? 'video/3gpp' : 'video/mp4';
  }
  if (container === 'matroska') return streams.every((s) => webmCodecs.has(s.codec_name ?? '')) ? 'video/webm' : 'video/x-matroska';
  return mimeTypes[container] ?? 'application/octet-stream';
}
