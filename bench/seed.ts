import { createService, createToken, createUser, parseScopes, schema, type Service, type Store, type VideoRecord } from '@reelbase/core';
import { openJsonStore } from '@reelbase/store-json';
import { openSqliteStore } from '@reelbase/store-sqlite';

export type Driver = 'sqlite' | 'json';

export interface Seeded {
  service: Service;
  userId: string;
  /** A video in the middle of the collection. */
  videoId: string;
  seedMs: number;
}

export const openStore = (driver: Driver, dir: string): Promise<Store> =>
  driver === 'sqlite' ? openSqliteStore({ schema, path: `${dir}/bench.db` }) : openJsonStore({ schema, path: `${dir}/bench.json` });

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

/**
 * One user with `count` public videos: the first goes through the API (so the document is what
 * POST /me/videos stores), the rest are copies inserted in one store transaction.
 */
export async function seed(driver: Driver, dir: string, count: number): Promise<Seeded> {
  const started = performance.now();
  const store = await openStore(driver, dir);
  const service = createService({ store });
  const user = await store.transaction(async (tx) => {
    const u = await createUser(tx, new Date(), { name: 'Bench' });
    return { user: u, token: (await createToken(tx, new Date(), u.id, parseScopes('all'))).token };
  });
  const answer = await service.handle(user.token, {
    method: 'POST',
    url: '/me/videos',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench video',
      description: 'A video the benchmark copies. '.repeat(8),
      upload: { approach: 'tus', size: 1_000_000 },
      privacy: { view: 'anybody' },
    }),
  });
  if (answer.status !== 201) throw new Error(`seeding: POST /me/videos answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const templateId = String((answer.body as { uri: string }).uri.split('/').pop());
  const { id: _id, ...template } = (await store.get<VideoRecord>('videos', templateId))!;
  const base = Date.parse('2026-01-01T00:00:00Z');
  const ids = await store.transaction(async (tx) => {
    const inserted: string[] = [templateId];
    for (let i = 1; i < count; i++) {
      const time = iso(base + i * 1000);
      const doc = { ...template, name: `Bench video ${i}`, created_time: time, modified_time: time, release_time: time };
      inserted.push((await tx.insert<VideoRecord>('videos', doc)).id);
    }
    await tx.update('users', user.user.id, { videos_total: count });
    return inserted;
  });
  return { service, userId: user.user.id, videoId: ids[Math.floor(ids.length / 2)], seedMs: performance.now() - started };
}
