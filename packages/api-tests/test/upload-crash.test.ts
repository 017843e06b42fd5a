import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeClip } from '../src/index';
import { holdPatch, sizeOf, until } from '../src/held-patch';
import { killed, startServerProcess } from '../src/server-process';

/**
 * Crash safety of uploads: a server process is SIGKILLed in the middle of a tus PATCH and started
 * again on the same store and files. The video is not available, no blob under a final name
 * exists, HEAD answers the offset that really reached the disk, and the upload resumes from there
 * to a finished upload whose file is byte for byte the one sent, which the server's embedded
 * worker then transcodes to an available video.
 */
const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)) : [];

for (const kind of ['sqlite', 'json']) {
  describe(`SIGKILL in the middle of a tus upload (${kind})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelbase-upload-crash-'));
    const path = join(dir, kind === 'sqlite' ? 'reelbase.db' : 'reelbase.json');
    const files = join(dir, 'files');
    const children: ChildProcess[] = [];
    after(async () => {
      for (const c of children) await killed(c);
      rmSync(dir, { recursive: true, force: true });
    });

    it('leaves the video uploading, no complete-looking blob, HEAD at the persisted offset, and resumes to available', async () => {
      const mp4 = await makeClip({ width: 320, height: 240, seconds: 2 });
      const sent = (mp4.length >> 1) + 123;
      const first = await startServerProcess(kind, path);
      children.push(first.child);
      const auth = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' };
      const created = await fetch(`${first.base}/me/videos?fields=uri,upload`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'Cut short', upload: { approach: 'tus', size: mp4.length } }),
      });
      assert.equal(created.status, 200);
      const { uri, upload } = (await created.json()) as { uri: string; upload: { upload_link: string } };
      const uploadId = upload.upload_link.split('/').pop()!;
      const partial = join(files, '.tus', uploadId);

      // The PATCH announces the whole file, sends a part, and the process dies while it waits for the rest.
      const patch = holdPatch(upload.upload_link, mp4, sent);
      await until(async () => (await sizeOf(partial)) >= sent, 'the first part to reach the server’s disk');
      await killed(first.child);
      await patch.closed;
      const persisted = await sizeOf(partial);
      assert.equal(persisted, sent, 'every byte the server received before the kill is on disk');
      assert.deepEqual(filesUnder(join(files, 'videos')), [], 'no blob exists under a final name');

      const second = await startServerProcess(kind, path, first.token);
      children.push(second.child);
      const link = `${second.base}/uploads/tus/${uploadId}`;
      const video = await fetch(`${second.base}${uri}?fields=status,upload.status,transcode.status`, { headers: auth });
      assert.deepEqual(await video.json(), { status: 'uploading', upload: { status: 'in_progress' }, transcode: { status: 'in_progress' } });
      const file = await fetch(`${second.base}${uri}/file`, { headers: auth });
      assert.equal(file.status, 404);
      assert.equal(((await file.json()) as { error_code: number }).error_code, 5006);

      const head = await fetch(link, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
      assert.equal(head.status, 200);
      assert.deepEqual([head.headers.get('upload-offset'), head.headers.get('upload-length')], [String(persisted), String(mp4.length)]);

      const rest = await fetch(link, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(persisted), 'Content-Type': 'application/offset+octet-stream' },
        body: mp4.subarray(persisted),
      });
      assert.equal(rest.status, 204, await rest.text());
      assert.equal(rest.headers.get('upload-offset'), String(mp4.length));
      const read = async () => (await (await fetch(`${second.base}${uri}?fields=status,duration,width,height,upload.status,upload.size`, { headers: auth })).json()) as Record<string, unknown>;
      // The upload is finished and probed; the server's own worker may already be transcoding it.
      const { status, ...done } = await read();
      assert.ok(['transcode_starting', 'transcoding', 'available'].includes(status as string), `status ${status}`);
      assert.deepEqual(done, { duration: 2, width: 320, height: 240, upload: { status: 'complete', size: mp4.length } });
      const videoDir = join(files, 'videos', uri.split('/').pop()!);
      const source = readdirSync(videoDir, { withFileTypes: true }).filter((e) => e.isFile());
      assert.equal(source.length, 1, 'one source file');
      assert.ok(readFileSync(join(videoDir, source[0].name)).equals(mp4), 'the file stored is the one sent, across the crash');
      assert.deepEqual(filesUnder(join(files, '.tus')), [], 'the finished upload left nothing in progress');
      // Another process transcodes: follow it through the API until it is done (no fixed sleep).
      await until(async () => (await read()).status === 'available', 'the server’s worker to transcode the upload');
      const bytes = Buffer.from(await (await fetch(`${second.base}${uri}/file`, { headers: auth })).arrayBuffer());
      assert.ok(bytes.equals(mp4), 'the file played back is the one sent');
      await killed(second.child);
    });
  });
}
