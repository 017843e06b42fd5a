import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schema, type Store } from '@reelbase/core';
import { openJsonStore } from '@reelbase/store-json';
import { openSqliteStore } from '@reelbase/store-sqlite';

/** A driver the API tests run on: each test file repeats its suite for every entry. */
export interface TestDriver {
  name: string;
  open(): Promise<{ store: Store; cleanup(): void }>;
}

const tempDir = (): { dir: string; cleanup(): void } => {
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

export const drivers: TestDriver[] = [
  {
    name: 'sqlite',
    async open() {
      const { dir, cleanup } = tempDir();
      return { store: await openSqliteStore({ schema, path: join(dir, 'reelbase.db') }), cleanup };
    },
  },
  {
    name: 'json',
    async open() {
      const { dir, cleanup } = tempDir();
      return { store: await openJsonStore({ schema, path: join(dir, 'reelbase.json') }), cleanup };
    },
  },
];
