import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Service } from '@reelbase/core';
import { FsBlobStore } from '@reelbase/blobs-fs';
import { createMediaTools } from '@reelbase/media';
import { parseStoreSpec } from '../src/index';
import { cli, tempDir, type Outcome } from './cli-harness';
import { contents, openFixedService, withStore } from './dump-helpers';
import { populateStore, type Population } from './populated-store';

describe('migrate a populated JSON store to SQLite', () => {
  const from = 'json:old/reelbase.json';
  const to = 'sqlite:new/reelbase.db';
  let dir: string;
  let cleanup: () => void;
  let population: Population;
  let outcome: Outcome;

  before(async () => {
    ({ dir, cleanup } = tempDir());
    population = await populateStore(parseStoreSpec(from, dir), join(dir, 'old', 'files'));
    outcome = await cli(['migrate', '--from', from, '--to', to], { cwd: dir });
  });
  after(() => cleanup());

  it('exits 0 and prints every non-empty collection with the dump and target counts, all ok', () => {
    assert.equal(outcome.stderr, '');
    assert.equal(outcome.code, 0);
    const lines = outcome.stdout.split('\n');
    assert.match(lines[0], /^COLLECTION\s+DUMP\s+TARGET\s+SEQUENCE\s+CHECK$/);
    for (const row of [
      /^users\s+3\s+3\s+3\s+ok$/,
      /^tokens\s+3\s+3\s+ok$/,
      /^videos\s+4\s+4\s+5\s+ok$/,
      /^comments\s+2\s+2\s+2\s+ok$/,
      // The upload's give-up job (due once its link expired), its transcode (done) and the deleted video's file removal; the key that signs media links.
      /^jobs\s+3\s+3\s+3\s+ok$/,
      /^service_keys\s+1\s+1\s+ok$/,
      /^video_tags\s+2\s+2\s+2\s+ok$/,
      /^likes\s+2\s+2\s+2\s+ok$/,
      /^follows\s+3\s+3\s+3\s+ok$/,
      /^channels\s+1\s+1\s+1\s+ok$/,
      /^album_videos\s+2\s+2\s+2\s+ok$/,
      /^projects\s+1\s+1\s+1\s+ok$/,
      /^ondemand_pages\s+1\s+1\s+1\s+ok$/,
    ]) {
      assert.ok(lines.some((l) => row.test(l)), `no line matching ${row} in:\n${outcome.stdout}`);
    }
    assert.ok(!outcome.stdout.includes('MISMATCH'));
    assert.doesNotMatch(outcome.stdout, /^webhooks\s/m, 'no webhooks: an empty collection is not shown');
    assert.match(outcome.stdout, /^\(\d+ empty collections not shown\)$/m);
    assert.match(
      outcome.stdout,
      new RegExp(`^Migrated json:${join(dir, 'old', 'reelbase.json')} into sqlite:${join(dir, 'new', 'reelbase.db')}: \\d+ documents; every count and sequence matches the dump\\.$`, 'm'),
    );
    assert.ok(outcome.stdout.includes(`Copied the video files directory ${join(dir, 'old', 'files')} to ${join(dir, 'new', 'files')}.`));
    assert.match(outcome.stdout, new RegExp(`^Video files: 2 \\(\\d+\\.\\d KiB\\), 2 of them in ${join(dir, 'new', 'files')}\\.$`, 'm'));
  });

  it('loses nothing: every collection holds equal documents (ids, uris, counters, token hashes, secrets, times) and sequences', async () => {
    const before = await withStore(from, dir, contents);
    const after = await withStore(to, dir, contents);
    assert.deepEqual(after, before);
    assert.equal(before.videos.docs.length, 4);
    assert.ok(before.tokens.docs.every((t) => typeof t.id === 'string' && t.id.length >= 43), 'tokens are kept by their hash');
  });

  describe('the migrated store answers as the old one did', () => {
    let old: Service;
    let migrated: Service;
    before(async () => {
      old = await openFixedService(from, dir);
      migrated = await openFixedService(to, dir);
    });
    after(async () => {
      await old.close();
      await migrated.close();
    });

    it('tokens still authenticate, and a wrong one still does not', async () => {
      const me = await migrated.handle(population.tokens.ada, { method: 'GET', url: '/me?fields=uri,name' });
      assert.deepEqual([me.status, me.body], [200, { uri: `/users/${population.users.ada}`, name: 'Ada' }]);
      const bad = await migrated.handle('not-a-token', { method: 'GET', url: '/me' });
      assert.equal(bad.status, 401);
    });

    it('GETs across every family answer the same status and body', async () => {
      const { users, videos, tokens, comment, channel, album, folder, page } = population;
      const gets: [token: string | null, url: string][] = [
        [tokens.ada, '/me'],
        [null, `/users/${users.ada}`],
        [tokens.ada, '/me/videos'],
        [null, `/videos/${videos.film}`],
        [tokens.ada, `/videos/${videos.short}`],
        [tokens.ada, `/videos/${videos.uploaded}`],
        [null, `/videos/${videos.film}/comments`],
        [null, `/videos/${videos.film}/comments/${comment}/replies`],
        [null, `/videos/${videos.film}/tags`],
        [null, `/videos/${videos.film}/likes`],
        [tokens.bob, '/me/likes'],
        [tokens.bob, '/me/following'],
        [null, `/users/${users.ada}/followers`],
        [tokens.bob, '/me/watchlater'],
        [tokens.bob, '/me/feed'],
        [null, `/channels/${channel}`],
        [null, `/channels/${channel}/videos`],
        [tokens.ada, '/me/albums'],
        [tokens.ada, `/me/albums/${album}/videos`],
        [tokens.ada, '/me/projects'],
        [tokens.ada, `/me/projects/${folder}/videos`],
        [tokens.ada, `/ondemand/pages/${page}`],
        [tokens.ada, `/ondemand/pages/${page}/videos`],
        [tokens.ada, `/ondemand/pages/${page}/seasons`],
        [tokens.ada, '/me/ondemand/pages'],
        [tokens.cy, `/videos/${videos.deleted}`],
      ];
      for (const [token, url] of gets) {
        const was = await old.handle(token, { method: 'GET', url });
        const now = await migrated.handle(token, { method: 'GET', url });
        assert.equal(was.status, url.endsWith(`/videos/${videos.deleted}`) ? 404 : 200, `${url} on the old store`);
        assert.deepEqual({ status: now.status, body: now.body }, { status: was.status, body: was.body }, url);
      }
    });

    it('the uploaded video plays from the copied file', async () => {
      const file = await migrated.handle(null, { method: 'GET', url: `/videos/${population.videos.uploaded}/file` });
      assert.equal(file.status, 200);
      const key = file.file!.key;
      const copy = join(dir, 'new', 'files', ...key.split('/'));
      assert.ok(existsSync(copy), `${copy} exists`);
      assert.deepEqual(readFileSync(copy), readFileSync(join(dir, 'old', 'files', ...key.split('/'))));
      assert.equal(file.file!.size, readFileSync(copy).length);
    });

    it('and so does its rendition, at the link its play hands out, from the copied renditions', async () => {
      const clip = await migrated.handle(null, { method: 'GET', url: `/videos/${population.videos.uploaded}` });
      const progressive = (clip.body as { play: { progressive: { link: string; rendition: string }[] } }).play.progressive;
      assert.deepEqual(progressive.map((p) => p.rendition), ['240p']);
      const blobs = new FsBlobStore(join(dir, 'new', 'files'));
      const url = new URL(progressive[0].link).pathname;
      const rendition = await migrated.handle(null, { method: 'GET', url, blobs, media: createMediaTools() });
      assert.equal(rendition.status, 200);
      const key = rendition.file!.key;
      assert.match(key, new RegExp(`^videos/${population.videos.uploaded}/renditions/.+/240p\\.mp4$`));
      assert.deepEqual(readFileSync(join(dir, 'new', 'files', ...key.split('/'))), readFileSync(join(dir, 'old', 'files', ...key.split('/'))));
      assert.equal(rendition.file!.size, readFileSync(join(dir, 'new', 'files', ...key.split('/'))).length);
    });

    it('a new video gets a fresh id after the deleted newest one, never a reused one', async () => {
      const created = await migrated.handle(population.tokens.ada, { method: 'POST', url: '/me/videos?fields=uri', headers: { 'content-type': 'application/json' }, body: '{"name":"After"}' });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, { uri: `/videos/${Number(population.videos.deleted) + 1}` });
    });
  });

  it('refuses to migrate into the now non-empty target (exit 1) and leaves it as it was', async () => {
    const before = await withStore(to, dir, contents);
    const again = await cli(['migrate', '--from', from, '--to', to], { cwd: dir });
    assert.equal(again.code, 1);
    assert.equal(again.stdout, '');
    assert.match(again.stderr, /^error: the target store is not empty \(users: 3, tokens: 3, videos: 5, follows: 3, likes: 2, …\): import into an empty store, or add --replace to delete everything in it first\n$/);
    assert.deepEqual(await withStore(to, dir, contents), before);
  });

  it('with --replace, replaces the target with the source again (--json reports it)', async () => {
    const replaced = await cli(['migrate', '--from', from, '--to', to, '--replace', '--json'], { cwd: dir });
    assert.equal(replaced.stderr, '');
    assert.equal(replaced.code, 0);
    const report = JSON.parse(replaced.stdout);
    assert.equal(report.target, `sqlite:${join(dir, 'new', 'reelbase.db')}`);
    assert.deepEqual(report.collections.videos, { expected: 4, found: 4, expected_sequence: 5, found_sequence: 5, ok: true });
    assert.deepEqual(report.collections.tokens, { expected: 3, found: 3, ok: true });
    assert.deepEqual(report.video_files, {
      referenced: 2,
      bytes: referencedBytes(join(dir, 'old', 'files', 'videos', population.videos.uploaded)),
      missing: 0,
      dir: join(dir, 'new', 'files'),
      copied_from: join(dir, 'old', 'files'),
    });
    assert.deepEqual(await withStore(to, dir, contents), await withStore(from, dir, contents));
  });

  it('usage: the same file on both sides is exit 2; a source that does not exist is exit 1 and creates nothing', async () => {
    const same = await cli(['migrate', '--from', from, '--to', 'sqlite:old/reelbase.json'], { cwd: dir });
    assert.deepEqual(same, {
      code: 2,
      stdout: '',
      stderr: `error: --from and --to name the same file (${join(dir, 'old', 'reelbase.json')})\n(add --help for usage)\n`,
    });
    const missing = await cli(['migrate', '--from', 'json:nowhere.json', '--to', 'sqlite:elsewhere.db'], { cwd: dir });
    assert.deepEqual(missing, { code: 1, stdout: '', stderr: `error: there is no store at ${join(dir, 'nowhere.json')}\n` });
    assert.ok(!existsSync(join(dir, 'elsewhere.db')));
  });
});

/** Bytes of a video's upload (the files beside its directories) and of its rendition MP4s, as the files directory holds them. */
function referencedBytes(videoDir: string): number {
  const size = (path: string) => statSync(path).size;
  const upload = readdirSync(videoDir).filter((f) => statSync(join(videoDir, f)).isFile()).map((f) => size(join(videoDir, f)));
  const renditions = readdirSync(join(videoDir, 'renditions')).flatMap((set) =>
    readdirSync(join(videoDir, 'renditions', set)).filter((f) => f.endsWith('.mp4')).map((f) => size(join(videoDir, 'renditions', set, f))),
  );
  return [...upload, ...renditions].reduce((a, b) => a + b, 0);
}
