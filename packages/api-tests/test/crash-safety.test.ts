import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { killed, startServerProcess as start } from '../src/server-process';

/**
 * Crash safety: a server process is SIGKILLed in the middle of a burst of writes, started again
 * on the same store file, and every write that was acknowledged (2xx received) must be there;
 * the store opens cleanly and the JSON file is always complete, parseable JSON.
 */
for (const kind of ['sqlite', 'json']) {
  describe(`SIGKILL in the middle of a burst of writes (${kind})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelbase-crash-'));
    const path = join(dir, kind === 'sqlite' ? 'reelbase.db' : 'reelbase.json');
    const children: ChildProcess[] = [];
    after(async () => {
      for (const c of children) await killed(c);
      rmSync(dir, { recursive: true, force: true });
    });

    it('every acknowledged write survives, the store reopens cleanly, the JSON file is whole', async (t) => {
      const first = await start(kind, path);
      children.push(first.child);
      const auth = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' };
      const acked: string[] = [];
      let failed = 0;
      const write = async (i: number): Promise<void> => {
        try {
          const r = await fetch(`${first.base}/me/videos`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `burst ${i}`, description: 'x'.repeat(200) }) });
          if (r.status === 201) acked.push(String(((await r.json()) as { uri: string }).uri));
        } catch {
          failed++;
          // The connection died with the process: not acknowledged, so nothing is promised.
        }
      };
      // Waves of 8 concurrent writes; the kill lands while a wave is in flight.
      const burst: Promise<void>[] = [];
      let i = 0;
      const killAfter = 40;
      while (acked.length < killAfter) {
        const wave = Array.from({ length: 8 }, () => write(i++));
        burst.push(...wave);
        await Promise.race([Promise.all(wave), new Promise((r) => setTimeout(r, 5))]);
      }
      const inFlight = Array.from({ length: 16 }, () => write(i++));
      await killed(first.child);
      await Promise.all([...burst, ...inFlight]);
      assert.ok(acked.length >= killAfter, `acknowledged ${acked.length}`);
      // The kill really landed mid-burst: some requests died with the process.
      assert.ok(failed > 0, 'no request was in flight when the process was killed');
      t.diagnostic(`crash (${kind}): ${i} writes sent, ${acked.length} acknowledged, ${failed} cut off by SIGKILL`);

      if (kind === 'json') {
        // The file is complete JSON (writes go to a temp file renamed over it), never truncated.
        assert.doesNotThrow(() => JSON.parse(readFileSync(path, 'utf8')), 'the JSON store file is not valid JSON after SIGKILL');
        assert.ok(readdirSync(dir).every((f) => !f.endsWith('.tmp') || f.startsWith('.')), 'only hidden temp files may be left');
      }

      const second = await start(kind, path, first.token);
      children.push(second.child);
      const seen = new Set<string>();
      for (let page = 1; ; page++) {
        const r = await fetch(`${second.base}/me/videos?per_page=100&page=${page}`, { headers: auth });
        assert.equal(r.status, 200, await r.clone().text());
        const body = (await r.json()) as { data: { uri: string }[]; paging: { next: string | null } };
        for (const v of body.data) seen.add(v.uri);
        if (!body.paging.next) break;
      }
      const lost = acked.filter((uri) => !seen.has(uri));
      assert.deepEqual(lost, [], `${lost.length} acknowledged writes of ${acked.length} were lost`);
      // The store takes new writes after the crash.
      const r = await fetch(`${second.base}/me/videos`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'after the crash' }) });
      assert.equal(r.status, 201);
      await killed(second.child);
    });
  });
}
