import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { killed, patchInFlight, startServerProcess } from '../src/server-process';

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
      // The server has taken the request, its body not yet sent: the signal lands while it is in flight.
      const inFlight = await patchInFlight(first, `written while shutting down (${signal})`);
      const noticed = once(first.child, new RegExp(`${signal} received`));
      first.child.kill(signal);
      await noticed;
      // The server no longer takes connections...
      await assert.rejects(fetch(`${first.base}/`), 'a new connection was accepted after the signal');
      // ...but the request it had taken still completes.
      const r = await inFlight.send();
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
