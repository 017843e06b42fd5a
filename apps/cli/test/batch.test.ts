import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { ResultRecord } from '../src/batch/results-file';
import { run, spawnReelbase, startTarget, videoNames, type Target } from './batch-harness';
import { stdoutJson } from './cli-harness';

const probe = fileURLToPath(new URL('./fixtures/react-probe.mjs', import.meta.url));

const total = 1000;
/** Every 50th line asks for a privacy the API does not know: 20 lines fail, 980 create a video. */
const failing = (n: number) => n % 50 === 0;

function writeLines(target: Target, file: string, lines: readonly unknown[]): void {
  writeFileSync(join(target.dir, file), lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
}

const videoLines = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const body = failing(n) ? { name: `Bad ${n}`, privacy: { view: 'everyone' } } : { name: `Clip ${n}` };
    return { method: 'POST', path: '/me/videos?fields=uri,name', body, id: `v${n}` };
  });

const readResults = (target: Target, file: string): ResultRecord[] =>
  readFileSync(join(target.dir, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRecord);

for (const name of ['http', 'in-process'] as const) {
  describe(`batch: killed mid-way, resumed (${name})`, () => {
    let target: Target;
    before(async () => (target = await startTarget(name)));
    after(() => target.stop());

    it('a 1,000-line batch with failing lines, stopped by SIGTERM, resumes to exactly-once completion', async () => {
      writeLines(target, 'videos.jsonl', videoLines(total));
      let signalled = false;
      const killed = await spawnReelbase(['batch', 'videos.jsonl', ...target.flags], target.dir, {
        preload: [probe],
        onStderr(text, kill) {
          const finished = [...text.matchAll(/batch: (\d+)\/1000/g)].pop();
          if (!signalled && finished && Number(finished[1]) >= 200) {
            signalled = true;
            kill('SIGTERM');
          }
        },
      });
      assert.equal(killed.code, 143, killed.stderr);
      assert.match(killed.stderr, /SIGTERM: finishing the requests in flight and recording them/);
      assert.match(killed.stderr, /batch: stopped with \d+ lines not run; run it again with --resume to finish/);
      // Plain progress lines, no terminal: React was never loaded.
      assert.match(killed.stderr, /react-probe: 0 React modules loaded/);

      const first = readResults(target, 'videos.results.jsonl');
      assert.ok(first.length >= 200 && first.length < total, `${first.length} results`);
      assert.equal(new Set(first.map((r) => r.line)).size, first.length);
      // Every request that took effect was recorded before the process ended.
      const doneFirst = first.filter((r) => r.ok);
      assert.deepEqual((await videoNames(target)).sort(), doneFirst.map((r) => `Clip ${r.line}`).sort());

      const resumed = await run(target, ['batch', 'videos.jsonl', '--resume']);
      assert.equal(resumed.code, 1, resumed.stderr);
      assert.match(resumed.stderr, new RegExp(`batch: ${980 - doneFirst.length} done, 20 failed, ${doneFirst.length} skipped \\(done before\\) of 1000 lines`));
      assert.match(resumed.stderr, /^line 50 \(v50\): POST \/me\/videos\?fields=uri,name: error 2204 \(HTTP 400\): .*privacy\.view/m);
      assert.match(resumed.stderr, /…and 10 more failed lines \(see the results file\)/);

      // Exactly once: 980 videos, one per good line, none twice.
      const names = await videoNames(target);
      assert.equal(names.length, 980);
      const expected = Array.from({ length: total }, (_, i) => i + 1).filter((n) => !failing(n)).map((n) => `Clip ${n}`);
      assert.deepEqual(names.sort(), expected.sort());

      // The results file: one record per line, failed lines with the API's Error.
      const results = readResults(target, 'videos.results.jsonl');
      assert.deepEqual(results.map((r) => r.line).sort((a, b) => a - b), Array.from({ length: total }, (_, i) => i + 1));
      const line7 = results.find((r) => r.line === 7)!;
      assert.deepEqual({ ...line7, body: { name: (line7.body as { name: string }).name } }, {
        line: 7,
        id: 'v7',
        method: 'POST',
        path: '/me/videos?fields=uri,name',
        status: 201,
        ok: true,
        attempts: 1,
        body: { name: 'Clip 7' },
      });
      assert.match((line7.body as { uri: string }).uri, /^\/videos\/\d+$/);
      const line100 = results.find((r) => r.line === 100)!;
      assert.equal(line100.status, 400);
      assert.equal(line100.ok, false);
      assert.equal((line100.error as { error_code: number }).error_code, 2204);
      assert.equal(results.filter((r) => !r.ok).length, 20);
    });
  });
}

describe('batch', () => {
  let target: Target;
  before(async () => (target = await startTarget('in-process')));
  after(() => target.stop());

  it('--dry-run prints each request with the operation it reaches and sends nothing', async () => {
    writeLines(target, 'plan.jsonl', [
      { method: 'get', path: '/me/videos?per_page=5' },
      '',
      { method: 'PATCH', path: '/videos/7', body: { name: 'Renamed' }, id: 'rename' },
      { method: 'POST', path: '/me/vidoes', body: { name: 'Typo' } },
    ]);
    const human = await run(target, ['batch', 'plan.jsonl', '--dry-run']);
    assert.equal(human.code, 0, human.stderr);
    assert.equal(
      human.stdout,
      [
        'LINE  METHOD  PATH                   OPERATION          BODY',
        '1     GET     /me/videos?per_page=5  users.videos.list',
        '3     PATCH   /videos/7              videos.update      {"name":"Renamed"}',
        '4     POST    /me/vidoes             -                  {"name":"Typo"}',
        '',
      ].join('\n'),
    );
    assert.equal(
      human.stderr,
      'warning: line 4: POST /me/vidoes matches no operation of this API\ndry run: 3 requests would be sent; nothing was sent\n',
    );
    const machine = await run(target, ['batch', 'plan.jsonl', '--dry-run', '--json']);
    assert.deepEqual(stdoutJson(machine), [
      { line: 1, id: null, method: 'GET', path: '/me/videos?per_page=5', operation: 'users.videos.list', body: null },
      { line: 3, id: 'rename', method: 'PATCH', path: '/videos/7', operation: 'videos.update', body: { name: 'Renamed' } },
      { line: 4, id: null, method: 'POST', path: '/me/vidoes', operation: null, body: { name: 'Typo' } },
    ]);
    assert.equal(existsSync(join(target.dir, 'plan.results.jsonl')), false);
    assert.deepEqual(await videoNames(target), []);
  });

  it('refuses a file with bad lines, naming each, before sending anything (exit 2)', async () => {
    writeLines(target, 'bad.jsonl', [
      { method: 'POST', path: '/me/videos', body: { name: 'Fine' } },
      '{"method":"POST",',
      { method: 'FETCH', path: '/me' },
      { method: 'POST', path: '/me/videos', bdy: {} },
      { method: 'GET', path: 'me/videos' },
      { method: 'GET', path: '/me', body: { a: 1 } },
      { method: 'GET', path: '/me', id: { n: 1 } },
    ]);
    const outcome = await run(target, ['batch', 'bad.jsonl']);
    assert.equal(outcome.code, 2);
    const lines = outcome.stderr.split('\n');
    assert.match(lines[0], /^bad\.jsonl:2: not valid JSON \(/);
    assert.deepEqual(lines.slice(1), [
      'bad.jsonl:3: method must be one of GET, POST, PUT, PATCH, DELETE',
      'bad.jsonl:4: unknown key "bdy" (expected method, path, body, id)',
      'bad.jsonl:5: path must be a path starting with "/" and without spaces, e.g. /me/videos (the server comes from --base-url)',
      'bad.jsonl:6: a GET takes no body; put its parameters in the query string',
      'bad.jsonl:7: id must be a string or a number',
      'error: bad.jsonl has 6 invalid lines; nothing was sent',
      '(add --help for usage)',
      '',
    ]);
    assert.deepEqual(await videoNames(target), []);
    assert.equal(existsSync(join(target.dir, 'bad.results.jsonl')), false);

    const missing = await run(target, ['batch', 'nowhere.jsonl']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^error: cannot read nowhere\.jsonl: ENOENT$/m);
    const flags = await run(target, ['batch', 'bad.jsonl', '--concurrency', '0']);
    assert.equal(flags.code, 2);
    assert.match(flags.stderr, /^error: --concurrency expects a whole number from 1 to 64 \(got "0"\)$/m);
  });

  it('will not run over an existing results file without --resume, nor resume from another batch', async () => {
    writeLines(target, 'one.jsonl', [{ method: 'POST', path: '/me/videos', body: { name: 'Once' } }]);
    const first = await run(target, ['batch', 'one.jsonl', '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(stdoutJson(first), { total: 1, done: 1, failed: 0, skipped: 0, left: 0, requests: 1, results: join(target.dir, 'one.results.jsonl') });
    const again = await run(target, ['batch', 'one.jsonl']);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /one\.results\.jsonl already exists: add --resume to skip the lines it records as done/);
    const resumed = await run(target, ['batch', 'one.jsonl', '--resume', '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(stdoutJson(resumed), { total: 1, done: 0, failed: 0, skipped: 1, left: 0, requests: 0, results: join(target.dir, 'one.results.jsonl') });

    writeLines(target, 'other.jsonl', [{ method: 'DELETE', path: '/videos/1' }]);
    const mismatch = await run(target, ['batch', 'other.jsonl', '--resume', '--results', 'one.results.jsonl']);
    assert.equal(mismatch.code, 2);
    assert.match(mismatch.stderr, /one\.results\.jsonl does not belong to this batch: it records POST \/me\/videos for line 1, where the batch has DELETE \/videos\/1/);
    assert.deepEqual(await videoNames(target), ['Once']);
  });

  it('--fail-fast stops after the first failure; without it a failure never stops the batch', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => ({ method: 'POST', path: '/me/videos', body: i === 2 ? { name: 'Slow', privacy: { view: 'everyone' } } : { name: `Fast ${i + 1}` } }));
    writeLines(target, 'fast.jsonl', lines);
    const fast = await run(target, ['batch', 'fast.jsonl', '--fail-fast', '--concurrency', '1']);
    assert.equal(fast.code, 1);
    assert.match(fast.stderr, /^line 3: POST \/me\/videos: error 2204 \(HTTP 400\)/m);
    assert.match(fast.stderr, /batch: 2 done, 1 failed, 0 skipped \(done before\) of 30 lines/);
    assert.match(fast.stderr, /batch: stopped with 27 lines not run; run it again with --resume to finish/);
    assert.equal(readResults(target, 'fast.results.jsonl').length, 3);

    const all = await run(target, ['batch', 'fast.jsonl', '--resume']);
    assert.equal(all.code, 1);
    assert.match(all.stderr, /batch: 27 done, 1 failed, 2 skipped \(done before\) of 30 lines/);
  });

  it('draws an Ink progress bar on a terminal, and plain JSON with --json whatever the terminal', async () => {
    let drawn = '';
    const terminal = Object.assign(new EventEmitter(), {
      isTTY: true,
      columns: 100,
      rows: 30,
      write: (chunk: string) => ((drawn += chunk), true),
    }) as unknown as NodeJS.WriteStream;
    writeLines(target, 'tty.jsonl', Array.from({ length: 5 }, (_, i) => ({ method: 'POST', path: '/me/videos', body: { name: `Tty ${i + 1}` } })));
    const shown = await run(target, ['batch', 'tty.jsonl'], { terminal });
    assert.equal(shown.code, 0, shown.stderr);
    const screen = stripVTControlCharacters(drawn);
    assert.match(screen, /█{30} 100% batch/);
    assert.match(screen, /5\/5 \(100%\) · 5 done · 0 failed/);
    assert.doesNotMatch(shown.stderr, /batch: \d+\/5/); // no plain progress lines besides the bar
    assert.match(shown.stderr, /^batch: 5 done, 0 failed, 0 skipped \(done before\) of 5 lines/m);

    drawn = '';
    const machine = await run(target, ['batch', 'tty.jsonl', '--json', '--results', 'tty2.jsonl'], { terminal });
    assert.equal(machine.code, 0, machine.stderr);
    assert.equal(drawn, '');
    assert.equal(stdoutJson(machine).done, 5);
  });
});

describe('the React probe', () => {
  it('sees React when Ink is imported (so its zero above means something)', () => {
    const r = spawnSync(process.execPath, ['--import', probe, '--input-type=module', '-e', "await import('ink')"], { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /react-probe: [1-9]\d* React modules loaded/);
  });
});
