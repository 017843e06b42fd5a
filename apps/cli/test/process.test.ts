import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { cliCommand } from '@reelbase/api-tests/bundled-commands';
import { hangGuardMs } from '@reelbase/api-tests/hang-guard';
import { useTempDir } from './cli-harness';

// The process entry, bundled from source (the bin runs the same `main` from dist/): argv, stdout/stderr
// and the exit code of a real process, run outside the repository to prove nothing leans on cwd.
const reelbase = (args: string[], cwd: string) => {
  const r = spawnSync(process.execPath, [...cliCommand, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: hangGuardMs,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the reelbase process', () => {
  const temp = useTempDir();

  it('exits 0 with JSON on stdout, 1 with the API error on stderr, 2 on a usage error', () => {
    const created = reelbase(['users', 'create', '--name', 'Proc', '--json'], temp.dir);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).name, 'Proc');

    const missing = reelbase(['api', 'GET', '/videos/5'], temp.dir);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, '');
    assert.equal(JSON.parse(missing.stderr).error_code, 5000);

    const usage = reelbase(['tokens', 'create', '--user', '1', '--scopes', 'root'], temp.dir);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /unknown scope/);
  });
});
