import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testBlobStore } from '@reelbase/blobs-testkit';
import { FsBlobStore } from '../src/index';

const root = mkdtempSync(join(tmpdir(), 'reelbase-blobs-'));
testBlobStore({
  name: 'filesystem',
  open: async () => ({ blobs: new FsBlobStore(root), leftovers: () => (existsSync(join(root, '.tmp')) ? readdirSync(join(root, '.tmp')) : []) }),
  close: async () => rmSync(root, { recursive: true, force: true }),
  ownFile: (key) => join(root, ...key.split('/')),
});
