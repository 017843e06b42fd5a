import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { drivers, Harness, makeClip, type Fixture } from '../src/index';

/** The little of the official SDK's (untyped, CommonJS) surface this test uses. */
type Callback = (err: unknown, body: Record<string, unknown>, status: number) => void;
interface VimeoClient {
  upload(file: string, params: object, complete: (uri: string) => void, progress: () => void, error: (e: unknown) => void): void;
  replace(file: string, uri: string, params: object, complete: (uri: string) => void, progress: () => void, error: (e: unknown) => void): void;
  request(options: { method: string; path: string }, cb: Callback): void;
}
interface VimeoModule {
  Vimeo: new (clientId: string, clientSecret: string, token: string) => VimeoClient;
  /** lib/vimeo.js, which exports `request_defaults` (the package's index re-exports it as `vimeo_module`). */
  vimeo_module: { request_defaults: { protocol: string; hostname: string; port: number } };
}
const pkg = createRequire(import.meta.url)('@vimeo/vimeo') as VimeoModule;
const sdk = { Vimeo: pkg.Vimeo, request_defaults: pkg.vimeo_module.request_defaults };

describe('the official Vimeo Node SDK (@vimeo/vimeo), unmodified, against this server', () => {
  let h: Harness;
  let alice: Fixture;
  let dir: string;
  const saved = { ...sdk.request_defaults };
  before(async () => {
    h = await Harness.start(drivers[0]);
    alice = await h.user('Alice');
    dir = mkdtempSync(join(tmpdir(), 'reelbase-sdk-'));
    Object.assign(sdk.request_defaults, { protocol: 'http:', hostname: '127.0.0.1', port: h.server.port });
  });
  after(async () => {
    Object.assign(sdk.request_defaults, saved);
    rmSync(dir, { recursive: true, force: true });
    await h.stop();
  });

  it('uploads a video, replaces its file, and reads it back through request()', async () => {
    const client = new sdk.Vimeo('client-id', 'client-secret', alice.token);
    const first = join(dir, 'first.mp4');
    const second = join(dir, 'second.mp4');
    const [v1, v2] = await Promise.all([makeClip({ width: 320, height: 240, seconds: 2 }), makeClip({ width: 426, height: 240, seconds: 1 })]);
    writeFileSync(first, v1);
    writeFileSync(second, v2);
    const uri = await new Promise<string>((resolve, reject) => client.upload(first, { name: 'From the SDK' }, resolve, () => {}, reject));
    assert.match(uri, /^\/videos\/\d+$/);
    const read = () =>
      new Promise<Record<string, unknown>>((resolve, reject) =>
        client.request({ method: 'GET', path: uri }, (err, body) => (err ? reject(err) : resolve(body))),
      );
    const uploaded = await read();
    assert.deepEqual([uploaded.name, uploaded.status, uploaded.duration, uploaded.width, uploaded.height], ['From the SDK', 'transcode_starting', 2, 320, 240]);
    assert.equal((uploaded.upload as { size: number }).size, v1.length);
    assert.equal(await h.settle(), 1);
    assert.equal((await read()).status, 'available');
    const replaced = await new Promise<string>((resolve, reject) => client.replace(second, uri, { file_name: 'second.mp4' }, resolve, () => {}, reject));
    assert.equal(replaced, uri);
    const during = await read();
    assert.deepEqual([during.status, (during.transcode as { status: string }).status, during.width], ['available', 'in_progress', 320], 'the first file plays on');
    assert.equal(await h.settle(), 1);
    const after = await read();
    assert.deepEqual([after.status, after.duration, after.width, after.height], ['available', 1, 426, 240]);
    const file = await fetch(`${h.server.url}${uri}/file`);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), v2);
  });
});
