import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operations } from '@reelbase/core';
import { resources } from '../src/commands/resources';
import { cli, stdoutJson, tempDir, type Outcome } from './cli-harness';
import { transports } from './targets';

const idOf = (uri: string): string => uri.split('/').pop()!;
const ok = (outcome: Outcome): Outcome => {
  assert.equal(outcome.code, 0, `exit ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`);
  return outcome;
};

describe('the resource table', () => {
  it('names operations the table has, and every verb becomes a subcommand', async () => {
    for (const resource of resources) {
      for (const id of Object.values(resource.operations)) assert.ok(operations.some((op) => op.id === id), `${resource.name}: ${id}`);
      const help = ok(await cli([resource.name, '--help']));
      for (const verb of Object.keys(resource.operations)) assert.match(help.stdout, new RegExp(`\\n  ${verb} \\[options\\]`), `${resource.name} ${verb}`);
    }
  });

  it('documents each operation parameter as a flag, required ones marked, and the operation called', async () => {
    const help = ok(await cli(['ondemand', 'create', '--help']));
    assert.match(help.stdout, /--name <string> +required\n/);
    assert.match(help.stdout, /--type <value> +required \(choices: "film", "series"\)/);
    assert.match(help.stdout, /--buy\.price\.USD <number>/);
    assert.match(help.stdout, /Calls ondemand\.pages\.create: POST \/me\/ondemand\/pages \| \/users\/\{user_id\}\/ondemand\/pages \(scope create\)\./);
    const list = ok(await cli(['videos', 'list', '--help']));
    assert.match(list.stdout, /--per_page <integer>/);
    assert.doesNotMatch(list.stdout, /--per-page/, 'the dashed alias is accepted but not listed');
    assert.match(list.stdout, /--all +walk every page/);
    assert.doesNotMatch(ok(await cli(['videos', 'get', '--help'])).stdout, /--all/);
  });
});

for (const transport of transports) {
  describe(`resource commands (${transport.name})`, () => {
    let cleanup: () => void;
    let flags: string[];
    let stop: () => Promise<void>;
    const run = (...args: string[]) => cli([...args, ...flags]);
    const videos: string[] = [];

    before(async () => {
      let dir: string;
      ({ dir, cleanup } = tempDir());
      const target = await transport.setup(dir);
      flags = [...target.flags, '--token', target.token];
      stop = target.stop;
    });
    after(async () => {
      await stop();
      cleanup();
    });

    it('videos create takes the operation parameters as flags, nested ones in dot notation', async () => {
      for (const [name, view] of [['Bravo', 'nobody'], ['Alpha', 'anybody'], ['Charlie', 'unlisted']]) {
        const video = stdoutJson(ok(await run('videos', 'create', '--name', name, '--privacy.view', view, '--content_rating', 'safe,violence', '--json')));
        assert.equal(video.name, name);
        assert.equal(video.privacy.view, view);
        assert.deepEqual(video.content_rating, ['safe', 'violence']);
        videos.push(idOf(video.uri));
      }
    });

    it('videos list prints a table with the usual columns and the page on stderr', async () => {
      const page = ok(await run('videos', 'list', '--sort', 'alphabetical', '--direction', 'asc', '--per-page', '2'));
      const lines = page.stdout.trimEnd().split('\n');
      assert.match(lines[0], /^URI +NAME +PRIVACY\.VIEW +STATUS +CREATED_TIME$/);
      assert.deepEqual(lines.slice(1).map((l) => l.split(/ +/)[1]), ['Alpha', 'Bravo']);
      assert.equal(page.stderr, 'page 1 of 2, 3 in all\n');
    });

    it('videos list --all walks every page: a table, --json, --jsonl with --fields', async () => {
      const table = ok(await run('videos', 'list', '--all', '--per_page', '1', '--fields', 'name'));
      assert.deepEqual(table.stdout.trimEnd().split('\n').sort(), ['Alpha', 'Bravo', 'Charlie', 'NAME']);
      assert.equal(table.stderr, '3 in all\n');
      assert.equal(stdoutJson(ok(await run('videos', 'list', '--all', '--json'))).length, 3);
      const lines = ok(await run('videos', 'list', '--all', '--per_page', '2', '--jsonl', '--fields', 'uri,name')).stdout.trimEnd().split('\n');
      assert.deepEqual(lines.map((l) => Object.keys(JSON.parse(l)).sort()), [['name', 'uri'], ['name', 'uri'], ['name', 'uri']]);
      assert.deepEqual(lines.map((l) => idOf(JSON.parse(l).uri)).sort(), [...videos].sort());
    });

    it('videos get prints `key  value` lines, trimmed by --fields; an id may be given as a uri', async () => {
      const shown = ok(await run('videos', 'get', videos[0], '--fields', 'name,privacy.view'));
      assert.equal(shown.stdout, 'name          Bravo\nprivacy.view  nobody\n');
      assert.deepEqual(stdoutJson(ok(await run('videos', 'get', `/videos/${videos[0]}`, '--fields', 'uri', '--json'))), { uri: `/videos/${videos[0]}` });
    });

    it('videos update edits, and --api-version 3.1 (204) prints a note on stderr', async () => {
      const updated = stdoutJson(ok(await run('videos', 'update', videos[0], '--name', 'Bravo 2', '--privacy.download', 'false', '--json')));
      assert.equal(updated.name, 'Bravo 2');
      assert.equal(updated.privacy.download, false);
      const old = ok(await run('videos', 'update', videos[0], '--description', 'quiet', '--api-version', '3.1'));
      assert.deepEqual([old.stdout, old.stderr], ['', `Updated video ${videos[0]}.\n`]);
    });

    it('exits 1 with the API error_code on stderr', async () => {
      const missing = await run('videos', 'get', '999999');
      assert.deepEqual([missing.code, missing.stdout], [1, '']);
      assert.match(missing.stderr, /^error 5000 \(HTTP 404\): /);
      const machine = await run('videos', 'get', '999999', '--json');
      assert.equal(machine.code, 1);
      assert.equal(JSON.parse(machine.stderr).error_code, 5000);
      const invalid = await run('videos', 'update', videos[0], '--locale', 'xx-nowhere');
      assert.equal(invalid.code, 1);
      assert.match(invalid.stderr, /^error 2204 \(HTTP 400\): .*locale/);
      const required = await run('channels', 'create', '--name', 'No privacy');
      assert.equal(required.code, 1);
      assert.match(required.stderr, /^error 2204 .*privacy/);
    });

    it('exits 2 for usage errors: unknown flag, bad choice, missing id, stray argument, --json with --jsonl', async () => {
      for (const args of [
        ['videos', 'list', '--nme', 'x'],
        ['videos', 'update', videos[0], '--privacy.view', 'bogus'],
        ['videos', 'update', videos[0], '--privacy.download', 'maybe'],
        ['videos', 'get'],
        ['videos', 'get', videos[0], 'stray'],
        ['videos', 'get', videos[0], '--json', '--jsonl'],
        ['videos', 'frobnicate'],
      ]) {
        const outcome = await run(...args);
        assert.equal(outcome.code, 2, `${args.join(' ')}: ${outcome.stderr}`);
        assert.equal(outcome.stdout, '');
      }
    });

    for (const [name, create] of [
      ['channels', ['--name', 'Staff picks', '--privacy', 'anybody']],
      ['albums', ['--name', 'Holidays', '--description', 'Summer']],
      ['folders', ['--name', 'Drafts']],
    ] as const) {
      it(`${name}: create, list, get, update, add-video, videos, remove-video, delete`, async () => {
        const made = stdoutJson(ok(await run(name, 'create', ...create, '--json')));
        const id = idOf(made.uri);
        const listed = ok(await run(name, 'list', '--fields', 'uri,name'));
        assert.equal(listed.stdout, `URI${' '.repeat(made.uri.length - 1)}NAME\n${made.uri}  ${made.name}\n`);
        assert.match(ok(await run(name, 'get', id)).stdout, new RegExp(`^name +${made.name}$`, 'm'));
        assert.equal(stdoutJson(ok(await run(name, 'update', made.uri, '--name', 'Renamed', '--json'))).name, 'Renamed');

        const added = ok(await run(name, 'add-video', id, videos[1]));
        assert.deepEqual([added.stdout, added.stderr], ['', `Added video ${videos[1]} to ${name.slice(0, -1)} ${id}.\n`]);
        const inside = ok(await run(name, 'videos', id));
        assert.match(inside.stdout, /^URI +NAME +PRIVACY\.VIEW +STATUS +CREATED_TIME\n/);
        assert.match(inside.stdout, new RegExp(`^/videos/${videos[1]} +Alpha +anybody `, 'm'));
        assert.equal(inside.stderr, 'page 1 of 1, 1 in all\n');
        const removed = ok(await run(name, 'remove-video', id, `/videos/${videos[1]}`));
        assert.equal(removed.stderr, `Removed video ${videos[1]} from ${name.slice(0, -1)} ${id}.\n`);
        assert.equal(ok(await run(name, 'videos', id, '--all', '--json')).stdout, '[]\n');

        const deleted = ok(await run(name, 'delete', id));
        assert.deepEqual([deleted.stdout, deleted.stderr], ['', `Deleted ${name.slice(0, -1)} ${id}.\n`]);
        const gone = await run(name, 'get', id);
        assert.equal(gone.code, 1);
        assert.match(gone.stderr, /^error 5000 \(HTTP 404\)/);
      });
    }

    it('ondemand: create, list, get, update, delete', async () => {
      const page = stdoutJson(
        ok(await run('ondemand', 'create', '--name', 'The Film', '--description', 'A film', '--type', 'film', '--content_rating', 'safe', '--buy.active', 'true', '--buy.price.USD', '9.99', '--json')),
      );
      assert.equal(page.name, 'The Film');
      assert.equal(page.type, 'film');
      const id = idOf(page.uri);
      const listed = ok(await run('ondemand', 'list'));
      assert.match(listed.stdout, /^URI +NAME +TYPE +CREATED_TIME\n/);
      assert.match(listed.stdout, new RegExp(`^/ondemand/pages/${id} +The Film +film `, 'm'));
      assert.equal(stdoutJson(ok(await run('ondemand', 'get', id, '--fields', 'name', '--json'))).name, 'The Film');
      assert.equal(stdoutJson(ok(await run('ondemand', 'update', id, '--link', 'the-film', '--json'))).link.endsWith('/ondemand/pages/the-film'), true);
      assert.equal(ok(await run('ondemand', 'delete', id)).stderr, `Deleted On Demand page ${id}.\n`);
      assert.equal((await run('ondemand', 'get', id)).code, 1);
    });

    it('--user lists another user\'s videos; videos delete removes one', async () => {
      const me = stdoutJson(ok(await cli(['api', 'GET', '/me', '-d', 'fields=uri', ...flags])));
      const theirs = ok(await run('videos', 'list', '--user', me.uri, '--fields', 'name', '--all'));
      assert.equal(theirs.stderr, '3 in all\n');
      const deleted = ok(await run('videos', 'delete', videos[2]));
      assert.equal(deleted.stderr, `Deleted video ${videos[2]}.\n`);
      assert.equal((await run('videos', 'get', videos[2])).code, 1);
    });
  });
}
