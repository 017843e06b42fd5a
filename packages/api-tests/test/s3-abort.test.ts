import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { checkBlobs, eq, type JobRecord, type MultipartState, type VideoRecord } from '@reelbase/core';
import { MultipartTusStore, S3BlobStore } from '@reelbase/blobs-s3';
import { createTusVideo, drivers, Harness, holdPatch, TestS3, until, type Fixture } from '../src/index';

const part = 5 * 1024 * 1024;

/**
 * Abandoned multipart uploads are aborted by a durable job (issue 36). s3rver implements no
 * AbortMultipartUpload (nor ListMultipartUploads to see what is left), so the store's S3 client
 * is wrapped: every call is recorded, and the abort is answered here instead of by s3rver.
 */
describe('abandoned multipart uploads are aborted (a recording S3 client over s3rver)', () => {
  const s3 = new TestS3();
  let h: Harness;
  let blobs: S3BlobStore;
  let alice: Fixture;
  const aborts: { Key: string; UploadId: string }[] = [];
  const bytes = randomBytes(part + 1000);

  before(async () => {
    await s3.start();
    const client = s3.client();
    const send = client.send.bind(client);
    const recording = (command: { constructor: { name: string }; input: unknown }, ...rest: unknown[]) => {
      if (command.constructor.name !== 'AbortMultipartUploadCommand') return (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
      aborts.push(command.input as { Key: string; UploadId: string });
      return Promise.resolve({});
    };
    client.send = recording as typeof client.send;
    blobs = new S3BlobStore({ bucket: s3.bucket, client });
    h = await Harness.start(drivers[0], {}, { blobs });
    alice = await h.user('Alice');
  });
  after(async () => {
    await h?.stop();
    await s3.dispose();
  });

  /** An upload of 12 MiB with its first part and a tail of 1000 bytes recorded. */
  async function started(): Promise<{ id: string; link: string; state: MultipartState }> {
    const { id, link } = await createTusVideo(h, alice.token, 12 * 1024 * 1024);
    assert.equal(await holdPatch(link, bytes, bytes.length).finish(), 204);
    const video = await h.service.store.get<VideoRecord>('videos', id);
    const state = (video!.upload as { multipart?: MultipartState }).multipart!;
    assert.deepEqual([state.parts.length, state.tail?.size], [1, 1000]);
    return { id, link, state };
  }
  const abortJobs = async (id: string) => (await h.service.store.find<JobRecord>('jobs', { where: eq('subject', id) })).items.filter((j) => j.kind === 'uploads.abort');
  const clean = async () => {
    const found = await checkBlobs(h.service.store, blobs, { now: new Date(), graceSeconds: 0 });
    assert.deepEqual([found.orphans.map((b) => b.key), found.missing.map((b) => b.key)], [[], []], 'blobs check is clean');
  };

  it('an upload whose link expired is given up an hour after: aborted, its tail removed, its state dropped and its space let go of', async () => {
    const { id, link, state } = await started();
    const [job] = await abortJobs(id);
    const expires = (await h.service.store.get<VideoRecord>('videos', id))!.upload.expires!;
    assert.equal(Date.parse(job.run_after), Date.parse(expires) + 3600_000, 'due an hour after the link expires');
    assert.equal(await h.settle(), 0, 'not due while the link works');
    h.clock.advance((Date.parse(expires) - h.clock.now().getTime()) / 1000 + 3601);
    assert.equal(await h.settle(), 1, 'the abort (which removes the tail at once, by a job queued with dropping the state)');
    assert.deepEqual(aborts, [{ Bucket: s3.bucket, Key: state.key, UploadId: state.uploadId }]);
    assert.deepEqual(await s3.keys(`videos/${id}/`), [], 'the tail is gone');
    assert.equal((await h.service.store.get<VideoRecord>('videos', id) as { upload: { multipart?: unknown } }).upload.multipart, null);
    // Given up with it: its space is back, and its link answers as any ended upload's.
    const me = await h.call('GET', '/me?fields=upload_quota.space', { token: alice.token });
    assert.equal(me.body.upload_quota.space.free, me.body.upload_quota.space.max);
    const v = await h.call('GET', `/videos/${id}?fields=status,upload.status`, { token: alice.token });
    assert.deepEqual(v.body, { status: 'uploading_error', upload: { status: 'error' } });
    assert.equal((await fetch(link, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })).status, 404);
    await clean();
  });

  it('an upload whose video is deleted is aborted at once, not at its link’s expiry', async () => {
    aborts.length = 0;
    const { id, state } = await started();
    assert.equal((await h.call('DELETE', `/videos/${id}`, { token: alice.token })).status, 204);
    assert.ok((await h.settle()) >= 1);
    assert.deepEqual(aborts, [{ Bucket: s3.bucket, Key: state.key, UploadId: state.uploadId }]);
    assert.deepEqual((await abortJobs(id)).map((j) => j.state), ['done']);
    assert.deepEqual(await s3.keys(`videos/${id}/`), []);
    await clean();
  });

  it('a PATCH that lost to a concurrent one aborts the multipart upload it started, and removes its tail', async () => {
    aborts.length = 0;
    const { id, link } = await createTusVideo(h, alice.token, 12 * 1024 * 1024);
    const upload = new URL(link).pathname.split('/').pop()!;
    const tus = new MultipartTusStore(h.service, blobs);
    const streams = [new PassThrough(), new PassThrough()];
    const writes = streams.map((s) => tus.write(s, upload, 0).then((n) => n, (e: { status_code?: number }) => e.status_code));
    // Both have read the upload's state (offset 0, no multipart upload yet) and wait for bytes.
    await until(() => streams.every((s) => s.listenerCount('readable') + s.listenerCount('data') > 0), 'both writes reading');
    streams[0].end(bytes);
    assert.equal(await writes[0], bytes.length, 'the first to record wins');
    streams[1].end(bytes);
    assert.equal(await writes[1], 409, 'the other is told the upload moved on');
    const recorded = ((await h.service.store.get<VideoRecord>('videos', id))!.upload as { multipart?: MultipartState }).multipart!;
    const jobs = await abortJobs(id);
    assert.equal(jobs.length, 2, 'the winner’s abort for its expiry, the loser’s due now');
    const lost = jobs.map((j) => j.payload as { uploadId: string }).find((p) => p.uploadId !== recorded.uploadId)!;
    assert.ok(await h.settle() >= 1);
    assert.deepEqual(aborts.map((a) => a.UploadId), [lost.uploadId], 'only the lost one is aborted');
    assert.deepEqual(await s3.keys(`videos/${id}/`), [recorded.tail!.key], 'only the recorded tail is left');
    await clean();
  });
});
