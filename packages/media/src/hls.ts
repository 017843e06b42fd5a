import { writeFile } from 'node:fs/promises';
import type { ByteRange, FragmentedMp4 } from './fmp4';
import type { FfprobeStream } from './probe';

/** One variant of the master playlist. */
export interface Variant {
  playlist: string;
  width: number;
  height: number;
  fps: number;
  codecs: string;
  /** Bits a second of the fullest segment, and of all segments together, container overhead included. */
  bandwidth: number;
  averageBandwidth: number;
}

/** One media segment: a run of whole fragments of the rendition's MP4. */
export interface Segment extends ByteRange {
  seconds: number;
}

/**
 * The fragments of a rendition grouped into segments of about `segmentSeconds`: a segment starts
 * at the first fragment at or past the previous segment's start plus the target. Keyframes (and
 * so fragments) fall at the same instants in every rung, so the segments line up across rungs.
 */
export function segmentsOf(layout: FragmentedMp4, segmentSeconds: number): Segment[] {
  const segments: (Segment & { start: number })[] = [];
  // Half a frame at 60 fps: timestamps are rounded to the track's timescale.
  const slack = 0.008;
  for (const f of layout.fragments) {
    const last = segments.at(-1);
    if (!last || f.start >= last.start + segmentSeconds - slack) segments.push({ offset: f.offset, length: f.length, start: f.start, seconds: f.duration });
    else Object.assign(last, { length: f.offset + f.length - last.offset, seconds: f.start + f.duration - last.start });
  }
  return segments.map(({ offset, length, seconds }) => ({ offset, length, seconds }));
}

/**
 * A VOD media playlist over one fragmented MP4 (`uri`, beside the playlist): its initialization
 * section as `EXT-X-MAP` and each segment as a byte range of it (version 7: fMP4 segments).
 */
export function mediaPlaylist(uri: string, init: ByteRange, segments: Segment[]): string {
  // A segment's EXTINF, rounded to the nearest integer, may not exceed the target duration.
  const target = Math.max(1, ...segments.map((s) => Math.round(s.seconds)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MAP:URI="${uri}",BYTERANGE="${init.length}@${init.offset}"`,
    ...segments.flatMap((s) => [`#EXTINF:${s.seconds.toFixed(3)},`, `#EXT-X-BYTERANGE:${s.length}@${s.offset}`, uri]),
    '#EXT-X-ENDLIST',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The peak and average bitrates of a rendition's segments. Segments shorter than half the
 * target (the tail of the video) do not count towards the peak unless they are all there is:
 * a lone keyframe in 0.1 s would claim a bitrate no player needs.
 */
export function measure(segments: Segment[], segmentSeconds: number): { bandwidth: number; averageBandwidth: number } {
  if (segments.length === 0) throw new Error('A rendition without segments');
  const rate = (s: { length: number; seconds: number }) => (s.length * 8) / Math.max(s.seconds, 0.001);
  const full = segments.filter((s) => s.seconds >= segmentSeconds / 2);
  const total = segments.reduce((sum, s) => ({ length: sum.length + s.length, seconds: sum.seconds + s.seconds }), { length: 0, seconds: 0 });
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
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
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
