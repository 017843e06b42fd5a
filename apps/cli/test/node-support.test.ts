import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TestS3 } from '@reelbase/api-tests';
import { nodeSupportNotice, quietThirdPartyNotices } from '../src/node-support';
import { tempDir } from './cli-harness';
import { startCli, stopCli } from './worker-processes';

/** Node.js versions (issue 47): reelbase says once, in its own words, when its Node.js is past its end of life; the AWS SDK's notice stays quiet. */
describe('Node.js support', () => {
  it('names a line past its end of life, and nothing while it is supported or unknown', () => {
    assert.equal(
      nodeSupportNotice('v20.20.2', new Date('2026-12-07T00:00:00Z')),
      'reelbase: Node.js 20.20.2 reached its end of life on 2026-04-30 and gets no security fixes; run reelbase on Node.js 22 or 24 (LTS).',
    );
    assert.equal(nodeSupportNotice('v20.20.2', new Date('2026-04-29T23:59:59Z')), null);
    assert.equal(nodeSupportNotice('v22.23.5', new Date('2026-12-07T00:00:00Z')), null);
    assert.equal(nodeSupportNotice('v24.1.0', new Date('2027-12-31T00:00:00Z')), null);
    assert.match(nodeSupportNotice('v24.1.0', new Date('2028-05-01T00:00:00Z')) ?? '', /^reelbase: Node\.js 24\.1\.0 reached its end of life on 2028-04-30/);
    assert.equal(nodeSupportNotice('v99.0.0', new Date('2030-01-01T00:00:00Z')), null);
  });

  it('switches the AWS SDK’s version notice off through its documented variable, unless the operator set it', () => {
    const unset: NodeJS.ProcessEnv = {};
    quietThirdPartyNotices(unset);
    assert.equal(unset.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED, 'true');
    const chosen: NodeJS.ProcessEnv = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false' };
    quietThirdPartyNotices(chosen);
    assert.equal(chosen.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED, 'false');
  });

  describe('serve on a bucket', () => {
    const s3 = new TestS3();
    let dir: string;
    let cleanup: () => void;
    before(async () => {
      ({ dir, cleanup } = tempDir());
      await s3.start();
    });
    after(async () => {
      await s3.dispose();
      cleanup();
    });

    // The day is past every line's end of life in the table, so the notice shows on any Node.js reelbase supports.
    it('prints the end-of-life line once, on stderr, and never the AWS SDK’s NodeVersionSupportWarning', async () => {
      const env = { ...s3.env(), REELBASE_STORE: `sqlite:${join(dir, 'reelbase.db')}`, REELBASE_TEST_TODAY: '2030-01-01' };
      const server = await startCli(['serve', '--port', '0', '--no-worker', '--blobs', 's3://reelbase/node-support'], env, /^Stop with Ctrl-C\.$/, dir);
      assert.equal(await stopCli(server), 0);
      assert.equal(server.errors.filter((l) => l.includes('end of life')).length, 1, server.errors.join('\n'));
      assert.ok(!server.errors.some((l) => /NodeVersionSupportWarning|AWS SDK/.test(l)), server.errors.join('\n'));
      assert.ok(server.lines.includes('Video files: s3://reelbase/node-support/'), 'the S3 client was made at start (where the SDK would warn)');
    });
  });
});
