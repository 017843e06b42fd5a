import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { populationOptions } from '../src/options';
import { planPopulation, type Pairs } from '../src/plan';

describe('planPopulation', () => {
  const plan = planPopulation(populationOptions({ users: 300, videos: 3000, likes: 9000, comments: 800, channels: 20, channelFollows: 400 }), Date.UTC(2026, 0, 1));
  const kinds: [string, Pairs][] = [
    ['follows', plan.follows],
    ['likes', plan.likes],
    ['channel videos', plan.channelVideos],
    ['channel follows', plan.channelFollows],
  ];

  it('draws distinct pairs of each kind, ordered by time', () => {
    for (const [kind, pairs] of kinds) {
      assert.ok(pairs.a.length > 0, kind);
      const seen = new Set<string>();
      for (let i = 0; i < pairs.a.length; i++) {
        const key = `${pairs.a[i]} ${pairs.b[i]}`;
        assert.ok(!seen.has(key), `${kind}: ${key} twice`);
        seen.add(key);
        if (i > 0) assert.ok(pairs.time[i - 1] <= pairs.time[i], `${kind}: row ${i} comes before its predecessor`);
      }
    }
    for (const [list, name] of [[plan.videos.time, 'videos'], [plan.comments.time, 'comments']] as const) {
      for (let i = 1; i < list.length; i++) assert.ok(list[i - 1] <= list[i], `${name}: row ${i}`);
    }
  });

  it('is the same plan for the same options, seed and clock', () => {
    const again = planPopulation(populationOptions({ users: 300, videos: 3000, likes: 9000, comments: 800, channels: 20, channelFollows: 400 }), Date.UTC(2026, 0, 1));
    assert.deepEqual(again, plan);
  });
});
