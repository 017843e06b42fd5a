import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratchDatabase } from '@reelbase/store-postgres';
import { describeStore, parseStoreSpec } from '../src/index';
import { cli, startServe, stdoutJson, tempDir } from './cli-harness';
import { contents, openFixedService, withStore } from './dump-helpers';
import { populateStore, type Population } from './populated-store';

// Selected by REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh sets it).
const server = process.env.REELBASE_TEST_POSTGRES;
const database = server ? scratchDatabase(server) : undefined;
if (database) after(() => database.drop());

describe('migrate a populated SQLite store to PostgreSQL and back, video files included', { skip: server ? false : 'not selected: set REELBASE_TEST_POSTGRES=postgres://… (scripts/with-postgres.sh does)' }, () => {
  const from = 'sqlite:old/reelbase.db';
  const back = 'sqlite:back/reelbase.db';
  let pg: string;
  let dir: string;
  let cleanup: () => void;
  let population: Population;
  /** The uploaded video's file as the SQLite store kept it. */
  let original: Buffer;
  let key: string;
  let renditionBytes = 0;

  before(async () => {
    ({ dir, cleanup } = tempDir());
    pg = await database!.freshUrl();
    population = await populateStore(parseStoreSpec(from, dir), join(dir, 'old', 'files'));
    const service = await openFixedService(from, dir);
    try {
      key = (await service.handle(null, { method: 'GET', url: `/videos/${population.videos.uploaded}/file` })).file!.key;
      const clip = (await service.handle(null, { method: 'GET', url: `/videos/${population.videos.uploaded}` })).body as { play: { progressive: { size: number }[] } };
      renditionBytes = clip.play.progressive.reduce((sum, p) => sum + p.size, 0);
    } finally {
      await service.close();
    }
    original = readFileSync(join(dir, 'old', 'files', ...key.split('/')));
    assert.ok(renditionBytes > 0);
  });
  after(() => cleanup());

  it('copies every document, ids and sequences included, and the files into ./data/files (a PostgreSQL store keeps them there, as serve does)', async () => {
    const migrated = await cli(['migrate', '--from', from, '--to', pg, '--json'], { cwd: dir });
    assert.equal(migrated.stderr, '');
    assert.equal(migrated.code, 0);
    const report = stdoutJson(migrated);
    assert.equal(report.target, describeStore(parseStoreSpec(pg, dir)));
    assert.deepEqual(report.collections.videos, { expected: 4, found: 4, expected_sequence: 5, found_sequence: 5, ok: true });
    // The upload and its one rendition (a 320x240 clip makes 240p only).
    assert.deepEqual(report.video_files, { referenced: 2, bytes: original.length + renditionBytes, missing: 0, dir: join(dir, 'data', 'files'), copied_from: join(dir, 'old', 'files') });
    assert.deepEqual(await withStore(pg, dir, contents), await withStore(from, dir, contents));
    assert.deepEqual(readFileSync(join(dir, 'data', 'files', ...key.split('/'))), original);
  });

  it('serve on the database plays the copied file, and the next video gets the next id', async () => {
    const running = await startServe(['--port', '0', '--store', pg], dir);
    try {
      const auth = { authorization: `Bearer ${population.tokens.ada}` };
      const played = await fetch(`${running.server.url}/videos/${population.videos.uploaded}/file`, { headers: auth });
      assert.equal(played.status, 200);
      assert.deepEqual(Buffer.from(await played.arrayBuffer()), original);
      const download = await fetch(`${running.server.url}/videos/${population.videos.uploaded}/file?download=true`, { headers: auth });
      assert.equal(download.status, 200);
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), original);
      const created = await fetch(`${running.server.url}/me/videos?fields=uri`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":"After"}' });
      assert.equal(created.status, 201);
      assert.deepEqual(await created.json(), { uri: `/videos/${Number(population.videos.deleted) + 1}` });
    } finally {
      assert.equal((await running.stop()).code, 0);
    }
  });

  it('migrates back from PostgreSQL to SQLite, the new video and the files with it', async () => {
    const migrated = await cli(['migrate', '--from', pg, '--to', back], { cwd: dir });
    assert.equal(migrated.stderr, '');
    assert.equal(migrated.code, 0);
    assert.ok(migrated.stdout.includes(`Copied the video files directory ${join(dir, 'data', 'files')} to ${join(dir, 'back', 'files')}.`), migrated.stdout);
    const copied = await withStore(back, dir, contents);
    assert.deepEqual(copied, await withStore(pg, dir, contents));
    assert.equal(copied.videos.docs.length, 5);
    assert.equal(copied.videos.sequence, Number(population.videos.deleted) + 1);
    assert.deepEqual(readFileSync(join(dir, 'back', 'files', ...key.split('/'))), original);
  });

  it('import into PostgreSQL checks the files in --files (else REELBASE_FILES, else ./data/files); export names that directory', async () => {
    const dump = join(dir, 'dump.jsonl');
    const exported = await cli(['export', '--store', pg, '--file', dump], { cwd: dir });
    assert.equal(exported.code, 0, exported.stderr);
    assert.ok(exported.stderr.includes(`) in ${join(dir, 'data', 'files')}; copy that directory`), exported.stderr);
    const target = await database!.freshUrl();
    const imported = await cli(['import', '--store', target, '--file', dump, '--files', 'elsewhere', '--json'], { cwd: dir });
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(stdoutJson(imported).video_files, { referenced: 2, bytes: original.length + renditionBytes, missing: 2, dir: join(dir, 'elsewhere'), copied_from: null });
    assert.match(imported.stderr, new RegExp(`^warning: 2 of the 2 video files the videos reference are not in ${join(dir, 'elsewhere')}: `));
    const found = await cli(['import', '--store', target, '--file', dump, '--replace', '--json'], { cwd: dir, env: { REELBASE_FILES: join(dir, 'back', 'files') } });
    assert.equal(found.stderr, '');
    assert.deepEqual(stdoutJson(found).video_files.missing, 0);
  });

  it('refuses the same database on both sides (exit 2) and leaves no files behind', async () => {
    const same = await cli(['migrate', '--from', pg, '--to', pg, '--to-files', 'copy'], { cwd: dir });
    assert.equal(same.code, 2);
    assert.match(same.stderr, /^error: --from and --to name the same database \(postgres:\/\//);
    assert.ok(!existsSync(join(dir, 'copy')));
  });
});
