import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'node:http';
import { cli, printedToken, startServe, stdoutJson, useTempDir } from './cli-harness';

/** A GET to the server on 127.0.0.1:`port` naming `host` in its Host header (fetch sends the URL's). */
function hostGet(port: number, path: string, host: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

for (const driver of ['sqlite', 'json'] as const) {
  describe(`serve on ${driver}`, () => {
    const temp = useTempDir();

    it('creates admin on an empty store, prints a working token, and api reaches it over HTTP', async () => {
      const store = driver === 'sqlite' ? 'sqlite:./data/r.db' : 'json:./data/r.json';
      const running = await startServe(['--port', '0', '--host', '127.0.0.1', '--store', store], temp.dir);
      try {
        const output = running.output();
        assert.match(output, new RegExp(`^reelbase serving ${running.server.url} \\(store ${driver}:${join(temp.dir, 'data')}/r\\.`));
        assert.match(output, /created user "admin" \(\/users\/1\)/);
        const token = printedToken(output);
        assert.ok(output.includes(`curl -H "Authorization: Bearer ${token}" ${running.server.url}/me`));

        const me = await cli(['api', 'GET', '/me', '--base-url', running.server.url, '--token', token]);
        assert.equal(me.code, 0, me.stderr);
        const admin = stdoutJson(me);
        assert.equal(admin.name, 'admin');
        assert.equal(admin.uri, '/users/1');
        assert.equal(admin.link, `${running.server.url}/users/1`, 'links use the origin the request came to');

        const created = await cli(['api', 'POST', '/me/videos', '--json-body', '{"name":"Over HTTP","privacy":{"view":"unlisted"}}'], {
          env: { REELBASE_URL: running.server.url, REELBASE_TOKEN: token },
        });
        assert.equal(created.code, 0, created.stderr);
        assert.equal(stdoutJson(created).privacy.view, 'unlisted');

        const missing = await cli(['api', 'GET', '/videos/999', '--base-url', `${running.server.url}/`]);
        assert.equal(missing.code, 1);
        assert.equal(JSON.parse(missing.stderr).error_code, 5000);

        const wrongMethod = await cli(['api', 'PUT', '/me', '--base-url', running.server.url, '--token', token]);
        assert.equal(wrongMethod.code, 1);
        assert.equal(JSON.parse(wrongMethod.stderr).error_code, 2204);
      } finally {
        const stopped = await running.stop();
        assert.equal(stopped.code, 0, stopped.stderr);
      }
    });

    it('prints no new token on a store that already has users', async () => {
      const store = driver === 'sqlite' ? 'sqlite:./data/r.db' : 'json:./data/r.json';
      const running = await startServe(['--port', '0', '--store', store], temp.dir);
      const output = running.output();
      const stopped = await running.stop();
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.doesNotMatch(output, /Bearer|First run/);
      const users = await cli(['api', 'GET', '/users', '-d', 'fields=name', '--store', store], { cwd: temp.dir });
      assert.deepEqual(stdoutJson(users).data, [{ name: 'admin' }]);
    });
  });
}

describe('serve options', () => {
  const temp = useTempDir();

  it('uses the default store under ./data, PORT and HOST from the environment', async () => {
    const abort = new AbortController();
    let url = '';
    let stdout = '';
    const { run } = await import('../src/index');
    const done = run(['serve'], {
      env: { PORT: '0', HOST: '127.0.0.1' },
      cwd: temp.dir,
      signal: abort.signal,
      onListening: (server) => {
        url = server.url;
        abort.abort();
      },
      stdout: (text) => void (stdout += text),
      stderr: () => {},
    });
    assert.equal(await done, 0);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(stdout.includes(`(store sqlite:${join(temp.dir, 'data', 'reelbase.db')})`), stdout);
  });

  it('answers CORS only for the origins given with --cors', async () => {
    const running = await startServe(['--port', '0', '--store', 'json:memory', '--cors', 'https://app.example, http://localhost:3000'], temp.dir);
    try {
      const allowed = await fetch(`${running.server.url}/`, { headers: { origin: 'https://app.example' } });
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example');
      const other = await fetch(`${running.server.url}/`, { headers: { origin: 'https://evil.example' } });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
    } finally {
      await running.stop();
    }
  });

  it('--trust-proxy (behind a load balancer) keys anonymous allowances by the X-Forwarded-For client; without it, by the socket', async () => {
    const remaining = async (url: string, client: string) =>
      (await fetch(`${url}/`, { headers: { 'x-forwarded-for': client } })).headers.get('x-ratelimit-remaining');
    const behind = await startServe(['--port', '0', '--store', 'json:memory', '--trust-proxy'], temp.dir);
    try {
      assert.deepEqual([await remaining(behind.server.url, '203.0.113.7'), await remaining(behind.server.url, '203.0.113.7'), await remaining(behind.server.url, '198.51.100.1')], ['5999', '5998', '5999']);
    } finally {
      await behind.stop();
    }
    const direct = await startServe(['--port', '0', '--store', 'json:memory'], temp.dir);
    try {
      assert.deepEqual([await remaining(direct.server.url, '203.0.113.7'), await remaining(direct.server.url, '198.51.100.1')], ['5999', '5998']);
    } finally {
      await direct.stop();
    }
    const bad = await cli(['serve', '--port', '0', '--store', 'json:memory'], { cwd: temp.dir, env: { REELBASE_TRUST_PROXY: 'maybe' } });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /REELBASE_TRUST_PROXY: "maybe" is not 1 or 0/);
  });

  it('--public-url (or REELBASE_BASE_URL) gives every absolute link its origin, whatever the Host, and prints it at start', async () => {
    for (const [argv, env] of [
      [['--public-url', 'https://videos.example.com/'], {}],
      [[], { REELBASE_BASE_URL: 'https://videos.example.com' }],
    ] as const) {
      const running = await startServe(['--port', '0', '--store', 'json:memory', ...argv], temp.dir, env);
      try {
        const token = printedToken(running.output());
        const me = await hostGet(running.server.port, '/me', 'evil.example', token);
        assert.deepEqual([me.status, JSON.parse(me.body).link], [200, 'https://videos.example.com/users/1']);
        assert.match(running.output(), /^Links: https:\/\/videos\.example\.com$/m);
      } finally {
        await running.stop();
      }
    }
    const bad = await cli(['serve', '--port', '0', '--store', 'json:memory', '--public-url', 'ftp://x.example'], { cwd: temp.dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--public-url: "ftp:\/\/x\.example" must be http or https/);
  });

  it('--allowed-hosts (or REELBASE_ALLOWED_HOSTS) refuses every other Host with 400 in the Error shape; none given, any Host is answered', async () => {
    for (const [argv, env] of [
      [['--allowed-hosts', 'videos.example.com, localhost:8443'], {}],
      [[], { REELBASE_ALLOWED_HOSTS: 'videos.example.com,localhost:8443' }],
    ] as const) {
      const running = await startServe(['--port', '0', '--store', 'json:memory', ...argv], temp.dir, env);
      try {
        const port = running.server.port;
        for (const host of ['videos.example.com', 'VIDEOS.example.com:8080', 'localhost:8443']) assert.equal((await hostGet(port, '/', host)).status, 200, host);
        for (const host of ['evil.example', 'localhost', 'localhost:8080', `127.0.0.1:${port}`, 'videos.example.com.evil.example']) {
          const refused = await hostGet(port, '/', host);
          assert.equal(refused.status, 400, host);
          const body = JSON.parse(refused.body);
          assert.equal(body.error_code, 2204);
          assert.deepEqual(Object.keys(body).sort(), ['developer_message', 'error', 'error_code', 'link']);
        }
        assert.match(running.output(), /^Answering Host: videos\.example\.com, localhost:8443$/m);
      } finally {
        await running.stop();
      }
    }
    const open = await startServe(['--port', '0', '--store', 'json:memory'], temp.dir);
    try {
      const me = await hostGet(open.server.port, '/users/1', 'anything.example');
      assert.deepEqual([me.status, JSON.parse(me.body).link], [200, 'http://anything.example/users/1'], 'no allowlist unless one is given');
    } finally {
      await open.stop();
    }
  });

  it('warns at start when bound beyond loopback with no public URL', async () => {
    const wide = await startServe(['--port', '0', '--host', '0.0.0.0', '--store', 'json:memory'], temp.dir);
    const stopped = await wide.stop();
    assert.match(stopped.stderr, /warning: bound to 0\.0\.0\.0 with no --public-url: absolute links take each request's Host header/);
    const named = await startServe(['--port', '0', '--host', '0.0.0.0', '--store', 'json:memory', '--public-url', 'https://videos.example.com'], temp.dir);
    const quiet = await named.stop();
    assert.doesNotMatch(quiet.stderr, /warning/);
    const local = await startServe(['--port', '0', '--store', 'json:memory'], temp.dir);
    assert.doesNotMatch((await local.stop()).stderr, /warning/);
  });

  it('reports a port already in use as a runtime error (exit 1)', async () => {
    const first = await startServe(['--port', '0', '--store', 'sqlite::memory:'], temp.dir);
    try {
      const second = await cli(['serve', '--port', String(first.server.port), '--host', '127.0.0.1', '--store', 'sqlite::memory:'], { cwd: temp.dir });
      assert.equal(second.code, 1);
      assert.match(second.stderr, /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
    } finally {
      await first.stop();
    }
  });
});
