import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { probe, resolveFfmpeg, type VideoProbe } from '@reelbase/media';

const run = promisify(execFile);

/** ffprobe's view of bytes a test fetched (a rendition, a segment). */
export async function probeBytes(bytes: Uint8Array, name = 'file.mp4'): Promise<VideoProbe> {
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-probe-'));
  try {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return await probe(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** True when ffmpeg decodes every frame of the bytes without an error. */
export async function decodes(bytes: Uint8Array, name = 'segment.mp4'): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-decode-'));
  try {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const { stderr } = await run(resolveFfmpeg()!.path, ['-nostdin', '-v', 'error', '-i', path, '-f', 'null', '-']);
    return stderr.trim() === '';
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
