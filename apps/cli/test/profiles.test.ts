import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configDir } from '../src/profiles';
import { cli, stdoutJson, tempDir, type Outcome } from './cli-harness';
import { transports } from './targets';

const mode = (path: string): number => statSync(path).mode & 0o777;
const ok = (outcome: Outcome): Outcome => {
  assert.equal(outcome.code, 0, `exit ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`);
  return outcome;
};

describe('the config directory', () => {
  it('is $REELBASE_CONFIG_DIR, else $XDG_CONFIG_HOME/reelbase, else ~/.config/reelbase, else none', () => {
    assert.equal(configDir({ REELBASE_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x', HOME: '/h' }), '/c');
    assert.equal(configDir({ XDG_CONFIG_HOME: '/x', HOME: '/h' }), '/x/reelbase');
    assert.equal(configDir({ XDG_CONFIG_HOME: '', HOME: '/h' }), '/h/.config/reelbase');
    assert.equal(configDir({}), undefined);
  });
});

for (const transport of transports) {
  describe(`login, profiles, logout (${transport.name})`, () => {
    let dir: string;
    let cleanup: () => void;
    let target: { flags: string[]; token: string; stop(): Promise<void> };
    let env: Record<string, string>;
    let file: string;
    const run = (argv: string[], extra: Record<string, string> = {}) => cli(argv, { env: { ...env, ...extra }, cwd: dir });

    before(async () => {
      ({ dir, cleanup } = tempDir());
      target = await transport.setup(dir);
      env = { HOME: join(dir, 'home') };
      file = join(dir, 'home', '.config', 'reelbase', 'profiles.json');
    });
    after(async () => {
      await target.stop();
      cleanup();
    });

    it('login checks the token and saves the profile, mode 0600 in a 0700 directory', async () => {
      const outcome = ok(await run(['login', ...target.flags, '--token', target.token, '--profile', 'work']));
      assert.match(outcome.stdout, /^Logged in to \S+ as "(Alice|admin)" \(\/users\/1\)\.\nSaved profile "work" \(the default\) in .*profiles\.json\n$/);
      assert.equal(mode(file), 0o600);
      assert.equal(mode(join(dir, 'home', '.config', 'reelbase')), 0o700);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(saved.default, 'work');
      assert.equal(saved.profiles.work.token, target.token);
      assert.equal(saved.profiles.work.user.uri, '/users/1');
      assert.equal(saved.profiles.work[transport.name === 'http' ? 'base_url' : 'store'], target.flags[1]);
    });

    it('every client command then uses the default profile without flags', async () => {
      assert.deepEqual(stdoutJson(ok(await run(['api', 'GET', '/me', '-d', 'fields=uri']))), { uri: '/users/1' });
      assert.equal(stdoutJson(ok(await run(['call', 'users.get', '--fields', 'uri', '--json']))).uri, '/users/1');
      const made = stdoutJson(ok(await run(['videos', 'create', '--name', 'Via profile', '--json'])));
      assert.match(ok(await run(['videos', 'list', '--fields', 'uri'])).stdout, new RegExp(`^${made.uri}$`, 'm'));
    });

    it('profiles lists them, marks the default and never prints a whole token', async () => {
      ok(await run(['login', ...target.flags, '--token', target.token, '--profile', 'second']));
      const human = ok(await run(['profiles']));
      const lines = human.stdout.trimEnd().split('\n');
      assert.match(lines[0], /^DEFAULT +NAME +TARGET +USER +TOKEN$/);
      assert.match(lines[1], new RegExp(`^\\* +work +\\S+ +\\S+ \\(/users/1\\) +${target.token.slice(0, 4)}…$`));
      assert.match(lines[2], /^ +second /);
      assert.equal(human.stderr, `(${file})\n`);
      const machine = stdoutJson(ok(await run(['profiles', 'list', '--json'])));
      assert.deepEqual(machine.map((p: { name: string; default: boolean }) => [p.name, p.default]), [['work', true], ['second', false]]);
      assert.equal(machine[0].token, `${target.token.slice(0, 4)}…`);
      for (const outcome of [human, await run(['profiles', '--json'])]) assert.ok(!outcome.stdout.includes(target.token) && !outcome.stderr.includes(target.token));
    });

    it('login with a token the API refuses exits 1 with its error_code and saves nothing', async () => {
      const before = readFileSync(file, 'utf8');
      const outcome = await run(['login', ...target.flags, '--token', 'not-a-token', '--profile', 'bad']);
      assert.equal(outcome.code, 1);
      assert.match(outcome.stderr, /^error 8003 \(HTTP 401\)/);
      assert.equal(readFileSync(file, 'utf8'), before);
    });

    it('login without a token or a target, or with a bad profile name, is a usage error', async () => {
      for (const argv of [
        ['login', ...target.flags],
        ['login', '--token', 'x'],
        ['login', ...target.flags, '--token', 'x', '--profile', 'a b'],
      ]) {
        const outcome = await run(argv);
        assert.equal(outcome.code, 2, `${argv.join(' ')}: ${outcome.stderr}`);
      }
    });

    it('profiles use changes the default; logout removes one and leaves no default', async () => {
      assert.equal(ok(await run(['profiles', 'use', 'second'])).stdout, 'Default profile: "second".\n');
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).default, 'second');
      assert.equal((await run(['profiles', 'use', 'nope'])).code, 2);
      const out = ok(await run(['logout']));
      assert.match(out.stdout, /^Logged out: removed profile "second" \(/);
      assert.equal(out.stderr, 'No default profile now; pick one with `reelbase profiles use work`.\n');
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      assert.deepEqual([saved.default, Object.keys(saved.profiles)], [null, ['work']]);
      assert.equal(mode(file), 0o600);
      assert.equal((await run(['logout'])).code, 1, 'no default profile to log out of');
      assert.equal((await run(['logout', '--profile', 'nope'])).code, 2);
      ok(await run(['logout', '--profile', 'work']));
      assert.equal(ok(await run(['profiles'])).stderr, 'No profiles yet; save one with `reelbase login --base-url URL --token TOKEN`.\n');
    });

    it('rewriting the file makes it 0600 again even if it was loosened', async () => {
      ok(await run(['login', ...target.flags, '--token', target.token]));
      chmodSync(file, 0o644);
      ok(await run(['login', ...target.flags, '--token', target.token, '--profile', 'other']));
      assert.equal(mode(file), 0o600);
    });
  });
}

describe('target selection: flags > --profile > environment > REELBASE_PROFILE > default profile > default store', () => {
  let dir: string;
  let cleanup: () => void;
  const stores: Record<string, { store: string; token: string }> = {};
  let env: Record<string, string>;
  /** The name of the user the target answers for, or the exit code and error (the API's error_code) when it refuses. */
  const whoami = async (argv: string[], extra: Record<string, string> = {}): Promise<string> => {
    const outcome = await cli(['call', 'users.get', '--fields', 'name', '--json', ...argv], { env: { ...env, ...extra }, cwd: dir });
    if (outcome.code === 0) return JSON.parse(outcome.stdout).name;
    return `exit ${outcome.code}: ${outcome.code === 1 ? `error ${JSON.parse(outcome.stderr).error_code}` : outcome.stderr.split('\n')[0]}`;
  };

  before(async () => {
    ({ dir, cleanup } = tempDir());
    env = { REELBASE_CONFIG_DIR: join(dir, 'config') };
    for (const name of ['A', 'B', 'C', 'D']) {
      const store = `sqlite:${join(dir, `${name}.db`)}`;
      ok(await cli(['users', 'create', '--name', name, '--store', store]));
      const token = stdoutJson(ok(await cli(['tokens', 'create', '--user', '1', '--scopes', 'all', '--store', store, '--json']))).access_token;
      stores[name] = { store, token };
    }
    ok(await cli(['login', '--store', stores.A.store, '--token', stores.A.token, '--profile', 'a'], { env }));
    ok(await cli(['login', '--store', stores.B.store, '--token', stores.B.token, '--profile', 'b', '--default'], { env }));
  });
  after(() => cleanup());

  const envC = () => ({ REELBASE_STORE: stores.C.store, REELBASE_TOKEN: stores.C.token });

  it('the default profile when nothing else names a target', async () => {
    assert.equal(await whoami([]), 'B');
  });

  it('REELBASE_PROFILE beats the default profile', async () => {
    assert.equal(await whoami([], { REELBASE_PROFILE: 'a' }), 'A');
  });

  it('REELBASE_STORE/REELBASE_TOKEN beat REELBASE_PROFILE and the default profile', async () => {
    assert.equal(await whoami([], envC()), 'C');
    assert.equal(await whoami([], { ...envC(), REELBASE_PROFILE: 'a' }), 'C');
  });

  it('--profile beats the environment', async () => {
    assert.equal(await whoami(['--profile', 'a'], envC()), 'A');
  });

  it('flags beat --profile and the environment', async () => {
    assert.equal(await whoami(['--store', stores.D.store, '--token', stores.D.token, '--profile', 'a'], envC()), 'D');
  });

  it('a token from a flag or the environment goes to the chosen target; a profile\'s token only to its own', async () => {
    // --token with the default profile's store: the flag's token is sent (and B's store rejects A's token)
    assert.match(await whoami(['--token', stores.A.token]), /^exit 1: error 8003$/);
    assert.match(await whoami([], { REELBASE_TOKEN: stores.A.token }), /^exit 1: error 8003$/);
    // --store elsewhere: the default profile's token stays home, the call is anonymous
    assert.match(await whoami(['--store', stores.D.store]), /^exit 1: error 8003$/);
    const anonymous = await cli(['api', 'GET', '/users/1', '-d', 'fields=name', '--store', stores.D.store], { env, cwd: dir });
    assert.deepEqual(stdoutJson(anonymous), { name: 'D' });
  });

  it('an unknown --profile or REELBASE_PROFILE is a usage error (exit 2)', async () => {
    assert.match(await whoami(['--profile', 'nope']), /^exit 2: error: no profile "nope" \(--profile\)/);
    assert.match(await whoami([], { REELBASE_PROFILE: 'nope' }), /^exit 2: error: no profile "nope" \(REELBASE_PROFILE\)/);
  });

  it('without profiles or environment: in-process on the default store, anonymous', async () => {
    const outcome = await cli(['api', 'GET', '/me'], { env: { REELBASE_CONFIG_DIR: join(dir, 'empty-config') }, cwd: dir });
    assert.equal(outcome.code, 1);
    assert.equal(JSON.parse(outcome.stderr).error_code, 8003);
    assert.ok(existsSync(join(dir, 'data', 'reelbase.db')));
  });

  it('a damaged profiles file is a runtime error (exit 1) naming the file, unless flags name the target', async () => {
    const broken = join(dir, 'broken');
    ok(await cli(['login', '--store', stores.A.store, '--token', stores.A.token], { env: { REELBASE_CONFIG_DIR: broken } }));
    writeFileSync(join(broken, 'profiles.json'), '{ nope');
    const outcome = await cli(['videos', 'list'], { env: { REELBASE_CONFIG_DIR: broken }, cwd: dir });
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /profiles\.json is not valid JSON/);
    writeFileSync(join(broken, 'profiles.json'), JSON.stringify({ default: 'x', profiles: { x: { base_url: 'http://127.0.0.1:9' } } }));
    const damaged = await cli(['profiles'], { env: { REELBASE_CONFIG_DIR: broken }, cwd: dir });
    assert.equal(damaged.code, 1);
    assert.match(damaged.stderr, /profile "x" in .*profiles\.json is damaged/);
    // explicit flags never read the file
    const explicit = await cli(['call', 'users.get', '--user_id', '1', '--fields', 'name', '--json', '--store', stores.A.store], { env: { REELBASE_CONFIG_DIR: broken }, cwd: dir });
    assert.deepEqual(stdoutJson(explicit), { name: 'A' });
  });
});
