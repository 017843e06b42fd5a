import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Schema } from '@reelbase/core';
import { testStore } from '@reelbase/store-testkit';
import { openSqliteStore } from '../src/index';

testStore({ name: 'sqlite :memory:', open: (schema: Schema) => openSqliteStore({ schema, path: ':memory:' }) });

// Each open gets a new file; reopen opens the last one again (durability, schema upgrades).
const dir = mkdtempSync(join(tmpdir(), 'reelbase-sqlite-conformance-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const current = () => join(dir, `store-${files}.sqlite`);

testStore({
  name: 'sqlite file',
  open: (schema: Schema) => {
    files++;
    return openSqliteStore({ schema, path: current() });
  },
  reopen: (schema: Schema) => openSqliteStore({ schema, path: current() }),
});

// The same contract while a bulk load (`reelbase seed`) has the store: insertMany goes to the
// load's writer thread, and the indexes of empty tables are built at close.
testStore({
  name: 'sqlite file, bulk load',
  open: (schema: Schema) => {
    files++;
    return openSqliteStore({ schema, path: current(), bulkLoad: true });
  },
  reopen: (schema: Schema) => openSqliteStore({ schema, path: current() }),
});
