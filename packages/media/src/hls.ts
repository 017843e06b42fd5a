import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FfprobeStream } from './probe';

/** One variant of the master playlist. */
export interface Variant {
  playlist: string;
  width: number;
  height: number;
  fps: number;
  codecs: string;
  /** Bits a second of the fullest segment, and of all segments together, TS overhead included. */
  bandwidth: number;
  averageBandwidth: number;
}

/** ffmpeg arguments that cut one MP4 into a VOD media playlist of MPEG-TS segments, by stream copy. */
export function segmentArgs(input: number, dir: string, segmentSeconds: number): string[] {
  return [
    ...['-map', String(input), '-c', 'copy', '-f', 'hls', '-hls_time', String(segmentSeconds), '-hls_playlist_type', 'vod'],
    ...['-hls_segment_type', 'mpegts', '-hls_segment_filename', `file:${join(dir, 'seg_%03d.ts')}`, `file:${join(dir, 'index.m3u8')}`],
  ];
}

/**
 * The peak and average bitrates of a media playlist's segments. Segments shorter than half the
 * target (the tail of the video) do not count towards the peak unless they are all there is:
 * a lone keyframe in 0.1 s would claim a bitrate no player needs.
 */
export async function measure(playlist: string, segmentSeconds: number): Promise<{ bandwidth: number; averageBandwidth: number }> {
  const lines = (await readFile(playlist, 'utf8')).split('\n').map((line) => line.trim());
  const segments: { bits: number; seconds: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(lines[i]);
    if (!extinf) continue;
    const uri = lines.slice(i + 1).find((line) => line && !line.startsWith('#'))!;
    segments.push({ bits: (await stat(join(dirname(playlist), uri))).size * 8, seconds: Number(extinf[1]) });
  }
  if (segments.length === 0) throw new Error(`${playlist} lists no segments`);
  const rate = (s: { bits: number; seconds: number }) => s.bits / Math.max(s.seconds, 0.001);
  const full = segments.filter((s) => s.seconds >= segmentSeconds / 2);
  const total = segments.reduce((sum, s) => ({ bits: sum.bits + s.bits, seconds: sum.seconds + s.seconds }), { bits: 0, seconds: 0 });
  return { bandwidth: Math.ceil(Math.max(...(full.length ? full : segments).map(rate))), averageBandwidth: Math.ceil(rate(total)) };
}

/** profile_idc and the constraint flags x264 writes for each profile (RFC 6381: avc1.PPCCLL). */
const avcProfiles: Record<string, string> = { 'Constrained Baseline': '42c0', Baseline: '4200', Main: '4d40', High: '6400' };
const aacObjectTypes: Record<string, number> = { LC: 2, 'HE-AAC': 5, 'HE-AACv2': 29 };

/** The CODECS attribute for streams ffprobe read from one of our outputs, e.g. `avc1.64001f,mp4a.40.2`. */
export function codecsOf(video: FfprobeStream, audio: FfprobeStream | null): string {
  const profile = avcProfiles[video.profile ?? ''];
  if (video.codec_name !== 'h264' || !profile || !(video.level! > 0)) throw new Error(`Not an H.264 rendition: ${video.codec_name} ${video.profile} ${video.level}`);
  const codecs = [`avc1.${profile}${video.level!.toString(16).padStart(2, '0')}`];
  if (audio) codecs.push(`mp4a.40.${aacObjectTypes[audio.profile ?? ''] ?? 2}`);
  return codecs.join(',');
}

/**
 * The master playlist, smallest picture first: Safari and many TVs start with the first variant
 * before they have measured anything, and the smallest starts fastest on any connection; players
 * step up after a segment or two. (By size, not bandwidth: a still picture can make a larger
 * rendition the cheaper one.)
 */
export async function writeMaster(path: string, variants: Variant[]): Promise<void> {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of [...variants].sort((a, b) => a.width * a.height - b.width * b.height || a.bandwidth - b.bandwidth)) {
    const attributes = [
      `BANDWIDTH=${v.bandwidth}`,
      `AVERAGE-BANDWIDTH=${v.averageBandwidth}`,
      `RESOLUTION=${v.width}x${v.height}`,
      `CODECS="${v.codecs}"`,
      ...(v.fps > 0 ? [`FRAME-RATE=${v.fps.toFixed(3)}`] : []),
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, v.playlist);
  }
  await writeFile(path, `${lines.join('\n')}\n`);
}
