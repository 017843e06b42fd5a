import { resolveFfmpeg, resolveFfprobe, toolVersion } from '@reelbase/media';

/** What transcodes here: which ffmpeg and ffprobe (and where they were found), and how many jobs at once. */
export async function transcodingLine(concurrency: number): Promise<string> {
  const tools = [];
  for (const [name, tool] of [['ffmpeg', resolveFfmpeg()], ['ffprobe', resolveFfprobe()]] as const) {
    if (!tool) return `No ${name} found: uploads will not transcode (set REELBASE_${name.toUpperCase()}, put ${name} on PATH, or npm install).`;
    const version = (await toolVersion(tool.path).catch(() => `${name} (version unknown)`)).split(' Copyright')[0];
    tools.push(`${version} (${tool.source === 'npm' ? 'from npm' : tool.source === 'env' ? `REELBASE_${name.toUpperCase()}` : 'PATH'})`);
  }
  return `Transcoding ${concurrency} at a time with ${tools.join(' and ')}.`;
}
