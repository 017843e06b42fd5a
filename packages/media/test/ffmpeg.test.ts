import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ffmpegVersion, findFfmpeg, findFfprobe, resolveFfmpeg, resolveFfprobe, toolVersion } from '../src/index';

const tools = [
  { name: 'ffmpeg', find: findFfmpeg, resolve: resolveFfmpeg, variable: 'REELBASE_FFMPEG', npm: '@ffmpeg-installer' },
  { name: 'ffprobe', find: findFfprobe, resolve: resolveFfprobe, variable: 'REELBASE_FFPROBE', npm: '@ffprobe-installer' },
] as const;

for (const { name, find, resolve, variable, npm } of tools) {
  describe(`find ${name}`, () => {
    let dir = '';
    const fake = (place: string) => join(dir, place, name);
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), `reelbase-${name}-`));
      for (const [place, mode] of [['configured', 0o755], ['on-path', 0o755], ['not-executable', 0o644]] as const) {
        await mkdir(join(dir, place));
        await writeFile(fake(place), '#!/bin/sh\n');
        await chmod(fake(place), mode);
      }
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it(`prefers ${variable}`, () => {
      const env = { [variable]: fake('configured'), PATH: join(dir, 'on-path') };
      assert.deepEqual(find(env), { path: fake('configured'), source: 'env' });
    });

    it(`ignores a ${variable} that does not exist and searches the PATH, skipping files it cannot run`, () => {
      const env = { [variable]: join(dir, 'missing'), PATH: ['', join(dir, 'not-executable'), join(dir, 'on-path')].join(':') };
      assert.deepEqual(find(env), { path: fake('on-path'), source: 'path' });
    });

    it(`falls back to ${npm}'s build`, () => {
      const found = find({ PATH: join(dir, 'not-executable') });
      assert.equal(found?.source, 'npm');
      assert.match(found.path, new RegExp(`${npm}[/\\\\][^/\\\\]+[/\\\\]${name}(\\.exe)?$`));
    });

    it('memoises the process-wide answer', () => {
      assert.equal(resolve(), resolve());
    });
  });
}

describe('toolVersion', () => {
  for (const { name, resolve } of tools) {
    const found = resolve();
    it(`answers the first line of ${name} -version`, { skip: found ? false : `no ${name}` }, async () => {
      assert.match(await toolVersion(found!.path), new RegExp(`^${name} version \\S+`));
    });
  }

  it('rejects for a binary that cannot run', async () => {
    await assert.rejects(ffmpegVersion('/nonexistent/ffmpeg'), /ENOENT/);
  });
});
