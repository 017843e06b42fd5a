import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Schema } from '@reelbase/core';
import { testStore } from '@reelbase/store-testkit';
import { Low, Memory } from 'lowdb';
import { openJsonStore } from '../src/index';
import { createJsonStore, type JsonData } from '../src/json-store';

const dir = await mkdtemp(join(tmpdir(), 'reelbase-json-'));
after(() => rm(dir, { recursive: true, force: true }));

testStore({ name: 'json (memory)', open: (schema) => openJsonStore({ schema }) });

let files = 0;
let lastPath = '';
testStore({
  name: 'json (file)',
  open: (schema) => openJsonStore({ schema, path: (lastPath = join(dir, `store-${++files}.json`)) }),
  reopen: (schema) => openJsonStore({ schema, path: lastPath }),
});

const schema: Schema = { items: { id: 'auto', fields: { n: 'integer' }, unique: [['n']] } };

/** A memory adapter that counts writes and can be told to fail the next one. */
class ProbeAdapter extends Memory<JsonData> {
  writes = 0;
  failNext = false;
  override async write(data: JsonData): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('disk full');
    }
    this.writes++;
    await super.write(data);
  }
}

describe('json store specifics', () => {
  let sub: string;
  before(async () => {
    sub = await mkdtemp(join(dir, 'specifics-'));
  });

  it('leaves valid JSON in the documented layout and no temp files behind', async () => {
    const path = join(sub, 'nested', 'db.json');
    const store = await openJsonStore({ schema, path });
    await store.insert('items', { n: 1 });
    await store.insert('items', { n: 2, note: 'x' });
    await store.delete('items', '1');
    await store.transaction(async (tx) => {
      await tx.insert('items', { n: 3 });
      await tx.increment('items', '2', 'n', 10);
    });
    await store.close();
    const data = JSON.parse(await readFile(path, 'utf8'));
    assert.deepEqual(data, {
      version: 1,
      collections: { items: { seq: 3, rows: [{ id: '2', n: 12, note: 'x' }, { id: '3', n: 3 }] } },
    });
    assert.deepEqual(await readdir(join(sub, 'nested')), ['db.json']);
  });

  it('persists once per committed write or transaction, never for no-ops or rollbacks', async () => {
    const adapter = new ProbeAdapter();
    const store = await createJsonStore(new Low(adapter, { version: 1, collections: {} }), schema);
    await store.insert('items', { n: 1 });
    await store.update('items', '1', { n: 2 });
    assert.equal(adapter.writes, 2);
    await store.transaction(async (tx) => {
      for (let n = 10; n < 20; n++) await tx.insert('items', { n });
      await tx.deleteWhere('items', { field: 'n', op: 'gte', value: 15 });
    });
    assert.equal(adapter.writes, 3);
    await store.update('items', '99', { n: 5 });
    await store.delete('items', '99');
    await store.deleteWhere('items', { field: 'n', op: 'eq', value: 99 });
    await store.increment('items', '99', 'n', 1);
    await store.find('items');
    await store.transaction(async () => 'reads only');
    await assert.rejects(store.insert('items', { n: 2 }), { name: 'StoreConflictError' });
    await assert.rejects(store.transaction(async (tx) => (await tx.insert('items', { n: 100 }), Promise.reject(new Error('no')))));
    assert.equal(adapter.writes, 3);
    await store.close();
  });

  it('undoes a write in memory when persisting it fails', async () => {
    const adapter = new ProbeAdapter();
    const store = await createJsonStore(new Low(adapter, { version: 1, collections: {} }), schema);
    await store.insert('items', { n: 1 });
    adapter.failNext = true;
    await assert.rejects(store.insert('items', { n: 2 }), { message: 'disk full' });
    adapter.failNext = true;
    await assert.rejects(store.transaction((tx) => tx.update('items', '1', { n: 5 })), { message: 'disk full' });
    assert.deepEqual((await store.find('items')).items, [{ id: '1', n: 1 }]);
    assert.equal((await store.insert('items', { n: 2 })).id, '2');
    await store.close();
  });

  it('rejects use of the root store inside its own transaction instead of deadlocking', async () => {
    const store = await openJsonStore({ schema });
    await assert.rejects(
      store.transaction(async () => store.insert('items', { n: 1 })),
      /use the `tx` handle/,
    );
    let leaked: (() => Promise<unknown>) | undefined;
    await store.transaction(async (tx) => {
      leaked = () => tx.insert('items', { n: 1 });
    });
    await assert.rejects(leaked!(), /transaction already finished/);
    assert.equal(await store.count('items'), 0);
    await store.close();
    await assert.rejects(store.count('items'), /closed/);
  });

  it('refuses a file that is not a version 1 store', async () => {
    const path = join(sub, 'other.json');
    await writeFile(path, JSON.stringify({ version: 2, collections: {} }));
    await assert.rejects(openJsonStore({ schema, path }), /version 1/);
  });
});
