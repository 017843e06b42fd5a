import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, eq, gte, type OrderBy, type Schema, type Store } from '@reelbase/core';
import type { StoreTestDriver } from './driver';
import { ids } from './fixtures';

/** Clips and their tag rows, which mirror each clip's title, plays and openness (CollectionSchema.mirror). */
const mirrorSchema: Schema = {
  clips: { id: 'auto', fields: { title: 'text', plays: 'integer', open: 'boolean' } },
  clip_tags: {
    id: 'auto',
    fields: { clip_id: 'string', tag: 'string', clip_title: 'text', clip_plays: 'integer', clip_open: 'boolean' },
    indexes: [['tag', 'clip_open', 'clip_plays desc'], ['tag', 'clip_title']],
    mirror: { collection: 'clips', key: 'clip_id', fields: { clip_title: 'title', clip_plays: 'plays', clip_open: 'open' } },
  },
};

async function withClips(driver: StoreTestDriver, fn: (store: Store) => Promise<void>): Promise<void> {
  const store = await driver.open(mirrorSchema);
  try {
    for (const [title, plays, open] of [
      ['beta', 5, true],
      ['Alpha', 9, true],
      ['gamma', 5, false],
      ['delta', 1, true],
    ] as const) {
      await store.insert('clips', { title, plays, open });
    }
    for (const clip of ['1', '2', '3', '4']) await store.insert('clip_tags', { clip_id: clip, tag: 'music' });
    await store.insert('clip_tags', { clip_id: '1', tag: 'travel' });
    await fn(store);
  } finally {
    await store.close();
  }
}

const byPlays: OrderBy = { field: 'clip_plays', direction: 'desc' };
/** The clip ids of the `music` rows matching `where`, in `orderBy` order. */
const musicClips = async (store: Store, orderBy: OrderBy[] = [byPlays], where = eq('tag', 'music')) =>
  (await store.find('clip_tags', { where, orderBy })).items.map((row) => row.clip_id);

/** Mirrored fields: rows filter and sort by their source document's fields, kept in step on every write. */
export function mirrorTests(driver: StoreTestDriver): void {
  describe('mirrored fields', () => {
    it('filter and sort rows by the source fields, ties by id, and never appear in documents', () =>
      withClips(driver, async (store) => {
        assert.deepEqual(await musicClips(store), ['2', '1', '3', '4']);
        assert.deepEqual(await musicClips(store, [{ field: 'clip_title', direction: 'asc' }]), ['2', '1', '4', '3']);
        assert.deepEqual(await musicClips(store, [byPlays], and(eq('tag', 'music'), eq('clip_open', true), gte('clip_plays', 5))), ['2', '1']);
        assert.equal(await store.count('clip_tags', eq('clip_plays', 5)), 3);
        assert.deepEqual(await store.get('clip_tags', '1'), { id: '1', clip_id: '1', tag: 'music' });
        assert.deepEqual((await store.find('clip_tags', { where: eq('clip_id', '3') })).items, [{ id: '3', clip_id: '3', tag: 'music' }]);
      }));

    it('are read from the source by insertMany too, each row in order with its own id (a driver may write several to a statement)', () =>
      withClips(driver, async (store) => {
        // Sources 1–4 exist, 5 does not; keys in no particular order.
        const rows = Array.from({ length: 75 }, (_, i) => ({ clip_id: String(((i * 7) % 5) + 1), tag: `t${i}` }));
        const inserted = await store.insertMany('clip_tags', rows);
        assert.deepEqual(inserted, rows.map((_, i) => String(i + 6)));
        for (const [i, id] of inserted.entries()) assert.deepEqual(await store.get('clip_tags', id), { id, ...rows[i] });
        const of = (clip: string) => rows.filter((r) => r.clip_id === clip).length;
        // Each clip's fields on its new rows, and on the rows withClips made before.
        assert.equal(await store.count('clip_tags', eq('clip_title', 'Alpha')), of('2') + 1);
        assert.equal(await store.count('clip_tags', eq('clip_open', false)), of('3') + 1);
        assert.equal(await store.count('clip_tags', eq('clip_plays', 5)), of('1') + of('3') + 3);
        assert.equal(await store.count('clip_tags', eq('clip_plays', null)), of('5'));
        assert.deepEqual(await musicClips(store, [byPlays], eq('tag', 't3')), ['2']);
        await store.insert('clips', { title: 'epsilon', plays: 50, open: true });
        assert.equal(await store.count('clip_tags', eq('clip_plays', 50)), of('5'));
      }));

    it('follow updates and increments of the source, and undo with a rolled-back transaction', () =>
      withClips(driver, async (store) => {
        await store.increment('clips', '4', 'plays', 100);
        await store.update('clips', '2', { title: 'zulu', open: false });
        assert.deepEqual(await musicClips(store), ['4', '2', '1', '3']);
        assert.deepEqual(await musicClips(store, [{ field: 'clip_title', direction: 'asc' }]), ['1', '4', '3', '2']);
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.update('clips', '3', { plays: 1000 });
            assert.deepEqual(await tx.find('clip_tags', { where: eq('tag', 'music'), orderBy: [byPlays], limit: 1 }).then(ids), ['3']);
            throw new Error('undo');
          }),
          /undo/,
        );
        assert.deepEqual(await musicClips(store), ['4', '2', '1', '3']);
        assert.deepEqual(await musicClips(store, [byPlays], and(eq('tag', 'music'), eq('clip_open', false))), ['2', '3']);
      }));

    it('are null while the source is missing, and follow it when it appears or the key changes', () =>
      withClips(driver, async (store) => {
        await store.insert('clip_tags', { clip_id: '5', tag: 'music' });
        assert.deepEqual(await musicClips(store), ['2', '1', '3', '4', '5']);
        assert.equal(await store.count('clip_tags', eq('clip_plays', null)), 1);
        await store.insert('clips', { title: 'epsilon', plays: 50, open: true });
        assert.deepEqual(await musicClips(store), ['5', '2', '1', '3', '4']);
        await store.update('clip_tags', '6', { clip_id: '4' });
        assert.deepEqual(await musicClips(store, [byPlays], and(eq('tag', 'music'), eq('clip_plays', 1))), ['4', '4']);
        await store.delete('clips', '4');
        assert.equal(await store.count('clip_tags', eq('clip_plays', null)), 2);
      }));
  });
}
