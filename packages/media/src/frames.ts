import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MediaInputError } from './errors';
import { runFfmpeg } from './ffmpeg';

/**
 * One video frame, `seconds` in, as a JPEG. A seek past the end makes ffmpeg exit 0 with no
 * output, so the last half second is tried next, then the start (a clip shorter than that).
 */
export async function extractFrame(ffmpeg: string, path: string, seconds: number): Promise<Uint8Array> {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`A frame offset must be a finite number of seconds ≥ 0, not ${seconds}.`);
  // A missing file is the caller's bug, not the user's input: fail with the plain ENOENT.
  await access(path);
  let stderr = '';
  for (const seek of [['-ss', seconds.toFixed(3)], ['-sseof', '-0.5'], ['-ss', '0']]) {
    const run = await runFfmpeg(ffmpeg, [
      ...['-nostdin', '-v', 'error'],
      // Only local files: a playlist disguised as a video cannot make ffmpeg fetch URLs.
      ...['-protocol_whitelist', 'file', ...seek, '-i', `file:${resolve(path)}`],
      ...['-an', '-sn', '-dn', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', '-q:v', '3', 'pipe:1'],
    ]);
    if (run.code === 0 && run.stdout.length > 0) return run.stdout;
    stderr ||= run.stderr;
  }
  throw new MediaInputError('The video has no frame that can be decoded.', { cause: new Error(stderr.trim()) });
}
