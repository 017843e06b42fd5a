import { resolve } from 'node:path';
import { runFfmpeg, toolPath } from './ffmpeg';

/**
 * The SSIM of the luma (Y) of a rendition against its source scaled to the rendition's size (as a
 * player would show the source at that size), with ffmpeg's `ssim` filter: 1 is identical.
 */
export async function ssim(rendition: string, source: string, size: { width: number; height: number }, o: { ffmpeg?: string; timeoutMs?: number } = {}): Promise<number> {
  const graph = [
    `[1:V:0]scale=${size.width}:${size.height}:flags=bicubic,setsar=1,format=yuv420p[reference]`,
    '[0:V:0]setsar=1,format=yuv420p[rendition]',
    '[rendition][reference]ssim',
  ].join(';');
  const args = ['-hide_banner', '-nostdin', '-nostats', '-v', 'info', '-i', `file:${resolve(rendition)}`, '-i', `file:${resolve(source)}`, '-lavfi', graph, '-f', 'null', '-'];
  const run = await runFfmpeg(toolPath('ffmpeg', o.ffmpeg), args, o.timeoutMs ?? 600_000);
  const y = /SSIM Y:([\d.]+)/.exec(run.stderr);
  if (run.code !== 0 || !y) throw new Error(`ffmpeg could not measure SSIM: ${run.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  return Number(y[1]);
}
