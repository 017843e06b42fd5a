import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { killed, startServerProcess } from '../src/server-process';

/**
 * Graceful shutdown (issue 2): on SIGTERM or SIGINT the server stops taking connections, lets a
 * request already in flight finish and answer, closes the store, and exits 0; the write that
 * request made is in the store when it is opened again.
 */
const once = (child: ChildProcess, pattern: RegExp): Promise<void> =>
  new Promise((resolve) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on('line', (line) => {
      if (pattern.test(line)) {
        lines.close();
        resolve();
      }
    });
  });

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

// Each driver with one of the two signals: they take the same path, and a server process is slow to start.
for (const [kind, signal] of [['sqlite', 'SIGTERM'], ['json', 'SIGINT']] as const) {
  describe(`${signal} with a request in flight (${kind})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelbase-shutdown-'));
    const path = join(dir, kind === 'sqlite' ? 'reelbase.db' : 'reelbase.json');
    const children: ChildProcess[] = [];
    after(async () => {
      for (const c of children) await killed(c);
      rmSync(dir, { recursive: true, force: true });
    });

    it('finishes the request, closes the store, exits 0, and the write is there on the next start', async () => {
      const first = await startServerProcess(kind, path);
      children.push(first.child);
      const body = JSON.stringify({ bio: `written while shutting down (${signal})` });
      // Expect: 100-continue holds the body back until the server has taken the request: the
      // signal then lands while the request is in flight, its body not yet sent.
      const req = request(`${first.base}/me`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
      });
      const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
      });
      await new Promise<void>((resolve) => req.once('continue', () => resolve()));
      const noticed = once(first.child, new RegExp(`${signal} received`));
      first.child.kill(signal);
      await noticed;
      // The server no longer takes connections...
      await assert.rejects(fetch(`${first.base}/`), 'a new connection was accepted after the signal');
      // ...but the request it had taken still completes.
      req.end(body);
      const r = await answered;
      assert.equal(r.status, 200, r.text);
      assert.equal(JSON.parse(r.text).bio, `written while shutting down (${signal})`);
      assert.equal(await exited(first.child), 0);

      const second = await startServerProcess(kind, path, first.token);
      children.push(second.child);
      const me = await fetch(`${second.base}/me`, { headers: { authorization: `Bearer ${first.token}` } });
      assert.equal(me.status, 200);
      assert.equal(((await me.json()) as { bio: string }).bio, `written while shutting down (${signal})`);
      second.child.kill('SIGTERM');
      assert.equal(await exited(second.child), 0);
    });
  });
}
