import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createService, createToken, parseScopes, schema, type Service, type Store } from '@reelbase/core';
import { seedPopulation, type PopulationSummary } from '@reelbase/seed';
import { openJsonStore } from '@reelbase/store-json';

/**
 * A 100-item page costs the same number of store calls as a 1-item page: owners, counters
 * (`metadata.connections.*.total`, `stats.plays` live on the records) and the viewer's
 * interactions are fetched once per page per kind, never once per item.
 */

/** The store, counting every call made through it. */
function counting(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(name), (calls.get(String(name)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: wrapped, calls };
}

const total = (calls: Map<string, number>) => [...calls.values()].reduce((a, b) => a + b, 0);

describe('store calls per list page', () => {
  let service: Service;
  let calls: Map<string, number>;
  let seeded: PopulationSummary;
  let viewer: string;
  let liker: string;
  let followed: string;

  before(async () => {
    const memory = await openJsonStore({ schema });
    seeded = await seedPopulation(memory, { users: 150, videos: 1500, follows: 3000, likes: 6000, comments: 3000, channels: 3, channelVideos: 600, seed: 3 });
    const most = async (collection: string, field: string) => {
      const { items } = await memory.find(collection, {});
      const counts = new Map<string, number>();
      for (const row of items) counts.set(String(row[field]), (counts.get(String(row[field])) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1])[0][0];
    };
    liker = await most('likes', 'user_id');
    followed = await most('follows', 'target_id');
    // The viewer follows, likes and queues things, so interactions are filled in on every item.
    viewer = (await createToken(memory, new Date(), liker, parseScopes('all'))).token;
    const counted = counting(memory);
    calls = counted.calls;
    service = createService({ store: counted.store, config: { rateLimit: null } });
    // The first request loads the store's media-link key, once per service: not a cost of any page.
    await service.handle(null, { method: 'GET', url: '/' });
  });

  const lists = (): [string, string][] => {
    const { user, channel, tag, video } = seeded.busiest;
    return [
      ["a user's videos", `/users/${user!.id}/videos`],
      ["a channel's videos", `/channels/${channel!.id}/videos?sort=plays`],
      ["a tag's videos", `/tags/${tag!.word}/videos`],
      ["a user's likes", `/users/${liker}/likes`],
      ["a user's followers", `/users/${followed}/followers`],
      ['user search', '/users?sort=followers'],
      ["a video's comments", `/videos/${video!.id}/comments`],
      ["a video's likes", `/videos/${video!.id}/likes`],
    ];
  };

  it('is the same for 1 and 100 items, for an anonymous caller and a signed-in one', async () => {
    for (const [name, path] of lists()) {
      for (const token of [null, viewer]) {
        const cost: number[] = [];
        for (const perPage of [1, 100]) {
          calls.clear();
          const r = await service.handle(token, { method: 'GET', url: `${path}${path.includes('?') ? '&' : '?'}per_page=${perPage}` });
          assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body).slice(0, 200)}`);
          assert.equal((r.body as { data: unknown[] }).data.length, perPage, `${name} has a full page of ${perPage}`);
          cost.push(total(calls));
        }
        assert.equal(cost[1], cost[0], `${name} (${token ? 'signed in' : 'anonymous'}): ${cost[0]} store calls for 1 item, ${cost[1]} for 100`);
        // A page of users counts each connection as its caller could list it (issue 46 §7): seven
        // grouped counts, whatever the page's size.
        assert.ok(cost[1] <= 14, `${name}: ${cost[1]} store calls for a page`);
      }
    }
  });
});
