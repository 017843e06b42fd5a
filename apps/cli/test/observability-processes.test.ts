import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { schema } from '@reelbase/core';
import { createTusVideo, makeClip } from '@reelbase/api-tests';
import { openSqliteStore } from '@reelbase/store-sqlite';
import { tempDir } from './cli-harness';
import { account, caller, servedUrl, startCli, stopCli, type CliProcess } from './worker-processes';

/**
 * Issue 47 on real processes: `reelbase serve --no-worker` logs a JSON line per request after its
 * banner (stdout is not a terminal), `reelbase worker` answers /health, /health/ready and
 * /metrics on its --metrics-port, and the transcode a request queued on the server logs, in the
 * worker, with that request's X-Request-Id.
 */
type Line = Record<string, unknown>;

/** Resolves with the first JSON line of `p`'s stdout, printed so far or later, that `match` accepts. */
function logged(p: CliProcess, match: (line: Line) => boolean): Promise<Line> {
  const parse = (text: string): Line | undefined => {
    if (!text.startsWith('{')) return undefined;
    const line = JSON.parse(text) as Line;
    return match(line) ? line : undefined;
  };
  for (const text of p.lines) {
    const found = parse(text);
    if (found) return Promise.resolve(found);
  }
  return new Promise((resolve) => {
    const lines = createInterface({ input: p.child.stdout! });
    lines.on('line', (text) => {
      const found = parse(text);
      if (found) {
        lines.close();
        resolve(found);
      }
    });
  });
}

const metricsUrl = (p: CliProcess): string => /^Metrics: (http:\/\/\S+)\/metrics /.exec(p.lines.find((l) => l.startsWith('Metrics: ')) ?? '')![1];

describe('serve and worker processes log and serve metrics', () => {
  const { dir, cleanup } = tempDir();
  const processes: CliProcess[] = [];
  let token: string;
  let server: CliProcess;
  let worker: CliProcess;
  before(async () => {
    const store = await openSqliteStore({ schema, path: join(dir, 'reelbase.db') });
    token = await account(store, '2030-01-01T00:00:00Z');
    await store.close();
    const env = { REELBASE_STORE: `sqlite:${join(dir, 'reelbase.db')}`, REELBASE_FILES: join(dir, 'files'), REELBASE_RATE_LIMIT: 'off' };
    server = await startCli(['serve', '--port', '0', '--no-worker', '--metrics-port', '0'], env, /^Stop with Ctrl-C\.$/, dir);
    processes.push(server);
    worker = await startCli(['worker', '--metrics-port', '0'], env, /^Metrics: /, dir);
    processes.push(worker);
  });
  after(async () => {
    for (const p of processes) await stopCli(p);
    cleanup();
  });

  it('answers health and metrics on the worker’s port, and logs the request’s id on its transcode', async () => {
    const base = metricsUrl(worker);
    assert.deepEqual(await (await fetch(`${base}/health`)).json(), { status: 'ok' });
    const ready = await fetch(`${base}/health/ready`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { status: string }).status, 'ready');

    const api = caller(servedUrl(server), token);
    const clip = await makeClip({ seconds: 1, audio: false });
    const { id, link } = await createTusVideo(api, token, clip.length);
    const patch = await fetch(link, {
      method: 'PATCH',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'X-Request-Id': 'fleet-upload-1' },
      body: clip,
    });
    assert.equal(patch.status, 204);
    const request = await logged(server, (l) => l.req_id === 'fleet-upload-1');
    assert.deepEqual([request.msg, request.operation, request.route, request.status], ['request', 'uploads.tus', '/uploads/tus/{upload}', 204]);
    const finished = await logged(worker, (l) => l.msg === 'job finished' && l.video === id);
    assert.deepEqual([finished.kind, finished.outcome, finished.req_id], ['transcode', 'done', 'fleet-upload-1']);

    const served = await (await fetch(`${metricsUrl(server)}/metrics`)).text();
    assert.match(served, /^reelbase_http_requests_total\{operation="users.videos.create",method="POST",status="200"\} 1$/m);
    assert.match(served, /^reelbase_upload_bytes_total\{approach="tus"\} (\d+)$/m);
    const worked = await (await fetch(`${base}/metrics`)).text();
    assert.match(worked, /^reelbase_job_runs_total\{kind="transcode",outcome="done"\} 1$/m);
    assert.match(worked, /^reelbase_jobs\{kind="transcode",state="queued"\} 0$/m);
  });
});
