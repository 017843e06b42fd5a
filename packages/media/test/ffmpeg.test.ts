import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ffmpegVersion, findFfmpeg, resolveFfmpeg } from '../src/index';

describe('findFfmpeg', () => {
  let dir = '';
  const fake = (name: string) => join(dir, name, 'ffmpeg');
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelbase-ffmpeg-'));
    for (const [name, mode] of [['configured', 0o755], ['on-path', 0o755], ['not-executable', 0o644]] as const) {
      await mkdir(join(dir, name));
      await writeFile(fake(name), '#!/bin/sh\n');
      await chmod(fake(name), mode);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('prefers REELBASE_FFMPEG', () => {
    const env = { REELBASE_FFMPEG: fake('configured'), PATH: join(dir, 'on-path') };
    assert.deepEqual(findFfmpeg(env), { path: fake('configured'), source: 'env' });
  });

  it('ignores a REELBASE_FFMPEG that does not exist and searches the PATH, skipping files it cannot run', () => {
    const env = { REELBASE_FFMPEG: join(dir, 'missing'), PATH: ['', join(dir, 'not-executable'), join(dir, 'on-path')].join(':') };
    assert.deepEqual(findFfmpeg(env), { path: fake('on-path'), source: 'path' });
  });

  it("falls back to @ffmpeg-installer's build", () => {
    const found = findFfmpeg({ PATH: join(dir, 'not-executable') });
    assert.equal(found?.source, 'npm');
    assert.match(found.path, /@ffmpeg-installer[/\\][^/\\]+[/\\]ffmpeg(\.exe)?$/);
  });

  it('memoises the process-wide answer', () => {
    assert.equal(resolveFfmpeg(), resolveFfmpeg());
  });
});

describe('ffmpegVersion', () => {
  const ffmpeg = resolveFfmpeg();
  it('answers the first line of ffmpeg -version', { skip: ffmpeg ? false : 'no ffmpeg: set REELBASE_FFMPEG or install @ffmpeg-installer/ffmpeg' }, async () => {
    assert.match(await ffmpegVersion(ffmpeg!.path), /^ffmpeg version \S+/);
  });

  it('rejects for a binary that cannot run', async () => {
    await assert.rejects(ffmpegVersion('/nonexistent/ffmpeg'), /ENOENT/);
  });
});
