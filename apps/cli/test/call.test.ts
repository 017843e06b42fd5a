import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cli, stdoutJson, tempDir } from './cli-harness';
import { transports } from './targets';

describe('operations', () => {
  it('lists the table as a compact table, filtered, and as JSON', async () => {
    const human = await cli(['operations']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^ID +METHOD +PATHS +SCOPE\n/);
    assert.match(human.stdout, /\nvideos\.update +PATCH +\/videos\/\{video_id\} +edit\n/);
    assert.match(human.stdout, /\nroot\.openapi +GET +\/openapi\.json +-\n/);
    const filtered = await cli(['operations', 'comments', '--json']);
    const rows = stdoutJson(filtered);
    assert.ok(rows.length > 2 && rows.every((r: { id: string; paths: string[] }) => r.id.includes('comments') || r.paths.some((p) => p.includes('comments'))));
    assert.deepEqual(Object.keys(rows[0]), ['id', 'method', 'paths', 'scope', 'summary']);
  });
});

for (const transport of transports) {
  describe(`call (${transport.name})`, () => {
    let dir: string;
    let cleanup: () => void;
    let flags: string[];
    let stop: () => Promise<void>;
    const ids: string[] = [];
    const call = (...args: string[]) => cli(['call', ...args, ...flags]);

    before(async () => {
      ({ dir, cleanup } = tempDir());
      const target = await transport.setup(dir);
      flags = [...target.flags, '--token', target.token];
      stop = target.stop;
    });
    after(async () => {
      await stop();
      cleanup();
    });

    it('creates with --name value, nested --privacy.view and -d pairs (--json)', async () => {
      for (const n of [1, 2, 3]) {
        const outcome = await call('users.videos.create', '--name', `Clip ${n}`, '--privacy.view', 'nobody', '-d', `description=Number ${n}`, '--json');
        assert.equal(outcome.code, 0, outcome.stderr);
        const video = stdoutJson(outcome);
        assert.equal(video.name, `Clip ${n}`);
        assert.equal(video.privacy.view, 'nobody');
        assert.equal(video.description, `Number ${n}`);
        ids.push(video.uri.split('/').pop());
      }
    });

    it('fills path variables from flags (--video-id or --video_id) and prints a record by default', async () => {
      const updated = await call('videos.update', '--video-id', ids[0], '--name=Renamed', '--json');
      assert.equal(updated.code, 0, updated.stderr);
      assert.equal(stdoutJson(updated).name, 'Renamed');
      const shown = await call('videos.get', '--video_id', ids[0]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /^name +Renamed$/m);
      assert.match(shown.stdout, /^privacy\.view +nobody$/m);
    });

    it('prints a list as a table with the page on stderr, and --all walks every page', async () => {
      const page = await call('users.videos.list', '--per_page', '2', '--sort', 'alphabetical', '--direction', 'asc');
      assert.equal(page.code, 0, page.stderr);
      const lines = page.stdout.trimEnd().split('\n');
      assert.match(lines[0], /^URI +NAME/);
      assert.equal(lines.length, 3);
      assert.equal(page.stderr, 'page 1 of 2, 3 in all\n');

      const all = await call('users.videos.list', '--per_page', '2', '--all', '--jsonl', '--fields', 'uri,name');
      assert.equal(all.code, 0, all.stderr);
      const items = all.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      assert.equal(items.length, 3);
      assert.deepEqual(Object.keys(items[0]).sort(), ['name', 'uri']);
      assert.deepEqual(items.map((i) => i.uri.split('/').pop()).sort(), [...ids].sort());

      const json = await call('users.videos.list', '--all', '--json', '--fields', 'name');
      assert.equal(stdoutJson(json).length, 3);
      const table = await call('users.videos.list', '--all', '--fields', 'name');
      assert.match(table.stdout, /^NAME\n/);
      assert.equal(table.stderr, '3 in all\n');
    });

    it('exits 1 with the error_code on stderr for an API error, 2 for usage errors', async () => {
      const missing = await call('videos.get', '--video_id', '999999');
      assert.equal(missing.code, 1);
      assert.equal(missing.stdout, '');
      assert.match(missing.stderr, /^error 5000 \(HTTP 404\): /);
      const machine = await call('videos.get', '--video_id', '999999', '--json');
      assert.equal(JSON.parse(machine.stderr).error_code, 5000);
      const invalid = await call('videos.update', '--video_id', ids[0], '--privacy.view', 'bogus');
      assert.equal(invalid.code, 1);
      assert.match(invalid.stderr, /error 2204 .*privacy\.view/);

      for (const args of [['no.such.op'], ['videos.get'], ['videos.get', 'stray'], ['users.videos.get', '--video_id', ids[0], '--all'], ['videos.get', '--json', '--jsonl']]) {
        const outcome = await call(...args);
        assert.equal(outcome.code, 2, `${args.join(' ')}: ${outcome.stderr}`);
      }
    });

    it('deletes (no body: a note on stderr)', async () => {
      const deleted = await call('videos.delete', '--video_id', ids[2]);
      assert.equal(deleted.code, 0, deleted.stderr);
      assert.equal(deleted.stdout, '');
      assert.equal(deleted.stderr, 'done (HTTP 204)\n');
    });
  });
}
